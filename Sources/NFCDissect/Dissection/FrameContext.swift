import NFCCore

/// What one frame's dissection accumulates before it becomes a `FrameDissection`.
struct FrameContext {
    /// Moves into the dissection when it is finished.
    private(set) var frame: Frame
    let number: Int
    var sink: FieldSink
    var diagnostics: [Diagnostic] = []
    var summary = ""
    var layer: String
    var crc: CRCStatus = .notExpected
    var responseTo: Int?
    /// Frame bytes holding secrets, masked by the renderers.
    var masked: [Range<Int>] = []
    /// The frame in clear, when it was decrypted (`FrameDissection.decrypted`).
    var decrypted: [UInt8]?
    /// The tag memory the frame read or wrote (`FrameDissection.memory` and `moreMemory`).
    var memory: MemoryAccess?
    var moreMemory: [MemoryAccess]?
    /// A new summary for an earlier frame still held back (`Dissector` holds one): what this
    /// frame learnt changes what that one said (a key recovered at {aT} for the {nR}{aR} before).
    var amends: (frame: Int, summary: String)?

    /// Sets the memory the frame touched, run by run.
    mutating func touched(_ runs: [MemoryAccess]) {
        memory = runs.first
        moreMemory = runs.count > 1 ? Array(runs.dropFirst()) : nil
    }

    init(_ frame: consuming Frame, number: Int, detail: DissectionDetail, layer: String) {
        self.frame = frame
        self.number = number
        self.sink = FieldSink(enabled: detail == .full)
        self.layer = layer
    }

    /// The frame's bytes in `range` as hex with the masked ones hidden: a field's value must not
    /// show what the hex view hides.
    func hex(_ range: Range<Int>) -> String {
        Hex.string(frame.bytes[range], hiding: masked.map { $0.clamped(to: range).lowerBound - range.lowerBound..<$0.clamped(to: range).upperBound - range.lowerBound })
    }

    mutating func warn(_ message: String, range: Range<Int>? = nil) {
        diagnostics.append(Diagnostic(.warning, message, range: range))
    }

    mutating func note(_ message: String, range: Range<Int>? = nil) {
        diagnostics.append(Diagnostic(.note, message, range: range))
    }

    /// Applies a CRC split: records its status, field and diagnostics.
    mutating func apply(_ split: CRCSplit, field: FieldSpec) {
        crc = split.status
        split.describe(frame, into: &sink, diagnostics: &diagnostics, field: field)
    }

    /// Applies the CRC split of `plain`, the frame decrypted (`decrypted` is set): the field says
    /// the CRC was checked in clear.
    mutating func apply(_ split: CRCSplit, of plain: Frame, field: FieldSpec) {
        crc = split.status
        split.describe(plain, into: &sink, diagnostics: &diagnostics, field: field, decrypted: true)
    }

    /// Fields come out in byte order (stable for equal starts), whatever order they were added in.
    /// The fields, diagnostics and summary move into the dissection instead of being copied; the
    /// context is left without them.
    mutating func finish(session: Int?) -> FrameDissection {
        var text = ""
        swap(&text, &summary)
        var diags: [Diagnostic] = []
        swap(&diags, &diagnostics)
        var moved = Frame(.fieldOn)
        swap(&moved, &frame)
        var d = FrameDissection(number: number, frame: moved, layer: layer, summary: text, crc: crc,
                                fields: sink.takeInByteOrder(), diagnostics: diags, responseTo: responseTo, session: session)
        if !masked.isEmpty { d.masked = masked }
        if decrypted != nil { swap(&d.decrypted, &decrypted) }
        d.memory = memory
        if moreMemory != nil { swap(&d.moreMemory, &moreMemory) }
        return d
    }
}
