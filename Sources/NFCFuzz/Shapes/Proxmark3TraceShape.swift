import NFCCore

/// Proxmark3 tracelogs (`trace save`): records of `u32 timestamp | u16 duration | u16 length
/// (bit 15 = from tag) | data | parity bytes`, little-endian (notes/proxmark3-interop.md §1.2).
/// Record data comes from the 14443-A, FeliCa and 15693 dialects.
public struct Proxmark3TraceShape: ShapeMutator {
    /// The Proxmark3 tracelog shape; it has no settings.
    public init() {}

    struct Record: Equatable {
        var timestamp: UInt32
        var duration: UInt16
        var fromTag: Bool
        var data: [UInt8]
        /// Nil: computed (odd parity, unused bits zero).
        var parity: [UInt8]?
        /// Declared length when it should not match the data (breakage).
        var declaredLength: Int?

        static func parityLength(_ n: Int) -> Int { (n - 1) / 8 + 1 }

        func encode() -> [UInt8] {
            let n = declaredLength ?? data.count
            let len = UInt16(truncatingIfNeeded: n & 0x7FFF) | (fromTag ? 0x8000 : 0)
            var out = [UInt8(truncatingIfNeeded: timestamp), UInt8(truncatingIfNeeded: timestamp >> 8), UInt8(truncatingIfNeeded: timestamp >> 16),
                       UInt8(truncatingIfNeeded: timestamp >> 24), UInt8(truncatingIfNeeded: duration), UInt8(duration >> 8),
                       UInt8(truncatingIfNeeded: len), UInt8(len >> 8)] + data
            if let parity { return out + parity }
            var bits = [UInt8](repeating: 0, count: Self.parityLength(data.count))
            for (j, b) in data.enumerated() where b.nonzeroBitCount % 2 == 0 { bits[j / 8] |= 0x80 >> UInt8(j % 8) }
            out += bits
            return out
        }
    }

    /// Tracelog magic: record durations of real 14443-A frames, length words with bit 15 (from the
    /// tag) set, FeliCa's B2 4D preamble.
    public var dictionary: [[UInt8]] {
        [[0x00, 0x80], [0xFF, 0x7F], [0x20, 0x04], [0x26], [0x52], [0x93, 0x20], [0xB2, 0x4D], [0x30, 0x04], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x00, 0x00]]
    }

    static func records(_ input: [UInt8]) -> [Record]? {
        var c = ByteCursor(input)
        var out: [Record] = []
        while !c.isAtEnd {
            guard let ts = try? c.readUInt32LE("timestamp"), let du = try? c.readUInt16LE("duration"), let len = try? c.readUInt16LE("length"),
                  let data = try? c.readBytes(Int(len & 0x7FFF), "data"),
                  let parity = try? c.readBytes(Record.parityLength(Int(len & 0x7FFF)), "parity") else { return nil }
            out.append(Record(timestamp: ts, duration: du, fromTag: len & 0x8000 != 0, data: data, parity: parity))
        }
        return out.isEmpty ? nil : out
    }

    static func encode(_ records: [Record]) -> [UInt8] { records.flatMap { $0.encode() } }

    /// Records for a session: 14443-A as the Proxmark3 logs it (7-bit frames with a short
    /// duration), FeliCa with its `B2 4D` sync code, 15693 with durations divided by 32.
    static func records(_ frames: [FuzzFrame], start: UInt32) -> [Record] {
        var t = start
        return frames.compactMap { f in
            guard f.kind == .reader || f.kind == .tag else { return nil }
            defer { t = t &+ UInt32(2000 + f.bytes.count * 1200) }
            let duration = f.lastByteBits == 7 ? 1056 : UInt16(clamping: f.bytes.count * 1200 / (f.technology == .iso15693 ? 32 : 1))
            let data = f.technology == .felica ? [0xB2, 0x4D] + f.bytes : f.bytes
            return Record(timestamp: t, duration: duration, fromTag: f.kind == .tag, data: data)
        }
    }

    static let dialects: [any FrameDialect] = [NFCADialect(), NFCADialect(), FeliCaDialect(), ISO15693Dialect()]

    /// Tracelogs of FeliCa and 15693 sessions from the dialects.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: 0x504D_3354, maxSize: 1 << 16)
        return Self.dialects.dropFirst().map { Self.encode(Self.records($0.session(&m), start: 0)) }
    }

    /// A tracelog of a session of a random dialect, starting at 0, at 2³¹ or just before the 32-bit
    /// timestamp wraps.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        let dialect = m.random.element(Self.dialects) ?? NFCADialect()
        return Self.encode(Self.records(dialect.session(&m), start: m.random.pick(0, 1 << 31, UInt32.max - 5000)))
    }

    /// Whether the records tile the input: each length within the data, parity bytes where they
    /// belong.
    public func isWellFormed(_ input: [UInt8]) -> Bool { Self.records(input) != nil }

    /// Changes one record: its frame through its dialect, a session inserted, a record removed or
    /// repeated, a timestamp or duration at an edge, a parity error on one byte.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var records = Self.records(input) else { return nil }
        let i = m.random.below(records.count)
        let dialect: any FrameDialect = records[i].data.starts(with: [0xB2, 0x4D]) ? FeliCaDialect() : (Self.dialects.randomIndexFor(records[i], &m.random))
        switch m.random.weighted([30, 15, 10, 10, 10, 10, 15]) {
        case 0:
            var f = FuzzFrame(records[i].fromTag ? .tag : .reader, dialect.technology, bytes: records[i].data)
            if dialect.technology == .felica { f.bytes = Array(f.bytes.dropFirst(2)) }
            let mutated = (f.kind == .reader ? dialect.mutateReader(f, &m) : dialect.answer(to: nil, &m)) ?? dialect.mutatedPayload(f, &m)
            records[i].data = (dialect.technology == .felica ? [0xB2, 0x4D] : []) + mutated.bytes
            records[i].parity = nil
        case 1: records.insert(contentsOf: Self.records(dialect.session(&m), start: records[i].timestamp), at: i)
        case 2: if records.count > 1 { records.remove(at: i) }
        case 3: records.insert(records[i], at: m.random.below(records.count + 1))
        case 4: records[i].timestamp = m.random.pick(0, UInt32.max, records[i].timestamp &- 1, UInt32(truncatingIfNeeded: m.random.next()))
        case 5: records[i].duration = m.random.pick(0, 1, 1056, 1087, 1088, 0xFFFF, 128)
        default:
            // A parity error on one byte.
            var p = records[i].parity ?? Array(records[i].encode().suffix(Record.parityLength(records[i].data.count)))
            if !p.isEmpty { p[m.random.below(p.count)] ^= 0x80 >> UInt8(m.random.below(8)) }
            records[i].parity = p
        }
        return Self.encode(records)
    }

    /// Breaks a record on purpose: a declared length beyond its data or at an edge (0, 7FFFh,
    /// 4097), extra parity bytes, empty data, or the tracelog cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var records = Self.records(input) else { return nil }
        let i = m.random.below(records.count)
        switch m.random.below(5) {
        case 0: records[i].declaredLength = records[i].data.count + 1 + m.random.below(m.random.chance(50) ? 8 : 0x7FFF)
        case 1: records[i].declaredLength = m.random.pick(0, 0x7FFF, 4097)
        case 2: records[i].parity = (records[i].parity ?? []) + [0xFF]   // unused parity bits set, or one byte too many
        case 3: records[i].data = []
        default: return truncated(Self.encode(records), &m.random)
        }
        return Self.encode(records)
    }

    /// Records from the front of one tracelog and the back of the other; nil when either does not
    /// decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = Self.records(a), let y = Self.records(b) else { return nil }
        return Self.encode(Array(x.prefix(1 + m.random.below(x.count))) + Array(y.suffix(m.random.below(y.count + 1))))
    }
}

private extension Array where Element == any FrameDialect {
    /// 15693 frames start with a flags byte that has b2 set (02, 22, 26 …), otherwise 14443-A.
    func randomIndexFor(_ record: Proxmark3TraceShape.Record, _ r: inout FuzzRandom) -> any FrameDialect {
        if let first = record.data.first, first & 0x02 != 0, record.data.count > 3, r.chance(30) { return ISO15693Dialect() }
        return NFCADialect()
    }
}
