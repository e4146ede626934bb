import NFCCore

/// What one frame's dissection accumulates before it becomes a `FrameDissection`.
struct FrameContext {
    let frame: Frame
    let number: Int
    var sink: FieldSink
    var diagnostics: [Diagnostic] = []
    var summary = ""
    var layer: String
    var crc: CRCStatus = .notExpected
    var responseTo: Int?

    init(_ frame: Frame, number: Int, detail: DissectionDetail, layer: String) {
        self.frame = frame
        self.number = number
        self.sink = FieldSink(enabled: detail == .full)
        self.layer = layer
    }

    mutating func warn(_ message: String, range: Range<Int>? = nil) {
        diagnostics.append(Diagnostic(.warning, message, range: range))
    }

    mutating func note(_ message: String, range: Range<Int>? = nil) {
        diagnostics.append(Diagnostic(.note, message, range: range))
    }

    /// Applies a CRC split: records its status, field and diagnostics.
    mutating func apply(_ split: CRCSplit, key: String) {
        crc = split.status
        split.describe(frame, into: &sink, diagnostics: &diagnostics, key: key)
    }

    /// Fields come out in byte order (stable for equal starts), whatever order they were added in.
    func finish(session: Int?) -> FrameDissection {
        // A frame has a handful of fields, usually in byte order already: a stable insertion
        // sort in place costs nothing then.
        var ordered = sink.fields
        func start(_ f: Field) -> Int { f.range?.lowerBound ?? Int.max }
        if ordered.count > 1 {
            for i in 1..<ordered.count {
                let key = start(ordered[i])
                var j = i
                while j > 0, start(ordered[j - 1]) > key { j -= 1 }
                if j < i {
                    let moving = ordered.remove(at: i)
                    ordered.insert(moving, at: j)
                }
            }
        }
        return FrameDissection(number: number, frame: frame, layer: layer, summary: summary, crc: crc,
                               fields: ordered, diagnostics: diagnostics, responseTo: responseTo, session: session)
    }
}
