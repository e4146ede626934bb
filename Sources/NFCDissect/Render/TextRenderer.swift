import NFCCore

/// ANSI styling, used only when the output is a terminal and NO_COLOR is unset.
struct Style {
    let enabled: Bool
    func wrap(_ code: String, _ s: String) -> String { enabled ? Self.on(code) + s + Self.offText : s }
    static func on(_ code: String) -> String { "\u{1B}[\(code)m" }
    static let offText = "\u{1B}[0m"
    /// For renderers that write bytes: the start of `dim` and the end of any style.
    static let dimOn = Array(on("2").utf8)
    static let off = Array(offText.utf8)
    func reader(_ s: String) -> String { wrap("33", s) }
    func tag(_ s: String) -> String { wrap("36", s) }
    func bad(_ s: String) -> String { wrap("31", s) }
    func warn(_ s: String) -> String { wrap("33;1", s) }
    func bold(_ s: String) -> String { wrap("1", s) }
}

/// Times relative to the first timestamped frame, in microseconds with one decimal.
struct RelativeClock {
    private var origin: Int64?

    mutating func microseconds(_ t: Timestamp?) -> (whole: Int64, tenth: Int64)? {
        guard let t else { return nil }
        let ns = t.nanoseconds
        if origin == nil { origin = ns }
        let o = origin ?? ns
        let (rel, overflow) = ns.subtractingReportingOverflow(o)
        if !overflow, rel < Int64.max - 50, rel > Int64.min + 50 {
            let tenths = (rel >= 0 ? rel + 50 : rel - 50) / 100
            return (tenths / 10, abs(tenths % 10))
        }
        // Two times more than 292 years apart (readers allow any time within ±292 years of
        // 1970): the difference is taken in hundreds of nanoseconds, which cannot overflow.
        var tenths = ns / 100 - o / 100
        let rest = ns % 100 - o % 100   // -198…198
        tenths += (rest >= 0 ? rest + 50 : rest - 50) / 100
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
    static let bytesPerLineWithParity = 12
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

    /// An event as the pipeline hands it over (`PipelinedDissection.drain` moves it out of its
    /// batch); a session's summary is built now unless it already was.
    public func render(pending event: consuming PendingEvent, into out: inout [UInt8]) {
        switch consume event {
        case .frame(let d): verbose ? renderTree(d, into: &out) : renderLine(d, into: &out)
        case .session(let s): renderSession(s.summary(), into: &out)
        }
    }

    // MARK: one line per frame

    private func renderLine(_ d: FrameDissection, into out: inout [UInt8]) {
        let f = d.frame
        Decimal.append(Int64(d.number), width: 6, into: &out)
        out.append(0x20)
        if let (whole, tenth) = clock.microseconds(f.start) {
            Decimal.append(whole, width: 9, into: &out)
            out.append(0x2E)
            out.append(0x30 + UInt8(tenth))
        } else {
            out.append(contentsOf: Self.spaces[0..<11])
        }
        out.append(contentsOf: [0x20, 0x20])
        switch f.event {
        case .data(.readerToTag): out.append(contentsOf: style.reader("Rdr").utf8)
        case .data(.tagToReader): out.append(contentsOf: style.tag("Tag").utf8)
        case .fieldOn, .fieldOff: out.append(contentsOf: "RF ".utf8)
        case .malformed: out.append(contentsOf: style.bad("???").utf8)
        }
        out.append(contentsOf: [0x20, 0x20])
        let dataStart = out.count
        let bytes = f.bytes
        // A parity mark widens its byte by a column: 12 bytes a line then still fit the column.
        let perLine = f.parityErrors?.isEmpty == false ? Self.bytesPerLineWithParity : Self.bytesPerLine
        // Once a frame, not once a line: a flag per byte, where looking each byte up in the error
        // list took time in the square of the frame's length.
        let parity = f.parityErrors?.isEmpty == false ? Parity.errorFlags(f.parityErrors, count: bytes.count) : []
        let firstLineBytes = min(bytes.count, perLine)
        // Columns on screen: a masked byte's `••` is 6 bytes of UTF-8 but 2 columns wide.
        var wide = 0
        if bytes.isEmpty {
            switch f.event {
            case .fieldOn: out.append(contentsOf: "field on".utf8)
            case .fieldOff: out.append(contentsOf: "field off".utf8)
            default: break
            }
        } else {
            wide = appendData(f, 0..<firstLineBytes, masked: d.masked, parity: parity, into: &out)
        }
        let used = out.count - dataStart - wide
        out.append(contentsOf: Self.spaces[0..<max(1, Self.dataWidth + 1 - used)])
        out.append(contentsOf: (d.decrypted == nil ? crcMark(d.crc) : decryptedCRCMark(d.crc)).utf8)
        out.append(0x20)
        // Summaries, messages, comments and headlines can quote the input (a name, a text
        // record): escaped for the terminal (PrintableText), as every string from input is.
        let summaryStart = out.count
        out.append(contentsOf: d.summary.utf8)
        PrintableText.makeTerminalSafe(&out, from: summaryStart)
        for diag in d.diagnostics where diag.severity >= .warning {
            let message = PrintableText.forTerminal(diag.message)
            let text = diag.severity == .error ? style.bad(" !! \(message)") : style.warn(" ! \(message)")
            out.append(contentsOf: text.utf8)
        }
        out.append(0x0A)
        var next = firstLineBytes
        while next < bytes.count {
            let upper = min(bytes.count, next + perLine)
            out.append(contentsOf: Self.spaces[0..<24])
            appendData(f, next..<upper, masked: d.masked, parity: parity, into: &out)
            out.append(0x0A)
            next = upper
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)
    /// `••`: as wide on screen as two hex digits.
    static let maskedByte = Array("••".utf8)

    /// A MIFARE Classic frame decrypted: its CRC was checked in clear, not on the bytes shown.
    private func decryptedCRCMark(_ c: CRCStatus) -> String {
        switch c {
        case .ok: return "(ok)"
        case .mismatch: return style.bad("(!!)")
        default: return crcMark(c)
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

    /// Hex bytes of one output line; `!` after a byte with a parity error (as the Proxmark3
    /// marks it: `44! 0D`), `(n)` after a short last byte, `••` for a byte that holds card data
    /// (`FrameDissection.masked`); `parity`: a flag per byte of the frame, or empty. Returns how
    /// many more bytes than columns it wrote (the masks).
    @discardableResult
    private func appendData(_ f: Frame, _ range: Range<Int>, masked: [Range<Int>], parity: [Bool], into out: inout [UInt8]) -> Int {
        let bytes = f.bytes
        // Masked frames are rare (card data in APDUs): the common loop does not look.
        let anyMasked = !masked.isEmpty
        var wide = 0
        for i in range {
            if anyMasked, masked.contains(where: { $0.contains(i) }) {
                out.append(contentsOf: Self.maskedByte)
                wide += Self.maskedByte.count - 2
            } else {
                Hex.appendByte(bytes[i], to: &out)
            }
            if !parity.isEmpty, parity[i] { out.append(0x21) }
            if i < range.upperBound - 1 { out.append(0x20) }
            if i == bytes.count - 1, f.lastByteBits != 8, case .data = f.event {
                out.append(0x28)
                out.append(0x30 + f.lastByteBits)
                out.append(0x29)
            }
        }
        return wide
    }

    private func appendPadded(_ s: String, width: Int, into out: inout [UInt8]) {
        let n = s.utf8.count
        if n < width { out.append(contentsOf: [UInt8](repeating: 0x20, count: width - n)) }
        out.append(contentsOf: s.utf8)
    }

    // MARK: -V tree

    private func renderTree(_ d: FrameDissection, into out: inout [UInt8]) {
        let f = d.frame
        // Written piece by piece into the output, not built as a String per frame: `-V` renders
        // every frame, and that String showed in the dissect fuzz targets' profiles
        // (docs/performance.md, "Fuzzing speed").
        if style.enabled { out.append(contentsOf: Self.boldOn) }
        out.append(contentsOf: "Frame ".utf8)
        Decimal.append(Int64(d.number), width: 0, into: &out)
        switch f.event {
        case .data(.readerToTag): out.append(contentsOf: ": ".utf8); out.append(contentsOf: style.reader("reader → tag").utf8)
        case .data(.tagToReader): out.append(contentsOf: ": ".utf8); out.append(contentsOf: style.tag("tag → reader").utf8)
        case .fieldOn: out.append(contentsOf: ": field on".utf8)
        case .fieldOff: out.append(contentsOf: ": field off".utf8)
        case .malformed: out.append(contentsOf: ": ".utf8); out.append(contentsOf: style.bad("malformed record").utf8)
        }
        if !f.bytes.isEmpty {
            out.append(contentsOf: ", ".utf8)
            Decimal.append(Int64(f.bytes.count), width: 0, into: &out)
            out.append(contentsOf: (f.bytes.count == 1 ? " byte" : " bytes").utf8)
        }
        if f.lastByteBits != 8, case .data = f.event {
            out.append(contentsOf: " (".utf8)
            Decimal.append(Int64(f.bitCount), width: 0, into: &out)
            out.append(contentsOf: " bits)".utf8)
        }
        if let (w, t) = clock.microseconds(f.start) {
            out.append(contentsOf: ", at ".utf8)
            Decimal.append(w, width: 0, into: &out)
            out.append(0x2E)
            out.append(0x30 + UInt8(t))
            out.append(contentsOf: " µs".utf8)
        }
        out.append(contentsOf: ", ".utf8)
        out.append(contentsOf: f.technology.displayName.utf8)
        if !d.layer.isEmpty {
            out.append(contentsOf: " / ".utf8)
            out.append(contentsOf: d.layer.utf8)
        }
        appendNumber(", session ", d.session, into: &out)
        appendNumber(", answers frame ", d.responseTo, into: &out)
        appendNumber(", answered in frame ", d.responseIn, into: &out)
        if style.enabled { out.append(contentsOf: Style.off) }
        out.append(0x0A)
        if !f.bytes.isEmpty {
            out.append(contentsOf: "    bytes: ".utf8)
            if d.masked.isEmpty {
                Hex.append(f.bytes, to: &out)
            } else {
                for (i, b) in f.bytes.enumerated() {
                    if i > 0 { out.append(0x20) }
                    if d.masked.contains(where: { $0.contains(i) }) { out.append(contentsOf: Self.maskedByte) } else { Hex.appendByte(b, to: &out) }
                }
            }
            if let p = f.parityErrors, !p.isEmpty { out.append(contentsOf: " (parity errors at \(p.map(String.init).joined(separator: ", ")))".utf8) }
            if f.crcStripped { out.append(contentsOf: " (CRC not captured)".utf8) }
            out.append(0x0A)
        }
        if let c = f.comment { out.append(contentsOf: "    comment: \(PrintableText.forTerminal(c))\n".utf8) }
        out.append(contentsOf: "    summary: ".utf8)
        let summaryStart = out.count
        out.append(contentsOf: d.summary.utf8)
        PrintableText.makeTerminalSafe(&out, from: summaryStart)
        out.append(0x0A)
        appendFields(d.fields, depth: 1, into: &out)
        for diag in d.diagnostics { appendDiagnostic(diag, indent: "    ", into: &out) }
        out.append(0x0A)
    }

    private static let boldOn = Array(Style.on("1").utf8)

    private func appendNumber(_ label: String, _ n: Int?, into out: inout [UInt8]) {
        guard let n else { return }
        out.append(contentsOf: label.utf8)
        Decimal.append(Int64(n), width: 0, into: &out)
    }

    func appendFields(_ fields: [Field], depth: Int, into out: inout [UInt8]) {
        FieldText.append(fields, depth: depth, style: style, into: &out)
    }

    func appendDiagnostic(_ diag: Diagnostic, indent: String, into out: inout [UInt8]) {
        FieldText.append(diag, indent: indent, style: style, into: &out)
    }

    // MARK: sessions

    private func renderSession(_ s: SessionSummary, into out: inout [UInt8]) {
        let span = s.firstFrame == s.lastFrame ? "frame \(s.firstFrame)" : "frames \(s.firstFrame)–\(s.lastFrame)"
        out.append(contentsOf: style.bold("  ── session \(s.number) (\(span)): \(PrintableText.forTerminal(s.headline))").utf8)
        out.append(0x0A)
        if verbose {
            appendFields(s.tag, depth: 1, into: &out)
            appendFields(s.memory, depth: 1, into: &out)
        } else if s.content != nil {
            for line in SessionText.lines(s) { out.append(contentsOf: "  \(PrintableText.forTerminal(line))\n".utf8) }
        } else {
            // Summaries written as fields only (MIFARE Classic) read the same in both views.
            appendFields(s.memory, depth: 1, into: &out)
        }
        for diag in s.diagnostics { appendDiagnostic(diag, indent: "    ", into: &out) }
        out.append(0x0A)
    }
}

/// Right-aligned decimal numbers without going through String.
enum Decimal {
    static func append(_ value: Int64, width: Int, into out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var n = 0
            var v = value.magnitude
            repeat {
                digits[23 - n] = 0x30 + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
            if value < 0 {
                digits[23 - n] = 0x2D
                n += 1
            }
            if n < width { out.append(contentsOf: repeatElement(0x20, count: width - n)) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(24 - n)...]))
        }
    }
}

extension String {
    func padding(toWidth width: Int) -> String {
        let n = count
        return n >= width ? self : self + String(repeating: " ", count: width - n)
    }
}
