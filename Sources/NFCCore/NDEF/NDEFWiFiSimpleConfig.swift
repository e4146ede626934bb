/// Wi-Fi Simple Configuration data (`application/vnd.wfa.wsc`, WSC 2.0 §12): attributes with a
/// 2-byte type and a 2-byte length, big-endian. Some writers put the total length in front.
public struct NDEFWiFiSimpleConfig: Sendable, Hashable {
    public struct Attribute: Sendable, Hashable {
        public var type: UInt16
        public var value: [UInt8]
        /// Where the attribute (type to last value byte) lies in the payload.
        public var range: Range<Int>

        public init(type: UInt16, value: [UInt8], range: Range<Int> = 0..<0) {
            self.type = type
            self.value = value
            self.range = range
        }

        /// WSC 2.0 Table 28 names; `expectedLength` where the spec fixes it.
        public var name: String { Self.names[type]?.0 ?? "attribute \(Hex.value(type, digits: 4))" }
        public var expectedLength: ClosedRange<Int>? { Self.names[type]?.1 }

        static let names: [UInt16: (String, ClosedRange<Int>?)] = [
            0x1001: ("AP Channel", 2...2),
            0x1003: ("Authentication Type", 2...2),
            0x1008: ("Configuration Methods", 2...2),
            0x100E: ("Credential", nil),
            0x100F: ("Encryption Type", 2...2),
            0x1011: ("Device Name", 0...32),
            0x1020: ("MAC Address", 6...6),
            0x1021: ("Manufacturer", 0...64),
            0x1023: ("Model Name", 0...32),
            0x1024: ("Model Number", 0...32),
            0x1026: ("Network Index", 1...1),
            0x1027: ("Network Key", 0...64),
            0x102C: ("OOB Device Password", 22...54),   // 20-byte key hash, 2-byte ID, 0–32-byte password
            0x103C: ("RF Bands", 1...1),
            0x1042: ("Serial Number", 0...32),
            0x1045: ("SSID", 0...32),
            0x1047: ("UUID-E", 16...16),
            0x1048: ("UUID-R", 16...16),
            0x1049: ("Vendor Extension", 3...1024),
            0x104A: ("Version", 1...1),
            0x1054: ("Primary Device Type", 8...8),
            0x1055: ("Secondary Device Type List", nil),
            0x1061: ("Key Provided Automatically", 1...1),
        ]
    }

    /// Whether the payload starts with the 2-byte total length of the attributes.
    public var hasLengthPrefix: Bool
    public var attributes: [Attribute]

    public init(attributes: [Attribute], hasLengthPrefix: Bool = false) {
        self.attributes = attributes
        self.hasLengthPrefix = hasLengthPrefix
    }

    /// A network credential as phones write it: Credential { network index, SSID, authentication
    /// and encryption type, network key, MAC address } plus Version 1.0 (0x10).
    public static func credential(ssid: [UInt8], networkKey: [UInt8], authenticationType: UInt16 = 0x0020,
                                  encryptionType: UInt16 = 0x0008,
                                  macAddress: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) -> NDEFWiFiSimpleConfig {
        func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] }
        let inner: [Attribute] = [
            Attribute(type: 0x1026, value: [1]), Attribute(type: 0x1045, value: ssid),
            Attribute(type: 0x1003, value: u16(authenticationType)), Attribute(type: 0x100F, value: u16(encryptionType)),
            Attribute(type: 0x1027, value: networkKey), Attribute(type: 0x1020, value: macAddress),
        ]
        let credential = Self.encodeAttributes(inner)
        return NDEFWiFiSimpleConfig(attributes: [Attribute(type: 0x104A, value: [0x10]),
                                                 Attribute(type: 0x100E, value: credential)])
    }

    public func first(_ type: UInt16) -> Attribute? { attributes.first(where: { $0.type == type }) }

    /// The attributes in `bytes` (a Credential value, say), ranges relative to `bytes`; reading
    /// stops at the first incomplete one.
    public static func attributes(in bytes: [UInt8]) -> [Attribute] {
        var ignored: [NDEFIssue] = []
        return readAttributes(bytes, from: 0, issues: &ignored)
    }

    /// Attributes inside a Credential (0x100E) value.
    public var credentials: [NDEFWiFiSimpleConfig] {
        attributes.filter { $0.type == 0x100E }.map { NDEFWiFiSimpleConfig(attributes: Self.attributes(in: $0.value)) }
    }

    public func encode() -> [UInt8] {
        let body = Self.encodeAttributes(attributes)
        guard hasLengthPrefix else { return body }
        return [UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)] + body
    }

    static func encodeAttributes(_ attributes: [Attribute]) -> [UInt8] {
        var out: [UInt8] = []
        for a in attributes {
            out += [UInt8(a.type >> 8), UInt8(truncatingIfNeeded: a.type)]
            out += [UInt8(truncatingIfNeeded: a.value.count >> 8), UInt8(truncatingIfNeeded: a.value.count)]
            out += a.value
        }
        return out
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFWiFiSimpleConfig? {
        guard payload.count >= 4 else {
            issues.append(NDEFIssue(offset: payload.count, rule: .wscTruncated,
                                    message: "\(payload.count)-byte payload, needs at least one attribute header (4 bytes)"))
            return nil
        }
        // The NFC configuration token may start with the total attribute length (WSC 2.0 §10.1.2):
        // taken as such when it matches the rest of the payload exactly.
        let prefixed = (Int(payload[0]) << 8 | Int(payload[1])) == payload.count - 2
        let attributes = readAttributes(payload, from: prefixed ? 2 : 0, issues: &issues)
        for a in attributes where a.type < 0x1000 {
            issues.append(NDEFIssue(offset: a.range.lowerBound, rule: .wscAttributeReserved,
                                    message: "attribute type \(Hex.value(a.type, digits: 4)) is reserved (WSC types start at 0x1000)"))
        }
        checkLengths(attributes, &issues)
        return NDEFWiFiSimpleConfig(attributes: attributes, hasLengthPrefix: prefixed)
    }

    static func readAttributes(_ bytes: [UInt8], from start: Int, issues: inout [NDEFIssue]) -> [Attribute] {
        var cursor = ByteCursor(bytes, range: start..<bytes.count, origin: 0)
        var out: [Attribute] = []
        while !cursor.isAtEnd {
            let at = cursor.index
            do throws(DecodeError) {
                let type = try cursor.readUInt16BE("attribute type")
                let length = Int(try cursor.readUInt16BE("attribute length"))
                let value = try cursor.readBytes(length, "attribute value of \(length) bytes")
                out.append(Attribute(type: type, value: value, range: at..<cursor.index))
            } catch {
                issues.append(NDEFIssue(offset: error.offset, rule: .wscTruncated,
                                        message: "Wi-Fi attribute at byte \(at): \(error.description)"))
                break
            }
        }
        return out
    }

    static func checkLengths(_ attributes: [Attribute], _ issues: inout [NDEFIssue]) {
        for a in attributes {
            if let expected = a.expectedLength, !expected.contains(a.value.count) {
                issues.append(NDEFIssue(offset: a.range.lowerBound + 2, rule: .wscAttributeLength,
                                        message: "\(a.name) of \(a.value.count) bytes (WSC gives \(expected.lowerBound)"
                                            + (expected.count > 1 ? "–\(expected.upperBound)" : "") + ")"))
            }
        }
    }

    /// WSC 2.0 Table 32 / 34 bits.
    public static func authenticationTypeNames(_ v: UInt16) -> [String] {
        [(0x0001, "Open"), (0x0002, "WPA-Personal"), (0x0004, "Shared"), (0x0008, "WPA-Enterprise"),
         (0x0010, "WPA2-Enterprise"), (0x0020, "WPA2-Personal")].filter { v & $0.0 != 0 }.map(\.1)
    }

    public static func encryptionTypeNames(_ v: UInt16) -> [String] {
        [(0x0001, "None"), (0x0002, "WEP"), (0x0004, "TKIP"), (0x0008, "AES")].filter { v & $0.0 != 0 }.map(\.1)
    }
}

/// Wi-Fi P2P carrier configuration (`application/vnd.wfa.p2p`): WSC data length (BE) + WSC
/// attributes + P2P data length (BE) + P2P attributes (1-byte ID, 2-byte little-endian length,
/// Wi-Fi P2P spec §4.1.1 — as wpa_supplicant reads them; ndeflib reads them big-endian).
public struct NDEFWiFiPeerToPeer: Sendable, Hashable {
    public struct Attribute: Sendable, Hashable {
        public var id: UInt8
        public var value: [UInt8]
        public var range: Range<Int>

        public init(id: UInt8, value: [UInt8], range: Range<Int> = 0..<0) {
            self.id = id
            self.value = value
            self.range = range
        }

        public var name: String {
            switch id {
            case 2: return "P2P Capability"
            case 11: return "Channel List"
            case 13: return "P2P Device Info"
            case 14: return "P2P Group Info"
            case 15: return "P2P Group ID"
            case 19: return "Negotiation Channel"
            default: return "P2P attribute \(id)"
            }
        }
    }

    public var wsc: NDEFWiFiSimpleConfig
    public var attributes: [Attribute]

    public init(wsc: NDEFWiFiSimpleConfig, attributes: [Attribute]) {
        self.wsc = wsc
        self.attributes = attributes
    }

    public func encode() -> [UInt8] {
        let w = NDEFWiFiSimpleConfig.encodeAttributes(wsc.attributes)
        var p: [UInt8] = []
        for a in attributes {
            p += [a.id, UInt8(truncatingIfNeeded: a.value.count), UInt8(truncatingIfNeeded: a.value.count >> 8)] + a.value
        }
        return [UInt8(truncatingIfNeeded: w.count >> 8), UInt8(truncatingIfNeeded: w.count)] + w
            + [UInt8(truncatingIfNeeded: p.count >> 8), UInt8(truncatingIfNeeded: p.count)] + p
    }

    /// Attributes the handover needs (WSC: manufacturer, model name/number, OOB password, RF bands,
    /// serial number, UUID-E, vendor extension; P2P: capability, device info, negotiation channel).
    static let required: (wsc: [UInt16], p2p: [UInt8]) = ([0x1021, 0x1023, 0x1024, 0x102C, 0x103C, 0x1042, 0x1047, 0x1049],
                                                         [2, 13, 19])

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFWiFiPeerToPeer? {
        var cursor = ByteCursor(payload)
        do throws(DecodeError) {
            let wscLength = Int(try cursor.readUInt16BE("WSC data length"))
            let wscRange = try cursor.readRange(wscLength, "WSC data of \(wscLength) bytes")
            let p2pLength = Int(try cursor.readUInt16BE("P2P data length"))
            let p2pRange = try cursor.readRange(p2pLength, "P2P data of \(p2pLength) bytes")
            if wscLength < 4 {
                issues.append(NDEFIssue(offset: 0, rule: .p2pWSCDataShort, message: "WSC data of \(wscLength) bytes"))
            }
            var wscIssues: [NDEFIssue] = []
            let wscView = NDEFWiFiSimpleConfig.read(Array(payload[wscRange]), issues: &wscIssues)
            for var i in wscIssues where i.rule != .wscTruncated || wscLength >= 4 {
                i.offset += wscRange.lowerBound
                issues.append(i)
            }
            var attributes: [Attribute] = []
            var p = ByteCursor(payload, range: p2pRange, origin: 0)
            while !p.isAtEnd {
                let at = p.index
                let id = try p.readUInt8("P2P attribute ID")
                let length = Int(try p.readUInt16LE("P2P attribute length"))
                attributes.append(Attribute(id: id, value: try p.readBytes(length, "P2P attribute of \(length) bytes"),
                                            range: at..<p.index))
            }
            let wsc = wscView ?? NDEFWiFiSimpleConfig(attributes: [])
            let missing = required.wsc.filter { t in wsc.first(t) == nil }.map { Hex.value($0, digits: 4) }
                + required.p2p.filter { id in !attributes.contains(where: { $0.id == id }) }.map { "P2P \($0)" }
            if !missing.isEmpty {
                issues.append(NDEFIssue(offset: payload.count, rule: .p2pRequiredMissing,
                                        message: "missing attributes: \(missing.joined(separator: ", "))"))
            }
            return NDEFWiFiPeerToPeer(wsc: wsc, attributes: attributes)
        } catch {
            issues.append(NDEFIssue(offset: error.offset, rule: .p2pTruncated, message: "Wi-Fi P2P: \(error.description)"))
            return nil
        }
    }
}
