/// The 4-bit answers of Type 2 tags (protocols.md §2.2; NXP datasheet §9.3).
public enum Type2Acknowledgement: Sendable, Hashable {
    case ack
    case nak(NAK)

    public enum NAK: UInt8, Sendable, Hashable, CaseIterable {
        case invalidArgument = 0x0
        case parityOrCRCError = 0x1
        case authenticationCounterOverflow = 0x4
        case eepromWriteError = 0x5
        // Values outside the datasheet (PM3 uses 7 for EEPROM errors) are kept as `other`.

        public var meaning: String {
            switch self {
            case .invalidArgument: return "invalid argument (bad page or counter address, or refused)"
            case .parityOrCRCError: return "parity or CRC error"
            case .authenticationCounterOverflow: return "authentication counter overflow (AUTHLIM reached)"
            case .eepromWriteError: return "EEPROM write error"
            }
        }
    }

    /// A 4-bit value: `A` is ACK; `(v & 0xA) == 0` is a NAK (nfcpy's test); others are invalid.
    public init?(nibble: UInt8) {
        let v = nibble & 0x0F
        if v == 0xA { self = .ack; return }
        if let n = NAK(rawValue: v) { self = .nak(n); return }
        return nil
    }

    public var nibble: UInt8 {
        switch self {
        case .ack: return 0xA
        case .nak(let n): return n.rawValue
        }
    }

    /// Whether a tag frame looks like a 4-bit ACK/NAK: a single byte with 4 valid bits, or
    /// (when the capture does not tell bits) a single byte whose high nibble is zero.
    public static func looksLike(_ bytes: [UInt8], lastByteBits: UInt8) -> Bool {
        guard bytes.count == 1 else { return false }
        return lastByteBits == 4 || (lastByteBits == 8 && bytes[0] & 0xF0 == 0)
    }
}

/// GET_VERSION answer (protocols.md §2.3).
public struct Type2Version: Sendable, Hashable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The eight bytes of a GET_VERSION answer (NTAG213/215/216 datasheet §10.1, table 28).
    public enum Layout {
        public static let all = FieldLayout(0, 8, "8 version bytes")
        public static let fixedHeader = FieldLayout(0, 1, "fixed header")
        public static let vendor = FieldLayout(1, 1, "vendor ID")
        public static let productType = FieldLayout(2, 1, "product type")
        public static let productSubtype = FieldLayout(3, 1, "product subtype")
        public static let majorVersion = FieldLayout(4, 1, "major product version")
        public static let minorVersion = FieldLayout(5, 1, "minor product version")
        public static let storageSize = FieldLayout(6, 1, "storage size")
        public static let protocolType = FieldLayout(7, 1, "protocol type")
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> Type2Version {
        guard payload.count == Layout.all.width else {
            throw DecodeError(offset: min(payload.count, Layout.all.width), expected: Layout.all.expected, found: "\(payload.count) bytes")
        }
        return Type2Version(bytes: payload)
    }

    /// The byte of `field` (zero when the version is shorter than the layout, which decode refuses).
    private func byte(_ field: FieldLayout) -> UInt8 { field.offset < bytes.count ? bytes[field.offset] : 0 }

    public var fixedHeader: UInt8 { byte(Layout.fixedHeader) }
    public var vendorID: UInt8 { byte(Layout.vendor) }
    public var productType: UInt8 { byte(Layout.productType) }
    public var productSubtype: UInt8 { byte(Layout.productSubtype) }
    public var majorVersion: UInt8 { byte(Layout.majorVersion) }
    public var minorVersion: UInt8 { byte(Layout.minorVersion) }
    public var storageSize: UInt8 { byte(Layout.storageSize) }
    public var protocolType: UInt8 { byte(Layout.protocolType) }

    public var vendorName: String {
        switch vendorID {
        case 0x04: return "NXP Semiconductors"
        case 0x53: return "Shanghai Feiju (clone)"
        case 0x34: return "Mikron (clone)"
        default: return "unknown vendor \(Hex.byte(vendorID))"
        }
    }

    public var productTypeName: String {
        switch productType {
        case 0x03: return "MIFARE Ultralight"
        case 0x04: return "NTAG"
        default: return "product type \(Hex.byte(productType))"
        }
    }

    /// Storage-size byte: upper 7 bits n give 2^n bytes; LSB set means "between 2^n and 2^(n+1)".
    public var storageSizeDescription: String {
        let n = Int(storageSize >> 1)
        guard n < 31 else { return Hex.byte(storageSize) }
        return storageSize & 1 == 0 ? "\(1 << n) bytes" : "between \(1 << n) and \(1 << (n + 1)) bytes"
    }

    /// The tag model this version identifies, when known.
    public var model: Type2TagModel? { Type2TagModel(version: bytes) }
}

/// Answers of Type 2 tags, decoded in the context of the command they answer.
public enum Type2Response: Sendable, Hashable {
    case acknowledgement(Type2Acknowledgement)
    case version(Type2Version)
    /// READ (always 4 pages) or FAST_READ (end − start + 1 pages), starting at `firstPage`.
    case pages(firstPage: UInt8, data: [UInt8])
    /// PACK after a successful PWD_AUTH.
    case pack([UInt8])
    /// READ_CNT: 24-bit counter, LSB first on air.
    case counter(UInt32)
    case signature([UInt8])
    /// CHECK_TEARING_EVENT: `BD` means no tearing.
    case tearingFlag(UInt8)
    /// VCSL: the virtual card type identifier.
    case vctid(UInt8)
    /// AUTHENTICATE part 1 answer: `AF` + ek(RndB) (8 bytes for 3DES, 16 for AES).
    case authenticationChallenge([UInt8])
    /// AUTHENTICATE part 2 answer: `00` + ek(RndA').
    case authenticationResult([UInt8])

    /// Where the values of the answers sit (NTAG213/215/216 datasheet §10; MF0ICU2 §7.5.5 for
    /// the Ultralight C authentication, whose answers start with a marker byte). Answers not
    /// listed are one value over the whole payload (pages, signature, version).
    public enum Layout {
        public static let acknowledgement = FieldLayout(0, 1, "ACK (A) or NAK (0, 1, 4, 5)")
        public static let pack = FieldLayout(0, 2, "2-byte PACK")
        public static let counter = FieldLayout(0, 3, "3-byte counter")
        public static let tearingFlag = FieldLayout(0, 1, "1-byte tearing flag")
        public static let vctid = FieldLayout(0, 1, "1-byte VCTID")
        public static let authenticationMarker = FieldLayout(0, 1, "AF or 00 before ek(…)")

        /// READ answers four pages (16 bytes), wrapping at the end of memory.
        public static let readLength = 16

        /// Page `i` of a READ or FAST_READ answer: pages of 4 bytes, in order.
        public static func page(_ i: Int) -> Range<Int> { i * 4..<(i + 1) * 4 }

        /// ek(RndB) or ek(RndA') after the marker: 8 (Ultralight C) or 16 bytes (AES).
        public static func authenticationData(_ count: Int) -> Range<Int> { authenticationMarker.end..<authenticationMarker.end + count }
    }

    /// Marker bytes before the Ultralight C / AES authentication data.
    public static let challengeMarker: UInt8 = 0xAF
    public static let resultMarker: UInt8 = 0x00

    /// Decodes the tag's answer to `command`. 4-bit ACK/NAK are recognised for every command.
    public static func decode(_ payload: [UInt8], lastByteBits: UInt8 = 8, answering command: Type2Command) throws(DecodeError) -> Type2Response {
        if Type2Acknowledgement.looksLike(payload, lastByteBits: lastByteBits) || (payload.count == 1 && command.expectsAcknowledgement) {
            guard let a = Type2Acknowledgement(nibble: payload[0]) else {
                throw DecodeError(offset: 0, expected: "ACK (A) or NAK (0, 1, 4, 5)", found: Hex.byte(payload[0] & 0x0F))
            }
            return .acknowledgement(a)
        }
        switch command {
        case .getVersion:
            return .version(try Type2Version.decode(payload))
        case .read(let page):
            guard payload.count == Layout.readLength else {
                throw DecodeError(offset: min(payload.count, Layout.readLength), expected: "16 bytes (4 pages)", found: "\(payload.count) bytes")
            }
            return .pages(firstPage: page, data: payload)
        case .fastRead(let start, let end):
            let pages = Int(end) - Int(start) + 1
            guard pages > 0, payload.count == pages * 4 else {
                throw DecodeError(offset: 0, expected: "\(max(pages, 0) * 4) bytes (\(max(pages, 0)) pages)", found: "\(payload.count) bytes")
            }
            return .pages(firstPage: start, data: payload)
        case .pwdAuth:
            guard payload.count == Layout.pack.width else { throw DecodeError(offset: 0, expected: Layout.pack.expected, found: "\(payload.count) bytes") }
            return .pack(payload)
        case .readCounter:
            var c = ByteCursor(payload)
            let v = try c.readUInt24LE(Layout.counter)
            try c.expectEnd("counter value")
            return .counter(v)
        case .readSignature:
            guard payload.count == 32 || payload.count == 48 else {
                throw DecodeError(offset: 0, expected: "32-byte ECC signature", found: "\(payload.count) bytes")
            }
            return .signature(payload)
        case .checkTearingEvent:
            guard payload.count == Layout.tearingFlag.width else { throw DecodeError(offset: 0, expected: Layout.tearingFlag.expected, found: "\(payload.count) bytes") }
            var c = ByteCursor(payload)
            return .tearingFlag(try c.readUInt8(Layout.tearingFlag))
        case .vcsl:
            guard payload.count == Layout.vctid.width else { throw DecodeError(offset: 0, expected: Layout.vctid.expected, found: "\(payload.count) bytes") }
            var c = ByteCursor(payload)
            return .vctid(try c.readUInt8(Layout.vctid))
        case .authenticate:
            guard payload.count == 9 || payload.count == 17, payload[0] == Self.challengeMarker else {
                throw DecodeError(offset: 0, expected: "AF + 8 or 16 bytes ek(RndB)", found: "\(payload.count) bytes")
            }
            return .authenticationChallenge(Array(payload.dropFirst()))
        case .authenticateContinue:
            guard payload.count == 9 || payload.count == 17, payload[0] == Self.resultMarker else {
                throw DecodeError(offset: 0, expected: "00 + 8 or 16 bytes ek(RndA')", found: "\(payload.count) bytes")
            }
            return .authenticationResult(Array(payload.dropFirst()))
        case .write, .compatibilityWrite, .compatibilityWriteData, .incrementCounter, .writeSignature, .lockSignature, .sectorSelect:
            throw DecodeError(offset: 0, expected: "4-bit ACK or NAK", found: "\(payload.count) bytes")
        case .sectorSelectSector:
            throw DecodeError(offset: 0, expected: "no answer (passive ACK)", found: "\(payload.count) bytes")
        }
    }

    /// The answer's payload (without CRC) and the valid bits in its last byte.
    public func encode() -> (bytes: [UInt8], lastByteBits: UInt8) {
        switch self {
        case .acknowledgement(let a): return ([a.nibble], 4)
        case .version(let v): return (v.bytes, 8)
        case .pages(_, let d): return (d, 8)
        case .pack(let p): return (p, 8)
        case .counter(let v):
            var w = PayloadWriter()
            w.putLE(v, Layout.counter)
            return (w.bytes, 8)
        case .signature(let s): return (s, 8)
        case .tearingFlag(let f): return ([f], 8)
        case .vctid(let v): return ([v], 8)
        case .authenticationChallenge(let d): return ([Self.challengeMarker] + d, 8)
        case .authenticationResult(let d): return ([Self.resultMarker] + d, 8)
        }
    }

    /// Whether this answer carries CRC_A on air (everything except the 4-bit ACK/NAK).
    public var carriesCRC: Bool {
        if case .acknowledgement = self { return false }
        return true
    }
}

extension Type2Command {
    /// Commands whose only success answer is a 4-bit ACK.
    public var expectsAcknowledgement: Bool {
        switch self {
        case .write, .compatibilityWrite, .compatibilityWriteData, .incrementCounter, .writeSignature, .lockSignature, .sectorSelect:
            return true
        default:
            return false
        }
    }
}
