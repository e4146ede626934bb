import NFCCore

/// The data of one trace for `nfctrace report`'s HTML page. A report must open on a million
/// frames, so the frame list is written as columns (one JSON array per column, summaries and
/// layers through a string table, times, pairs and sessions as differences: about 40 bytes a
/// frame) and each frame's full dissection — its line of `dissect --format json`, written by
/// `JSONRenderer` — only for the first `detailLimit` frames; the sessions are their
/// `dissect --format json` objects, those that start past `detailLimit` without their tag and
/// memory trees (a million NTAG frames are 48,000 sessions of 2 KB each).
///
/// Columns (index = frame number − 1): `t` time since the first frame in tenths of µs, as the
/// difference to the previous frame's (null when unknown, and then not counted), `d` duration in
/// tenths of µs (−1 when unknown), `k` kind (0 reader, 1 tag, 2 field on, 3 field off, 4
/// malformed), `x` bytes as hex (`**` for masked card data), `b` valid bits of the last byte, `s`
/// summary and `l` layer (string table indexes), `c` CRC (0 none expected, 1 ok, 2 bad, 3
/// stripped, 4 unknown), `p` the paired frame's number minus this one's (positive: the answer,
/// negative: the request, 0: none), `g` the worst diagnostic (0 none, 1 note, 2 warning, 3
/// error), `n` the session number (0 for none) minus the previous frame's, `y` technology
/// (string table index). Besides the columns, `m` lists the frames that read or wrote tag memory,
/// six numbers each: frame index, offset and count in the session's memory image, the size at
/// which it wraps (0: none), 1 for a write, the FeliCa service code (−1: none).
public final class ReportRenderer {
    public let detailLimit: Int
    private let json = JSONRenderer()
    // Touched by one render call at a time, like JSONRenderer's state.
    @exclusivity(unchecked) private var clock = RelativeClock()
    @exclusivity(unchecked) private var time: [Int?] = []
    @exclusivity(unchecked) private var duration: [Int] = []
    @exclusivity(unchecked) private var kind: [Int] = []
    @exclusivity(unchecked) private var hex: [String] = []
    @exclusivity(unchecked) private var lastBits: [Int] = []
    @exclusivity(unchecked) private var summary: [Int] = []
    @exclusivity(unchecked) private var layer: [Int] = []
    @exclusivity(unchecked) private var crc: [Int] = []
    @exclusivity(unchecked) private var pair: [Int] = []
    @exclusivity(unchecked) private var severity: [Int] = []
    @exclusivity(unchecked) private var session: [Int] = []
    @exclusivity(unchecked) private var technology: [Int] = []
    /// Frames that read or wrote tag memory: frame index, offset, count, wrap, 1 for a write, service.
    @exclusivity(unchecked) private var memory: [Int] = []
    @exclusivity(unchecked) private var strings: [String] = []
    @exclusivity(unchecked) private var stringIndex: [String: Int] = [:]
    /// `dissect --format json` lines of the frames up to `detailLimit`, and of every session.
    @exclusivity(unchecked) public private(set) var detail: [UInt8] = []
    @exclusivity(unchecked) private var sessions: [UInt8] = []

    public init(detailLimit: Int) {
        self.detailLimit = detailLimit
    }

    public var frameCount: Int { kind.count }

    public func render(pending event: consuming PendingEvent) {
        switch consume event {
        case .frame(let d): add(d)
        case .session(let s): render(.session(s.summary()))
        }
    }

    public func render(_ event: DissectionEvent) {
        switch event {
        case .frame(let d): add(d)
        case .session(var summary):
            if !sessions.isEmpty { sessions.append(0x2C) }
            if summary.firstFrame > detailLimit {
                summary.tag = []
                summary.memory = []
            }
            json.render(.session(summary), into: &sessions)
            if sessions.last == 0x0A { sessions.removeLast() }
        }
    }

    private func add(_ d: FrameDissection) {
        let f = d.frame
        if let t = clock.microseconds(f.start) {
            time.append(Int(t.whole * 10 + (t.whole < 0 ? -t.tenth : t.tenth)))
            // A span past 2⁶³ ns (start and end at opposite edges of the range readers accept)
            // has no duration to show, as a reversed one has none.
            if let s = f.start?.nanoseconds, let e = f.end?.nanoseconds, e >= s,
               case let (span, overflow) = e.subtractingReportingOverflow(s), !overflow, span < Int64(Int32.max) * 100 {
                duration.append(Int((span + 50) / 100))
            } else {
                duration.append(-1)
            }
        } else {
            time.append(nil)
            duration.append(-1)
        }
        switch f.event {
        case .data(.readerToTag): kind.append(0)
        case .data(.tagToReader): kind.append(1)
        case .fieldOn: kind.append(2)
        case .fieldOff: kind.append(3)
        case .malformed: kind.append(4)
        }
        hex.append(d.masked.isEmpty ? Hex.string(f.bytes, separator: "") : Hex.string(f.bytes[...], hiding: d.masked, separator: "", mask: "**"))
        lastBits.append(Int(f.lastByteBits))
        summary.append(intern(d.summary))
        layer.append(intern(d.layer))
        switch d.crc {
        case .notExpected: crc.append(0)
        case .ok: crc.append(1)
        case .mismatch: crc.append(2)
        case .stripped: crc.append(3)
        case .unknown: crc.append(4)
        }
        pair.append((d.responseIn ?? d.responseTo).map { $0 - d.number } ?? 0)
        switch d.diagnostics.map(\.severity).max() {
        case nil: severity.append(0)
        case .note?: severity.append(1)
        case .warning?: severity.append(2)
        case .error?: severity.append(3)
        }
        session.append(d.session ?? 0)
        technology.append(intern(f.technology.rawValue))
        if let m = d.memory { access(m, frame: kind.count - 1) }
        for m in d.moreMemory ?? [] { access(m, frame: kind.count - 1) }
        if kind.count <= detailLimit { json.render(.frame(d), into: &detail) }
    }

    private func access(_ m: MemoryAccess, frame: Int) {
        memory += [frame, Int(m.offset), Int(m.count), Int(m.wrap), m.write ? 1 : 0, m.service.map(Int.init) ?? -1]
    }

    private func intern(_ s: String) -> Int {
        if let i = stringIndex[s] { return i }
        strings.append(s)
        stringIndex[s] = strings.count - 1
        return strings.count - 1
    }

    /// The trace's data object: name, counts, the columns, the string table and the sessions.
    public func data(name: String, source: String) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + kind.count * 48 + sessions.count)
        w.beginObject()
        w.string("name", name)
        w.string("source", source)
        w.int("frames", kind.count)
        w.int("detail_limit", detailLimit)
        w.int("detail_frames", min(kind.count, detailLimit))
        w.stringArray("strings", strings)
        w.key("t")
        w.beginArray()
        var previous = 0
        for (i, t) in time.enumerated() {
            if i > 0 { w.byte(0x2C) }
            if let t {
                w.number(t - previous)
                previous = t
            } else {
                w.json("null")
            }
        }
        w.endArray()
        w.intArray("d", duration)
        w.intArray("k", kind)
        w.stringArray("x", hex)
        w.intArray("b", lastBits)
        w.intArray("s", summary)
        w.intArray("l", layer)
        w.intArray("c", crc)
        w.intArray("p", pair)
        w.intArray("g", severity)
        var last = 0
        w.intArray("n", session.map { n in defer { last = n }; return n - last })
        w.intArray("y", technology)
        w.intArray("m", memory)
        w.key("sessions")
        w.beginArray()
        sessions.withUnsafeBufferPointer { w.raw($0) }
        w.endArray()
        w.endObject()
        return w.out
    }
}
