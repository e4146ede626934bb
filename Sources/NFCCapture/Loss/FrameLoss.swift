import NFCCore

/// Something an output format could not carry of the frames written to it (docs/limits.md,
/// "What each format cannot carry"). A writer records one per kind, when a frame actually loses
/// it: it reads its own record back the way the format's reader will and compares. `nfctrace
/// convert` prints each as a note.
public struct FrameLoss: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case fieldEvents = "field-events"
        case technology
        case bytes
        case crcFlag = "crc-flag"
        case parity
        case lastByteBits = "bit-count"
        case startTimes = "start-times"
        case endTimes = "end-times"
        case timeOrigin = "time-origin"
        case timePrecision = "time-precision"
        case bitRate = "bit-rate"
        case comments
        case commentLines = "comment-lines"
        case metadata
        case malformed

        /// What is lost, as the note names it.
        public var noun: String {
            switch self {
            case .fieldEvents: return "field on/off events"
            case .technology: return "technology"
            case .bytes: return "frame bytes"
            case .crcFlag: return "CRC-not-captured marks (crc=stripped)"
            case .parity: return "parity bits"
            case .lastByteBits: return "bit counts of short last bytes"
            case .startTimes: return "start times"
            case .endTimes: return "end times"
            case .timeOrigin: return "absolute times"
            case .timePrecision: return "time precision"
            case .bitRate: return "bit rates"
            case .comments: return "frame comments"
            case .commentLines: return "comment lines"
            case .metadata: return "trace metadata"
            case .malformed: return "malformed records"
            }
        }

        /// The kind's place in `allCases` (a ledger's counts are an array).
        var index: Int {
            switch self {
            case .fieldEvents: return 0
            case .technology: return 1
            case .bytes: return 2
            case .crcFlag: return 3
            case .parity: return 4
            case .lastByteBits: return 5
            case .startTimes: return 6
            case .endTimes: return 7
            case .timeOrigin: return 8
            case .timePrecision: return 9
            case .bitRate: return 10
            case .comments: return 11
            case .commentLines: return 12
            case .metadata: return 13
            case .malformed: return 14
            }
        }

        /// What the count counts.
        var unit: (one: String, many: String) {
            switch self {
            case .fieldEvents: return ("event", "events")
            case .commentLines: return ("line", "lines")
            case .metadata: return ("entry", "entries")
            case .malformed: return ("record", "records")
            default: return ("frame", "frames")
            }
        }
    }

    public let kind: Kind
    /// How the format loses it (`a Proxmark3 .trace has none: dropped`).
    public let detail: String
    public let count: Int
    /// The 1-based number of the first frame that lost it; nil for what belongs to the whole
    /// trace (metadata, comment lines).
    public let firstFrame: Int?

    public var description: String {
        let unit = count == 1 ? kind.unit.one : kind.unit.many
        return "\(kind.noun): \(detail) (\(count) \(unit)\(firstFrame.map { ", first: frame \($0)" } ?? ""))"
    }
}

/// A writer's record of its losses: one entry per kind, in the order they first happened, with
/// the detail its format's row of `FormatLimits` gives. Recording is a count per kind (writers
/// record on every frame that loses something).
public struct LossLedger: Sendable {
    private var counts = [Int](repeating: 0, count: FrameLoss.Kind.allCases.count)
    private var firstFrames = [Int?](repeating: nil, count: FrameLoss.Kind.allCases.count)
    private var order: [FrameLoss.Kind] = []
    private let limits: [FrameLoss.Kind: String]

    public init(_ output: FormatLimits.Output) {
        limits = Dictionary(FormatLimits.losses(of: output), uniquingKeysWith: { a, _ in a })
    }

    /// One entry per kind, in the order they first happened. A kind the format's row does not
    /// name is a writer that loses more than documented: its detail says so.
    public var losses: [FrameLoss] {
        order.map { FrameLoss(kind: $0, detail: limits[$0] ?? FormatLimits.undocumented, count: counts[$0.index], firstFrame: firstFrames[$0.index]) }
    }

    /// Counts one more frame (or `count` items) that lost `kind`.
    public mutating func record(_ kind: FrameLoss.Kind, frame: Int?, count: Int = 1) {
        let i = kind.index
        if counts[i] == 0, !order.contains(kind) {
            order.append(kind)
            firstFrames[i] = frame
        }
        counts[i] += count
    }

    /// Records what `back` — `frame` as the format's reader will give it back — lost of
    /// `frame`, field by field. Times are the writer's to compare (`compareTime`).
    mutating func compare(_ frame: Frame, _ back: Frame, number: Int) {
        if frame.event != back.event {
            let malformed = { (e: Frame.Event) -> Bool in if case .malformed = e { return true } else { return false } }
            record(malformed(frame.event) || malformed(back.event) ? .malformed : .bytes, frame: number)
        } else if frame.bytes != back.bytes {
            record(.bytes, frame: number)
        }
        if frame.technology != back.technology, case .data = frame.event { record(.technology, frame: number) }
        if frame.crcStripped != back.crcStripped, case .data = frame.event { record(.crcFlag, frame: number) }
        if !Self.sameParity(frame, back) { record(.parity, frame: number) }
        if frame.lastByteBits != back.lastByteBits, !frame.bytes.isEmpty { record(.lastByteBits, frame: number) }
        if frame.bitRate != back.bitRate { record(.bitRate, frame: number) }
        if Self.comment(frame.comment) != Self.comment(back.comment) { record(.comments, frame: number) }
    }

    /// Whether two frames say the same of parity. A single byte of fewer than 8 bits (REQA, ACK)
    /// has no parity bit: there "unknown" and "none wrong" say the same.
    static func sameParity(_ a: Frame, _ b: Frame) -> Bool {
        if a.bytes.count == 1, a.lastByteBits != 8 { return (a.parityErrors ?? []) == (b.parityErrors ?? []) }
        return a.parityErrors == b.parityErrors
    }

    /// An empty comment is no comment.
    static func comment(_ c: String?) -> String? { c?.isEmpty == false ? c : nil }

    /// Records the loss of a time: one made up or dropped, or changed by more than `precision`
    /// nanoseconds, as `kind`; one rounded within it as lost precision. A time that comes back
    /// the same in the unit it was captured in is kept.
    mutating func compareTime(_ original: Timestamp?, _ back: Timestamp?, precision: Int64, kind: FrameLoss.Kind, number: Int) {
        switch (original, back) {
        case (nil, nil): return
        case let (o?, b?):
            if b.converted(to: o.unit) == o { return }
            let (d, overflow) = b.nanoseconds.subtractingReportingOverflow(o.nanoseconds)
            record(!overflow && d.magnitude <= precision ? .timePrecision : kind, frame: number)
        default:
            record(kind, frame: number)
        }
    }

    /// The keys of trace metadata that describe the format itself rather than the trace (its
    /// frames carry what they say): the rest is lost by formats without a header.
    static let formatKeys: Set<String> = ["tech", "timebase", "origin", "link-type", "parity"]

    /// Records the metadata a format without a header cannot keep; what the format's reader
    /// says of every such file (`readerSays`) comes back anyway.
    mutating func dropMetadata(_ metadata: TraceMetadata, readerSays: TraceMetadata = TraceMetadata()) {
        let lost = metadata.entries.filter { !Self.formatKeys.contains($0.key) && !readerSays.entries.contains($0) }.count
        if lost > 0 { record(.metadata, frame: nil, count: lost) }
    }
}

extension Timestamp {
    /// Whether the time comes back the same from a trip through `unit`.
    func survives(_ unit: TimeUnit) -> Bool { converted(to: unit)?.converted(to: self.unit) == self }
}
