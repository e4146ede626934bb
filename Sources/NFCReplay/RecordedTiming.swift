import NFCCore

/// How long the recorded tag took to answer each reader frame, from the trace's timestamps: what
/// a real reader's timeout is set from (`replay --against libnfc`).
public enum RecordedTiming {
    /// Trace frame number of a reader frame → seconds from its start to its answer's start, or,
    /// when the tag stayed silent, to the next reader frame's start (how long the recorded reader
    /// waited). Frames without times are left out.
    public static func answerDelays(_ frames: [Frame]) -> [Int: Double] {
        var out: [Int: Double] = [:]
        var pending: (number: Int, start: Int64)? = nil
        for (i, f) in frames.enumerated() {
            let number = i + 1
            guard case .data(let direction) = f.event else {
                pending = nil
                continue
            }
            let start = f.start?.checkedNanoseconds
            if let p = pending, let start, start >= p.start { out[p.number] = Double(start - p.start) / 1e9 }
            pending = direction == .readerToTag ? start.map { (number, $0) } : nil
        }
        return out
    }
}
