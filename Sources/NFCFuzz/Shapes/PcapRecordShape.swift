import NFCCore

/// One pcap record with its pseudo-header: LINKTYPE_ISO_14443 (`00 event lenBE data`) or
/// nfctrace's LINKTYPE_USER3 (`"NF" 01 tech event flags rateBE lenBE data`).
public struct PcapRecordShape: ShapeMutator {
    /// The pcap-record shape; it has no settings.
    public init() {}

    /// Pseudo-header magic: ISO 14443 events (FF/FE/FB/FA), the `NF` version byte, technology and
    /// flag values.
    public var dictionary: [[UInt8]] {
        [[0x00, 0xFE], [0x00, 0xFF], [0x00, 0xFA], [0x00, 0xFB], [0x00, 0xFC], [0x00, 0xFD], [0x4E, 0x46, 0x01], [0x0A], [0x0B], [0x0F], [0x05], [0x00, 0xD4], [0x00, 0x6A]]
    }

    static func isUser3(_ record: [UInt8]) -> Bool { record.starts(with: [0x4E, 0x46]) }

    /// The frame inside a record, when its pseudo-header is consistent.
    static func frame(_ record: [UInt8]) -> FuzzFrame? {
        var c = ByteCursor(record)
        if isUser3(record) {
            guard (try? c.skip(2, "NF")) != nil, (try? c.readUInt8("version")) == 1, let tech = try? c.readUInt8("technology"),
                  let event = try? c.readUInt8("event"), let flags = try? c.readUInt8("flags"), (try? c.skip(2, "rate")) != nil,
                  let n = try? c.readUInt16BE("length"), Int(n) == c.remaining, event <= 3, [0x0A, 0x0B, 0x0F, 0x05].contains(tech),
                  flags >> 4 <= 8, flags & 0x0E == 0, event < 2 || n == 0 else { return nil }
            let technology: Technology = [0x0B: .iso14443b, 0x0F: .felica, 0x05: .iso15693][tech] ?? .iso14443a
            let bits = flags >> 4
            return FuzzFrame(FuzzFrame.Kind(rawValue: event) ?? .reader, technology, bytes: c.readRest(), crcStripped: flags & 1 == 0, lastByteBits: bits == 0 || bits > 8 ? 8 : bits)
        }
        guard (try? c.readUInt8("version")) == 0, let event = try? c.readUInt8("event"), let n = try? c.readUInt16BE("length"), Int(n) == c.remaining,
              event < 0xFC || event > 0xFD || n == 0 else { return nil }
        let kinds: [UInt8: (FuzzFrame.Kind, Bool)] = [0xFE: (.reader, false), 0xFF: (.tag, false), 0xFA: (.reader, true), 0xFB: (.tag, true), 0xFC: (.fieldOn, false), 0xFD: (.fieldOff, false)]
        guard let (kind, stripped) = kinds[event] else { return nil }
        return FuzzFrame(kind, .iso14443a, bytes: c.readRest(), crcStripped: stripped)
    }

    /// Records of 14443-A, FeliCa and 15693 sessions, 14443-A under both link types.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: 0x5245_4344, maxSize: 4096)
        let frames = NFCADialect().session(&m).prefix(6) + FeliCaDialect().session(&m).prefix(3) + ISO15693Dialect().session(&m).prefix(3)
        return frames.enumerated().map { i, f in PcapShape.record(f, linkType: f.technology == .iso14443a && i % 2 == 0 ? 264 : 150) }
    }

    /// One frame of a random dialect (a reader command or an answer) in a record.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        let dialect: any FrameDialect = m.random.pick(NFCADialect(), FeliCaDialect(), ISO15693Dialect())
        let f = m.random.bool() ? dialect.readerFrame(&m) : (dialect.answer(to: nil, &m) ?? FuzzFrame(.fieldOn, dialect.technology))
        return PcapShape.record(f, linkType: dialect.technology == .iso14443a && m.random.bool() ? 264 : 150)
    }

    /// Whether the pseudo-header and frame decode consistently.
    public func isWellFormed(_ input: [UInt8]) -> Bool { Self.frame(input) != nil }

    /// Changes the record's frame through its technology's codec, or its event, flags, technology
    /// or bit count; the pseudo-header stays consistent.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard Self.frame(input) != nil else { return nil }
        return Self.mutateRecord(input, linkType: Self.isUser3(input) ? 150 : 264, &m)
    }

    /// A record whose frame changed through its technology's codec, or whose event, flags,
    /// technology or bit count changed (the pseudo-header stays consistent).
    static func mutateRecord(_ record: [UInt8], linkType: UInt32, _ m: inout MutationContext) -> [UInt8] {
        guard var f = frame(record) else { return breakRecord(record, linkType: linkType, &m) }
        let dialect = FramesShape(technology: f.technology).dialect
        switch m.random.below(5) {
        case 0, 1: f = (f.kind == .reader ? dialect.mutateReader(f, &m) : dialect.answer(to: nil, &m)) ?? dialect.mutatedPayload(f, &m)
        case 2: f.kind = FuzzFrame.Kind(rawValue: UInt8(m.random.below(4))) ?? .reader
        case 3: f.crcStripped.toggle()
        default:
            if linkType == 150 {
                f.technology = FrameSequence.technologies[m.random.below(4)]
                f.lastByteBits = UInt8(1 + m.random.below(8))
            } else { f = dialect.readerFrame(&m) }
        }
        return PcapShape.record(f, linkType: linkType)
    }

    /// Breaks the pseudo-header on purpose: the length off or little-endian, version, event,
    /// technology or valid-bit count wrong, data on a field event, a header cut short.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard Self.frame(input) != nil else { return nil }
        return Self.breakRecord(input, linkType: Self.isUser3(input) ? 150 : 264, &m)
    }

    /// Pseudo-header fields that do not fit: the length (off, little-endian), version, event,
    /// technology, valid-bit count, data on a field event, a header cut short.
    static func breakRecord(_ record: [UInt8], linkType: UInt32, _ m: inout MutationContext) -> [UInt8] {
        var r = record
        let user3 = linkType == 150
        let lengthAt = user3 ? 8 : 2
        guard r.count >= lengthAt + 2 else { return r + m.random.bytes(1 + m.random.below(4)) }
        switch m.random.below(7) {
        case 0: r[lengthAt + 1] = r[lengthAt + 1] &+ UInt8(1 + m.random.below(4))
        case 1: r.swapAt(lengthAt, lengthAt + 1)   // little-endian length
        case 2: r[user3 ? 2 : 0] = m.random.pick(1, 2, 0xFF)
        case 3: r[user3 ? 4 : 1] = m.random.pick(0x04, 0xF9, 0x00, 0x11, 0xFF)
        case 4: if user3 { r[3] = m.random.pick(0x00, 0x0C, 0xFF); r[5] = m.random.pick(0x90, 0xF1, 0x02) } else { r[0] = 0x01 }
        case 5:
            // A field event that carries data.
            r[user3 ? 4 : 1] = user3 ? 2 : 0xFC
        default: r = Array(r.prefix(m.random.below(lengthAt + 2)))
        }
        return r
    }

    /// The first record with the second one's frame bytes; nil when either does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var x = Self.frame(a), let y = Self.frame(b) else { return nil }
        x.bytes = y.bytes
        return PcapShape.record(x, linkType: Self.isUser3(a) ? 150 : 264)
    }
}
