import NFCCore

/// Writes the `.nfctrace` text format (docs/trace-format.md), one event per line.
///
/// The header is written before the first event: `nfctrace 1`, the metadata, `@timebase`
/// and `@origin` (taken from the first timestamped frame, so times in the file are small
/// numbers relative to it and the absolute time is still exact).
public final class TextTraceWriter: FrameWriter {
    private let output: ByteOutput
    private var metadata: TraceMetadata
    private var technology: Technology
    private var timebase: TimeUnit?
    private var origin: Int64 = 0
    private var headerWritten = false
    private var line: [UInt8] = []
    private var frameCount = 0
    /// Comment lines given before the header was written.
    private var heldComments: [String] = []
    /// `@parity known`: 14443-A frames carry their parity bits unless they say otherwise.
    private let parityKnown: Bool
    private var ledger = LossLedger(.nfctrace)
    public var losses: [FrameLoss] { ledger.losses }

    public init(output: ByteOutput, metadata: TraceMetadata = TraceMetadata()) {
        self.output = output
        self.metadata = metadata
        self.parityKnown = metadata["parity"] == "known"
        self.technology = metadata["tech"].flatMap { Technology(name: $0) } ?? .iso14443a
        self.timebase = metadata["timebase"].flatMap { TimeUnit(rawValue: $0) }
        if let o = metadata["origin"].flatMap({ Int64($0) }) { origin = o }
    }

    private func writeHeader(first frame: Frame?) {
        headerWritten = true
        if metadata["tech"] == nil, let f = frame { technology = f.technology }
        if let t = frame?.start {
            if timebase == nil { timebase = t.unit }
            if metadata["origin"] == nil, let tb = timebase, let o = t.converted(to: tb) { origin = o.value }
        }
        // Later frames' times are written in this timebase relative to @origin, so it is fixed now
        // even when the first frame has no time: then the reader's default, µs.
        let decided = timebase != nil
        if timebase == nil { timebase = .microseconds }
        var head = "\(TextTraceSyntax.magic) \(TextTraceSyntax.version)\n"
        for e in metadata.entries where !["tech", "timebase", "origin", "link-type"].contains(e.key) {
            head += "@\(e.key) \(e.value)\n"
        }
        head += "@tech \(technology.rawValue)\n"
        if let tb = timebase, decided || origin != 0 {
            head += "@timebase \(tb.rawValue)\n"
            if origin != 0 { head += "@origin \(origin)\n" }
        }
        head += "\n"
        output.write(head)
        writeComments(heldComments)
        heldComments = []
    }

    /// Writes `# …` lines as they are (a line break inside one would start a line that is no
    /// comment, so it becomes a space).
    public func writeComments(_ lines: [String]) {
        guard headerWritten else {
            heldComments += lines
            return
        }
        for c in lines {
            var text = Array(c.utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
            if text.first != UInt8(ascii: "#") { text = Array("# ".utf8) + text }
            text.append(0x0A)
            output.write(text)
        }
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        if !headerWritten { writeHeader(first: frame) }
        frameCount += 1
        line.removeAll(keepingCapacity: true)
        // time column, right-aligned so that columns line up for ordinary traces
        var time = ""
        if let s = frame.start {
            let tb = timebase ?? s.unit
            time = String(try relative(s, tb))
            if let e = frame.end { time += ".." + String(try relative(e, tb)) }
            if !s.survives(tb) || frame.end.map({ !$0.survives(tb) }) == true { ledger.record(.timePrecision, frame: frameCount) }
        }
        let pad = max(0, 12 - time.utf8.count)
        line.append(contentsOf: [UInt8](repeating: 0x20, count: pad))
        line.append(contentsOf: time.utf8)
        line.append(contentsOf: [0x20, 0x20])
        switch frame.event {
        case .data(let d):
            line.append(d == .readerToTag ? 0x52 : 0x54)
            line.append(contentsOf: [0x20, 0x20])
            appendBytes(frame)
        case .fieldOn: line.append(contentsOf: TextTraceSyntax.fieldOn.utf8)
        case .fieldOff: line.append(contentsOf: TextTraceSyntax.fieldOff.utf8)
        case .malformed(let reason):
            line.append(contentsOf: TextTraceSyntax.malformed.utf8)
            line.append(0x20)
            appendBytes(frame)
            line.append(contentsOf: " reason=\"\(TextTraceSyntax.escaped(reason))\"".utf8)
        }
        if frame.technology != technology { line.append(contentsOf: " tech=\(frame.technology.rawValue)".utf8) }
        if frame.crcStripped { line.append(contentsOf: " crc=stripped".utf8) }
        appendParity(frame)
        if let r = frame.bitRate {
            // The reader takes positive rates only.
            if r > 0 { line.append(contentsOf: " rate=\(r)".utf8) } else { ledger.record(.bitRate, frame: frameCount) }
        }
        if let c = frame.comment, !c.isEmpty {
            line.append(contentsOf: "  # ".utf8)
            let text = c.utf8.filter { $0 != 0x0A }
            line.append(contentsOf: text)
            // A final CR would read back as the CR of a CRLF line ending; a space keeps it.
            if line.last == 0x0D { line.append(0x20) }
            // The reader takes the comment without the spaces around it.
            if TextTraceReader.trimmed(text[...]).count != c.utf8.count { ledger.record(.comments, frame: frameCount) }
        }
        line.append(0x0A)
        output.write(line)
    }

    /// A time relative to `@origin`; one whose distance from the origin passes 64 bits cannot
    /// be written (the reader would have to overflow to read it back).
    private func relative(_ t: Timestamp, _ timebase: TimeUnit) throws(CaptureError) -> Int64 {
        guard let converted = t.converted(to: timebase) else {
            throw CaptureError.unrepresentable(path: output.name, frame: frameCount, reason: "its time \(t.value) \(t.unit.rawValue) is beyond the 64-bit nanosecond range")
        }
        let (d, overflow) = converted.value.subtractingReportingOverflow(origin)
        guard !overflow else {
            throw CaptureError.unrepresentable(path: output.name, frame: frameCount, reason: "its time is more than 64 bits of \(timebase.rawValue) away from @origin \(origin)")
        }
        return d
    }

    private func appendBytes(_ frame: Frame) {
        if frame.bytes.isEmpty, case .data = frame.event {
            line.append(contentsOf: TextTraceSyntax.empty.utf8)   // a bare SOF, a reader EOF
        }
        let parity = Set(frame.parityErrors ?? [])
        if parity.contains(where: { !frame.bytes.indices.contains($0) }) { ledger.record(.parity, frame: frameCount) }
        for (i, b) in frame.bytes.enumerated() {
            if i > 0 { line.append(0x20) }
            Hex.appendByte(b, to: &line)
            // Written for malformed events too: the reader takes `/n` on any last byte.
            if i == frame.bytes.count - 1, frame.lastByteBits != 8 {
                if (1...7).contains(frame.lastByteBits) {
                    line.append(0x2F)
                    line.append(0x30 + frame.lastByteBits)
                } else {
                    ledger.record(.lastByteBits, frame: frameCount)
                }
            }
            if parity.contains(i) { line.append(0x21) }
        }
        if frame.bytes.isEmpty, frame.lastByteBits != 8 { ledger.record(.lastByteBits, frame: frameCount) }
    }

    /// `parity=known` or `parity=unknown` where the frame is not as the header says of it
    /// (`@parity known`: 14443-A data frames carry parity) and no `!` mark says it is known.
    private func appendParity(_ frame: Frame) {
        let known = frame.parityErrors != nil
        let marked = frame.parityErrors.map { $0.contains(where: frame.bytes.indices.contains) } ?? false
        if known != TextTraceSyntax.parityKnownByDefault(frame, header: parityKnown) && !marked {
            line.append(contentsOf: (known ? " parity=known" : " parity=unknown").utf8)
        }
    }

    public func finish() throws(CaptureError) {
        if !headerWritten { writeHeader(first: nil) }
        writeComments(heldComments)
        try output.finish()
    }
}
