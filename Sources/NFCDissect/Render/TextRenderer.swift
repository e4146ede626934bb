import NFCCore

/// ANSI styling, used only when the output is a terminal and NO_COLOR is unset.
struct Style {
    let enabled: Bool
    func wrap(_ code: String, _ s: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func reader(_ s: String) -> String { wrap("33", s) }
    func tag(_ s: String) -> String { wrap("36", s) }
    func bad(_ s: String) -> String { wrap("31", s) }
    func warn(_ s: String) -> String { wrap("33;1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func bold(_ s: String) -> String { wrap("1", s) }
}

/// Times relative to the first timestamped frame, in microseconds with one decimal.
struct RelativeClock {
    private var origin: Int64?

    mutating func microseconds(_ t: Timestamp?) -> (whole: Int64, tenth: Int64)? {
        guard let t else { return nil }
        let ns = t.nanoseconds
        if origin == nil { origin = ns }
        let rel = ns - (origin ?? ns)
        let tenths = (rel >= 0 ? rel + 50 : rel - 50) / 100
        return (tenths / 10, abs(tenths % 10))
    }
}

/// The one-line-per-frame view (Proxmark3 `trace list` density, with annotated answers) and
/// the `-V` tree view.
public final class TextRenderer {
    public let verbose: Bool
    let style: Style
    private var clock = RelativeClock()
    static let bytesPerLine = 16
    static let dataWidth = bytesPerLine * 3

    public init(verbose: Bool = false, color: Bool = false) {
        self.verbose = verbose
        self.style = Style(enabled: color)
    }

    /// The column header of the one-line view.
    public func header() -> String {
        guard !verbose else { return "" }
        let data = "data".padding(toWidth: Self.dataWidth)
        return "     #          µs  src  \(data) crc  annotation\n"
    }

    public func render(_ event: DissectionEvent, into out: inout [UInt8]) {
        switch event {
        case .frame(let d): verbose ? renderTree(d, into: &out) : renderLine(d, into: &out)
        case .session(let s): renderSession(s, into: &out)
        }
    }

    // MARK: one line per frame

    private func renderLine(_ d: FrameDissection, into out: inout [UInt8]) {
        let f = d.frame
        appendPadded(String(d.number), width: 6, into: &out)
        out.append(0x20)
        if let (whole, tenth) = clock.microseconds(f.start) {
            appendPadded("\(whole).\(tenth)", width: 11, into: &out)
        } else {
            out.append(contentsOf: [UInt8](repeating: 0x20, count: 11))
        }
        out.append(contentsOf: [0x20, 0x20])
        let src: String
        switch f.event {
        case .data(.readerToTag): src = style.reader("Rdr")
        case .data(.tagToReader): src = style.tag("Tag")
        case .fieldOn, .fieldOff: src = "RF "
        case .malformed: src = style.bad("???")
        }
        out.append(contentsOf: src.utf8)
        out.append(contentsOf: [0x20, 0x20])
        let lines = dataLines(f)
        let first = lines.first ?? []
        out.append(contentsOf: first)
        out.append(contentsOf: [UInt8](repeating: 0x20, count: max(1, Self.dataWidth + 1 - first.count)))
        out.append(contentsOf: crcMark(d.crc).utf8)
        out.append(0x20)
        var annotation = d.summary
        for diag in d.diagnostics where diag.severity >= .warning {
            annotation += diag.severity == .error ? style.bad(" !! \(diag.message)") : style.warn(" ! \(diag.message)")
        }
        out.append(contentsOf: annotation.utf8)
        out.append(0x0A)
        for line in lines.dropFirst() {
            out.append(contentsOf: [UInt8](repeating: 0x20, count: 24))
            out.append(contentsOf: line)
            out.append(0x0A)
        }
    }

    private func crcMark(_ c: CRCStatus) -> String {
        switch c {
        case .ok: return " ok "
        case .mismatch: return style.bad("!crc")
        case .stripped: return " -- "
        case .notExpected, .unknown: return "    "
        }
    }

    /// Hex bytes, 16 per line; `!` after a byte with a parity error, `(n)` after a short last byte.
    private func dataLines(_ f: Frame) -> [[UInt8]] {
        guard !f.bytes.isEmpty else {
            switch f.event {
            case .fieldOn: return [Array("field on".utf8)]
            case .fieldOff: return [Array("field off".utf8)]
            default: return [[]]
            }
        }
        let parity = f.parityErrors ?? []
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        for (i, b) in f.bytes.enumerated() {
            if i > 0, i % Self.bytesPerLine == 0 {
                lines.append(line)
                line = []
            }
            Hex.appendByte(b, to: &line)
            if !parity.isEmpty, parity.contains(i) { line.append(0x21) } else if i < f.bytes.count - 1 { line.append(0x20) }
            if i == f.bytes.count - 1, f.lastByteBits != 8, case .data = f.event {
                line.append(contentsOf: "(\(f.lastByteBits))".utf8)
            }
        }
        lines.append(line)
        return lines
    }

    private func appendPadded(_ s: String, width: Int, into out: inout [UInt8]) {
        let n = s.utf8.count
        if n < width { out.append(contentsOf: [UInt8](repeating: 0x20, count: width - n)) }
        out.append(contentsOf: s.utf8)
    }

    // MARK: -V tree

    private func renderTree(_ d: FrameDissection, into out: inout [UInt8]) {
        let f = d.frame
        var head = "Frame \(d.number)"
        switch f.event {
        case .data(.readerToTag): head += ": " + style.reader("reader → tag")
        case .data(.tagToReader): head += ": " + style.tag("tag → reader")
        case .fieldOn: head += ": field on"
        case .fieldOff: head += ": field off"
        case .malformed: head += ": " + style.bad("malformed record")
        }
        if !f.bytes.isEmpty { head += ", \(f.bytes.count) byte\(f.bytes.count == 1 ? "" : "s")" }
        if f.lastByteBits != 8, case .data = f.event { head += " (\(f.bitCount) bits)" }
        if let (w, t) = clock.microseconds(f.start) { head += ", at \(w).\(t) µs" }
        head += ", \(f.technology.displayName)"
        if !d.layer.isEmpty { head += " / \(d.layer)" }
        if let s = d.session { head += ", session \(s)" }
        if let r = d.responseTo { head += ", answers frame \(r)" }
        if let r = d.responseIn { head += ", answered in frame \(r)" }
        out.append(contentsOf: style.bold(head).utf8)
        out.append(0x0A)
        if !f.bytes.isEmpty {
            out.append(contentsOf: "    bytes: \(Hex.string(f.bytes))".utf8)
            if let p = f.parityErrors, !p.isEmpty { out.append(contentsOf: " (parity errors at \(p.map(String.init).joined(separator: ", ")))".utf8) }
            if f.crcStripped { out.append(contentsOf: " (CRC not captured)".utf8) }
            out.append(0x0A)
        }
        if let c = f.comment { out.append(contentsOf: "    comment: \(c)\n".utf8) }
        out.append(contentsOf: "    summary: \(d.summary)\n".utf8)
        for field in d.fields { appendField(field, depth: 1, into: &out) }
        for diag in d.diagnostics { appendDiagnostic(diag, indent: "    ", into: &out) }
        out.append(0x0A)
    }

    func appendField(_ field: Field, depth: Int, into out: inout [UInt8]) {
        out.append(contentsOf: [UInt8](repeating: 0x20, count: depth * 4))
        if let r = field.range { out.append(contentsOf: style.dim("[\(r.lowerBound)..\(r.upperBound)] ").utf8) }
        out.append(contentsOf: "\(field.label): \(field.value)".utf8)
        out.append(0x0A)
        for c in field.children { appendField(c, depth: depth + 1, into: &out) }
    }

    func appendDiagnostic(_ diag: Diagnostic, indent: String, into out: inout [UInt8]) {
        var text = "\(diag.severity.rawValue): \(diag.message)"
        if let r = diag.range { text += " [\(r.lowerBound)..\(r.upperBound)]" }
        switch diag.severity {
        case .error: text = style.bad(text)
        case .warning: text = style.warn(text)
        case .note: break
        }
        out.append(contentsOf: "\(indent)\(text)\n".utf8)
    }

    // MARK: sessions

    private func renderSession(_ s: SessionSummary, into out: inout [UInt8]) {
        let span = s.firstFrame == s.lastFrame ? "frame \(s.firstFrame)" : "frames \(s.firstFrame)–\(s.lastFrame)"
        out.append(contentsOf: style.bold("  ── session \(s.number) (\(span)): \(s.headline)").utf8)
        out.append(0x0A)
        if verbose {
            for f in s.tag { appendField(f, depth: 1, into: &out) }
            for f in s.memory { appendField(f, depth: 1, into: &out) }
        } else {
            for note in s.notes { out.append(contentsOf: "  \(note)\n".utf8) }
        }
        for diag in s.diagnostics { appendDiagnostic(diag, indent: "    ", into: &out) }
        out.append(0x0A)
    }
}

extension String {
    func padding(toWidth width: Int) -> String {
        let n = count
        return n >= width ? self : self + String(repeating: " ", count: width - n)
    }
}
