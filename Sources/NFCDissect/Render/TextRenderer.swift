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

    /// The source column and CRC marks as bytes, styled once (`style.reader("Rdr")` built a
    /// String per frame).
    private let marks: Marks

    public init(verbose: Bool = false, color: Bool = false) {
        self.verbose = verbose
        self.style = Style(enabled: color)
        self.marks = Marks(style)
    }

    private struct Marks {
        let reader, tag, field, malformed: [UInt8]
        let crcOK, crcBad, crcStripped, crcNone, decryptedOK, decryptedBad: [UInt8]

        init(_ style: Style) {
            reader = Array(style.reader("Rdr").utf8)
            tag = Array(style.tag("Tag").utf8)
            field = Array("RF ".utf8)
            malformed = Array(style.bad("???").utf8)
            crcOK = Array(" ok ".utf8)
            crcBad = Array(style.bad("!crc").utf8)
            crcStripped = Array(" -- ".utf8)
            crcNone = Array("    ".utf8)
            decryptedOK = Array("(ok)".utf8)
            decryptedBad = Array(style.bad("(!!)").utf8)
        }

        /// A MIFARE Classic frame decrypted: its CRC was checked in clear, not on the bytes shown.
        func crc(_ c: CRCStatus, decrypted: Bool) -> [UInt8] {
            switch c {
            case .ok: return decrypted ? decryptedOK : crcOK
            case .mismatch: return decrypted ? decryptedBad : crcBad
            case .stripped: return crcStripped
            case .notExpected, .unknown: return crcNone
            }
        }
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
        case .data(.readerToTag): out.append(contentsOf: marks.reader)
        case .data(.tagToReader): out.append(contentsOf: marks.tag)
        case .fieldOn, .fieldOff: out.append(contentsOf: marks.field)
        case .malformed: out.append(contentsOf: marks.malformed)
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
        out.append(contentsOf: marks.crc(d.crc, decrypted: d.decrypted != nil))
        out.append(0x20)
        // Summaries, messages, comments and headlines can quote the input (a name, a text
        // record): escaped for the terminal (PrintableText), as every string from input is.
        let summaryStart = out.count
        Self.appendUTF8(d.summary, to: &out)
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

    /// A string's UTF-8 appended in one copy (`append(contentsOf: s.utf8)` goes byte by byte
    /// through the generic sequence path).
    @inline(__always)
    static func appendUTF8(_ s: String, to out: inout [UInt8]) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) { return done }
        out.append(contentsOf: s.utf8)
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
        if !anyMasked, parity.isEmpty {
            appendPlainData(f, range, into: &out)
            return 0
        }
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

    /// `appendData` for a line without masks or parity marks (nearly every line): the digits,
    /// spaces and a short last byte's `(n)` written into a stack buffer of `3 × count + 3`
    /// bytes (`count × 2` digits, `count − 1` spaces, `(n)`), appended in one copy instead of a
    /// bounds-checked append per character.
    private func appendPlainData(_ f: Frame, _ range: Range<Int>, into out: inout [UInt8]) {
        let bytes = f.bytes
        var shortLast = false
        if range.upperBound == bytes.count, f.lastByteBits != 8, case .data = f.event { shortLast = true }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count * 3 + 3) { buf in
            var k = 0
            for i in range {
                if k > 0 {
                    buf[k] = 0x20
                    k += 1
                }
                let b = bytes[i]
                buf[k] = Hex.digit(ofNibble: b >> 4)
                buf[k + 1] = Hex.digit(ofNibble: b & 0x0F)
                k += 2
            }
            if shortLast, !range.isEmpty {
                buf[k] = 0x28
                buf[k + 1] = 0x30 + f.lastByteBits
                buf[k + 2] = 0x29
                k += 3
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[0..<k]))
        }
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
            for line in SessionText.lines(s) {
                out.append(0x20)
                out.append(0x20)
                let start = out.count
                Self.appendUTF8(line, to: &out)
                PrintableText.makeTerminalSafe(&out, from: start)
                out.append(0x0A)
            }
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
        // Digits, sign and padding written backwards into one stack buffer (20 characters at
        // most for an Int64, then the padding), appended in one copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + max(0, width)) { buf in
            var i = buf.count
            var v = value.magnitude
            repeat {
                i -= 1
                buf[i] = 0x30 + UInt8(v % 10)
                v /= 10
            } while v > 0
            if value < 0 {
                i -= 1
                buf[i] = 0x2D
            }
            while buf.count - i < width {
                i -= 1
                buf[i] = 0x20
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[i...]))
        }
    }
}

extension String {
    func padding(toWidth width: Int) -> String {
        let n = count
        return n >= width ? self : self + String(repeating: " ", count: width - n)
    }
}
