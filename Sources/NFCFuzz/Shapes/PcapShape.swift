import NFCCore

/// pcap and pcapng captures with nfctrace's two encapsulations: LINKTYPE_ISO_14443 (264, a
/// 4-byte pseudo-header) and LINKTYPE_USER3 (150, the 10-byte `NF` pseudo-header), as in
/// docs/trace-format.md. Mutations reach the file header, the record headers, the
/// pseudo-headers and the frames inside them.
public struct PcapShape: ShapeMutator {
    /// The pcap/pcapng shape; it has no settings.
    public init() {}

    struct Capture {
        var linkType: UInt32
        var nanosecond = false
        var snaplen: UInt32 = 65535
        var version: (UInt16, UInt16) = (2, 4)
        var records: [[UInt8]]
        /// Original lengths when they should differ from the captured ones.
        var wireLengths: [Int: UInt32] = [:]
        var pcapng = false
        /// pcapng: a second interface of this link type, with one packet before the records (as
        /// NFCGate's USER0 activation data): libpcap refuses such files, nfctrace's block reader reads them.
        var extraInterface: UInt32?

        func encode() -> [UInt8] {
            pcapng ? encodeNG() : encodeClassic()
        }

        private func encodeClassic() -> [UInt8] {
            var out = le32(nanosecond ? 0xA1B2_3C4D : 0xA1B2_C3D4) + le16(version.0) + le16(version.1) + le32(0) + le32(0) + le32(snaplen) + le32(linkType)
            for (i, r) in records.enumerated() {
                out += le32(1_795_392_000 + UInt32(i)) + le32(UInt32(i * 1000)) + le32(UInt32(r.count)) + le32(wireLengths[i] ?? UInt32(r.count)) + r
            }
            return out
        }

        /// Section Header, Interface Description (with if_tsresol), Enhanced Packet Blocks.
        private func encodeNG() -> [UInt8] {
            func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
                let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
                let length = UInt32(12 + padded.count)
                return le32(type) + le32(length) + padded + le32(length)
            }
            var out = block(0x0A0D_0D0A, le32(0x1A2B_3C4D) + le16(1) + le16(0) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF))
            let tsresol: [UInt8] = le16(9) + le16(1) + [nanosecond ? 9 : 6, 0, 0, 0] + le32(0)
            out += block(1, le16(UInt16(truncatingIfNeeded: linkType)) + le16(0) + le32(snaplen) + tsresol)
            if let extra = extraInterface {
                out += block(1, le16(UInt16(truncatingIfNeeded: extra)) + le16(0) + le32(0))
                // NFCGate's layout: 264 pseudo-header, PCB 02, NCI listen parameters (UID, SAK).
                let tlv: [UInt8] = [0x33, 0x04, 0x01, 0x02, 0x03, 0x04, 0x32, 0x01, 0x20]
                let packet: [UInt8] = [0x00, 0xFB] + FuzzValues.be16(UInt16(tlv.count + 1)) + [0x02] + tlv
                out += block(6, le32(1) + le32(0) + le32(0) + le32(UInt32(packet.count)) + le32(UInt32(packet.count)) + packet)
            }
            for (i, r) in records.enumerated() {
                out += block(6, le32(0) + le32(0) + le32(UInt32(i * 1000)) + le32(UInt32(r.count)) + le32(wireLengths[i] ?? UInt32(r.count)) + r)
            }
            return out
        }
    }

    static func le16(_ v: UInt16) -> [UInt8] { FuzzValues.le16(v) }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16), UInt8(v >> 24)] }

    /// pcap magic: file magics (microsecond, nanosecond, pcapng), link types 264 and 150, pcapng
    /// block types, the `NF` pseudo-header.
    public var dictionary: [[UInt8]] {
        [[0xD4, 0xC3, 0xB2, 0xA1], [0x4D, 0x3C, 0xB2, 0xA1], [0x0A, 0x0D, 0x0D, 0x0A], [0x4D, 0x3C, 0x2B, 0x1A], [0x08, 0x01, 0x00, 0x00], [0x96, 0x00, 0x00, 0x00],
         [0x00, 0xFE], [0x00, 0xFF], [0x00, 0xFC], [0x00, 0xFD], [0x00, 0xFA], [0x4E, 0x46, 0x01], [0x4E, 0x46, 0x01, 0x0F], [0x4E, 0x46, 0x01, 0x05], [0x06, 0x00, 0x00, 0x00]]
    }

    /// A classic pcap (both encapsulations) or pcapng record from a frame.
    static func record(_ f: FuzzFrame, linkType: UInt32) -> [UInt8] {
        if linkType == 264 {
            let event: UInt8
            switch f.kind {
            case .reader: event = f.crcStripped ? 0xFA : 0xFE
            case .tag: event = f.crcStripped ? 0xFB : 0xFF
            case .fieldOn: event = 0xFC
            case .fieldOff: event = 0xFD
            }
            let data = f.kind == .reader || f.kind == .tag ? f.bytes : []
            return [0x00, event] + FuzzValues.be16(UInt16(data.count)) + data
        }
        let tech: UInt8 = [.iso14443a: 0x0A, .iso14443b: 0x0B, .felica: 0x0F, .iso15693: 0x05][f.technology] ?? 0x0A
        let data = f.kind == .reader || f.kind == .tag ? f.bytes : []
        let flags: UInt8 = (f.crcStripped || data.isEmpty ? 0 : 1) | (f.lastByteBits == 8 ? 0 : f.lastByteBits << 4)
        let rate: UInt16 = f.technology == .felica ? 212 : (f.technology == .iso15693 ? 26 : 106)
        return [0x4E, 0x46, 0x01, tech, f.kind.rawValue, flags] + FuzzValues.be16(rate) + FuzzValues.be16(UInt16(data.count)) + data
    }

    /// The capture's records and link type (classic pcap, little-endian, as generated).
    static func decode(_ input: [UInt8]) -> Capture? {
        var c = ByteCursor(input)
        guard let magic = try? c.readUInt32LE("magic"), magic == 0xA1B2_C3D4 || magic == 0xA1B2_3C4D,
              (try? c.skip(12, "version, zone, sigfigs")) != nil, let snaplen = try? c.readUInt32LE("snaplen"),
              let link = try? c.readUInt32LE("link type") else { return nil }
        var capture = Capture(linkType: link, nanosecond: magic == 0xA1B2_3C4D, snaplen: snaplen, records: [])
        while !c.isAtEnd {
            guard (try? c.skip(8, "timestamp")) != nil, let incl = try? c.readUInt32LE("caplen"), let orig = try? c.readUInt32LE("len"),
                  incl <= 1 << 16, let data = try? c.readBytes(Int(incl), "record") else { return nil }
            if orig != incl { capture.wireLengths[capture.records.count] = orig }
            capture.records.append(data)
        }
        return capture
    }

    static func capture(_ frames: [FuzzFrame], linkType: UInt32) -> Capture {
        Capture(linkType: linkType, records: frames.map { record($0, linkType: linkType) })
    }

    /// A 14443-A capture as pcap (LINKTYPE_ISO_14443), a FeliCa one (LINKTYPE_USER3), a 15693 one
    /// as pcapng, and a pcapng with a second interface.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: 0x5043_4150, maxSize: 1 << 16)
        let a = NFCADialect().session(&m), f = FeliCaDialect().session(&m), v = ISO15693Dialect().session(&m)
        var ng = Self.capture(v, linkType: 150)
        ng.pcapng = true
        var mixed = Self.capture(a, linkType: 264)
        mixed.pcapng = true
        mixed.extraInterface = 147
        return [Self.capture(a, linkType: 264).encode(), Self.capture(f, linkType: 150).encode(), ng.encode(), mixed.encode()]
    }

    /// A capture of one dialect's session, pcap or pcapng, microsecond or nanosecond, sometimes
    /// with an extra interface.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        let dialect: any FrameDialect = m.random.pick(NFCADialect(), FeliCaDialect(), ISO15693Dialect())
        var capture = Self.capture(dialect.session(&m), linkType: dialect.technology == .iso14443a && m.random.bool() ? 264 : 150)
        capture.nanosecond = m.random.bool()
        capture.pcapng = m.random.chance(25)
        if capture.pcapng, m.random.chance(40) { capture.extraInterface = m.random.pick(147, 1, 150, 264, 0xFFFF) }
        return capture.encode()
    }

    /// A classic pcap whose records tile the file, or a pcapng whose blocks do (starting with a
    /// Section Header Block, each block's two length fields equal).
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        if let capture = Self.decode(input) {
            // Classic pcap: a link type nfctrace reads, every record's pseudo-header consistent and whole.
            return (capture.linkType == 264 || capture.linkType == 150) && capture.version == (2, 4) && capture.wireLengths.isEmpty
                && capture.records.allSatisfy { PcapRecordShape.frame($0) != nil && $0.count <= Int(capture.snaplen) }
        }
        var c = ByteCursor(input)
        var first = true
        while !c.isAtEnd {
            guard let type = try? c.readUInt32LE("block type"), let length = try? c.readUInt32LE("block length"), length >= 12, length % 4 == 0,
                  (!first || type == 0x0A0D_0D0A), (try? c.skip(Int(length) - 12, "block body")) != nil,
                  (try? c.readUInt32LE("trailing length")) == length else { return false }
            first = false
        }
        return !first
    }

    /// Changes the capture: one record's frame through its codec, a session inserted, a record
    /// removed or repeated, the timestamp resolution or the pcap/pcapng form toggled.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var capture = Self.decode(input), !capture.records.isEmpty else { return nil }
        let i = m.random.below(capture.records.count)
        switch m.random.weighted([40, 15, 10, 10, 10, 15]) {
        case 0: capture.records[i] = PcapRecordShape.mutateRecord(capture.records[i], linkType: capture.linkType, &m)
        case 1: capture.records.insert(contentsOf: Self.capture(FramesShape(technology: .iso14443a).dialect.session(&m), linkType: capture.linkType).records, at: i)
        case 2: capture.records.remove(at: i)
        case 3: capture.nanosecond.toggle()
        case 4: capture.pcapng.toggle()
        default: capture.records.insert(capture.records[i], at: m.random.below(capture.records.count + 1))
        }
        return capture.encode()
    }

    /// Breaks the capture on purpose: a record's pseudo-header, a wire length beyond the captured
    /// bytes, an unknown link type, snapshot length or version, random record bytes, a cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var capture = Self.decode(input), !capture.records.isEmpty else { return nil }
        let i = m.random.below(capture.records.count)
        switch m.random.below(7) {
        case 0: capture.records[i] = PcapRecordShape.breakRecord(capture.records[i], linkType: capture.linkType, &m)
        case 1: capture.wireLengths[i] = UInt32(capture.records[i].count + 1 + m.random.below(64))   // cut by the snapshot length
        case 2: capture.linkType = m.random.pick(1, 147, 264, 150, 0xFFFF_FFFF)
        case 3: capture.snaplen = m.random.pick(0, 4, 0xFFFF_FFFF)
        case 4: capture.version = (m.random.pick(1, 2, 3), m.random.pick(0, 3, 4))
        case 5: capture.records[i] = m.random.bytes(m.random.length(upTo: 300))
        default: return truncated(capture.encode(), &m.random)
        }
        return capture.encode()
    }

    /// Records from the front of one capture and the back of the other under the first one's
    /// header; nil when either does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var x = Self.decode(a), let y = Self.decode(b) else { return nil }
        x.records = Array(x.records.prefix(m.random.below(x.records.count + 1)) + y.records.suffix(m.random.below(y.records.count + 1)))
        return x.encode()
    }
}
