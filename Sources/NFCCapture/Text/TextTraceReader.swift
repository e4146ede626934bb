import NFCCore

/// Shared vocabulary of the `.nfctrace` text format (docs/trace-format.md).
enum TextTraceSyntax {
    static let magic = "nfctrace"
    static let version = 1
    static let reader = "R"
    static let tag = "T"
    static let fieldOn = "field-on"
    static let fieldOff = "field-off"
    static let malformed = "malformed"
    /// In place of the bytes of a frame that has none (a bare SOF, an ISO 15693 reader EOF).
    static let empty = "empty"

    /// Whether a frame's parity is known when its line does not say: `@parity known` says so of
    /// 14443-A data frames (a trace from a Proxmark3), and a frame with `!` marks is known anyway.
    static func parityKnownByDefault(_ frame: Frame, header: Bool) -> Bool {
        guard header, frame.technology == .iso14443a, case .data = frame.event else { return false }
        return true
    }

    /// A quoted value's text: `\\` and `"` escaped with a backslash (docs/trace-format.md).
    /// Works on Unicode scalars, not Characters: a quote or backslash followed by a combining
    /// mark is one Character, but the reader's tokenizer sees the quote byte.
    static func escaped(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return String(out)
    }

    /// First line is `nfctrace <version>` (a UTF-8 BOM and leading blank lines are tolerated).
    static func looksLikeTextTrace(_ p: [UInt8]) -> Bool {
        var i = 0
        if p.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < p.count, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        let m = Array(magic.utf8)
        guard p.count >= i + m.count + 2, Array(p[i..<i + m.count]) == m else { return false }
        return p[i + m.count] == 0x20 && Hex.digit(p[i + m.count + 1]).map { $0 < 10 } == true
    }
}

/// Reads the line-oriented `.nfctrace` format, one event line at a time.
final class TextTraceReader: FrameReader {
    let format = CaptureFormat.nfctrace
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private var technology: Technology
    private let forcedTechnology: Technology?
    private var timebase = TimeUnit.microseconds
    private var origin: Int64 = 0
    /// `@parity known`.
    private var parityKnown = false
    private var lineNumber = 0
    private var frameNumber = 0
    private var pending: Frame?
    private var failed = false
    private let ending: ByteInput.LineEnding
    /// Comment lines read since the last `takeComments()`.
    private var comments: [String] = []
    /// Comment lines that came before `pending` (read with the header).
    private var pendingComments: [String] = []

    init(input: ByteInput, options: CaptureReadOptions) throws(CaptureError) {
        self.input = input
        self.forcedTechnology = options.technology
        self.technology = options.technology ?? .iso14443a
        self.ending = ByteInput.LineEnding.of(input.peek(1 << 16))
        try readHeader()
    }

    func takeComments() -> [String] {
        defer { comments.removeAll() }
        return comments
    }

    private func damage(_ reason: String, at offset: Int) -> CaptureError {
        failed = true
        return .damaged(path: input.name, offset: offset, frame: frameNumber + 1, reason: "line \(lineNumber): \(reason)")
    }

    /// Reads the magic line and the `@key value` lines up to the first event.
    private func readHeader() throws(CaptureError) {
        var sawMagic = false
        while let (raw, lineStart, truncated) = input.readLine(ending: ending) {
            lineNumber += 1
            if truncated { throw damage("line longer than 1 MiB", at: lineStart) }
            // Trimmed as bytes, as event lines are (spaces and tabs; a CR before the comment's
            // end is the comment's): trimming a String Character by Character from its end was
            // quadratic in a run of blanks (issue 51).
            var bytes = raw
            if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            let trimmedBytes = Self.trimmed(bytes)
            let trimmed = Self.text(trimmedBytes)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                if sawMagic { comments.append(String(trimmed)) }
                continue
            }
            if !sawMagic {
                let parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2, parts[0] == TextTraceSyntax.magic, let v = Int(parts[1]) else {
                    throw damage("expected the header line \"nfctrace 1\"", at: lineStart)
                }
                guard v == TextTraceSyntax.version else {
                    throw damage("text trace version \(v) is newer than this nfctrace understands (\(TextTraceSyntax.version))", at: lineStart)
                }
                sawMagic = true
                continue
            }
            if trimmed.hasPrefix("@") {
                let body = trimmed.dropFirst()
                let key = body.prefix { $0 != " " && $0 != "\t" }
                let value = Self.text(Self.trimmed(ArraySlice(body.dropFirst(key.count).utf8)))
                guard !key.isEmpty else { throw damage("expected @key value", at: lineStart) }
                try applyMetadata(String(key), String(value), at: lineStart)
                continue
            }
            pending = try parseEvent(trimmedBytes, at: lineStart)
            pendingComments = takeComments()
            return
        }
        if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
        if !sawMagic {
            lineNumber += 1
            throw damage("the file ends without the header line \"nfctrace 1\"", at: input.offset)
        }
    }

    private func applyMetadata(_ key: String, _ value: String, at offset: Int) throws(CaptureError) {
        switch key {
        case "tech":
            guard let t = Technology(name: value) else {
                throw damage("unknown technology \"\(value)\" (14443a, 14443b, felica, 15693)", at: offset)
            }
            if forcedTechnology == nil { technology = t }
        case "timebase":
            guard let u = TimeUnit(rawValue: value) else { throw damage("unknown timebase \"\(value)\" (ns, us, carrier)", at: offset) }
            timebase = u
        case "origin":
            guard let o = Int64(value) else { throw damage("@origin must be an integer count of timebase units", at: offset) }
            origin = o
        case "parity":
            guard value == "known" || value == "unknown" else { throw damage("@parity takes known or unknown, found \"\(value)\"", at: offset) }
            parityKnown = value == "known"
        default:
            break
        }
        metadata[key] = value
    }

    func next() throws(CaptureError) -> Frame? {
        if failed { return nil }
        if let p = pending {
            pending = nil
            comments = pendingComments + comments
            pendingComments = []
            frameNumber += 1
            return p
        }
        while let (raw, lineStart, truncated) = input.readLine(ending: ending) {
            lineNumber += 1
            if truncated { throw damage("line longer than 1 MiB", at: lineStart) }
            let line = Self.trimmed(raw)
            guard let first = line.first else { continue }
            if first == UInt8(ascii: "#") {
                comments.append(String(decoding: line, as: UTF8.self))
                continue
            }
            if first == UInt8(ascii: "@") { throw damage("metadata line after the first event; @lines belong in the header", at: lineStart) }
            let frame = try parseEvent(line, at: lineStart)
            frameNumber += 1
            return frame
        }
        if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
        return nil
    }

    /// `[start[..end]] kind [bytes…] [key=value…] [# comment]`, parsed as ASCII bytes: text traces
    /// can hold millions of lines, and Character-by-Character parsing was the reader's bottleneck.
    private func parseEvent(_ line: ArraySlice<UInt8>, at offset: Int) throws(CaptureError) -> Frame {
        var body = line
        var comment: String? = nil
        if let hash = Self.commentStart(line) {
            let text = Self.trimmed(line[(hash + 1)...])
            // `R 26 #` has no comment to keep (the writer writes none for an empty one).
            comment = text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
            body = line[..<hash]
        }
        let tokens = Self.tokens(body)
        var t = tokens.startIndex
        guard t < tokens.endIndex else { throw damage("empty event", at: offset) }
        var start: Timestamp? = nil
        var end: Timestamp? = nil
        if let c = tokens[t].first, (0x30...0x39).contains(c) || c == UInt8(ascii: "-") {
            let tok = tokens[t]
            if let dot = tok.firstIndex(of: UInt8(ascii: ".")) {
                guard dot + 1 < tok.endIndex, tok[dot + 1] == UInt8(ascii: "."),
                      let s = Self.integer(tok[..<dot]), let e = Self.integer(tok[(dot + 2)...]) else {
                    throw damage("expected a time as <start> or <start>..<end> in \(timebase.rawValue), found \"\(Self.text(tok))\"", at: offset)
                }
                start = Timestamp(try absolute(s, at: offset), timebase)
                end = Timestamp(try absolute(e, at: offset), timebase)
            } else {
                guard let s = Self.integer(tok) else {
                    throw damage("expected a time as <start> or <start>..<end> in \(timebase.rawValue), found \"\(Self.text(tok))\"", at: offset)
                }
                start = Timestamp(try absolute(s, at: offset), timebase)
            }
            t += 1
        }
        guard t < tokens.endIndex else { throw damage("expected R, T, field-on, field-off or malformed after the time", at: offset) }
        let kind = tokens[t]
        t += 1
        let event: Frame.Event
        if kind.elementsEqual("R".utf8) || kind.elementsEqual("Rdr".utf8) || kind.elementsEqual("rdr".utf8) {
            event = .data(.readerToTag)
        } else if kind.elementsEqual("T".utf8) || kind.elementsEqual("Tag".utf8) || kind.elementsEqual("tag".utf8) {
            event = .data(.tagToReader)
        } else if kind.elementsEqual(TextTraceSyntax.fieldOn.utf8) {
            event = .fieldOn
        } else if kind.elementsEqual(TextTraceSyntax.fieldOff.utf8) {
            event = .fieldOff
        } else if kind.elementsEqual(TextTraceSyntax.malformed.utf8) {
            event = .malformed(reason: "")
        } else {
            throw damage("expected R, T, field-on, field-off or malformed, found \"\(Self.text(kind))\"", at: offset)
        }
        var frame = Frame(event, technology: technology, start: start, end: end, comment: comment)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tokens.count)
        var parity: [Int] = []
        var sawAttribute = false
        var sawEmpty = false
        var parityAttribute: Bool? = nil
        while t < tokens.endIndex {
            let tok = tokens[t]
            t += 1
            if let eq = tok.firstIndex(of: UInt8(ascii: "=")) {
                sawAttribute = true
                let value = tok[(eq + 1)...]
                if value.first == UInt8(ascii: "\""), !Self.isClosedQuote(value) {
                    throw damage("unterminated quoted value in \"\(Self.text(tok.prefix(40)))\"", at: offset)
                }
                let key = Self.text(tok[..<eq])
                let text = Self.unquote(Self.text(value)[...])
                if key == "parity" {
                    guard text == "known" || text == "unknown" else { throw damage("parity= takes known or unknown, found \"\(text)\"", at: offset) }
                    parityAttribute = text == "known"
                    continue
                }
                try applyAttribute(key, text, to: &frame, at: offset)
                continue
            }
            guard !sawAttribute else { throw damage("byte \"\(Self.text(tok))\" after key=value attributes", at: offset) }
            if tok.elementsEqual(TextTraceSyntax.empty.utf8) {
                guard bytes.isEmpty, !sawEmpty, case .data = frame.event else {
                    throw damage("\(TextTraceSyntax.empty) stands alone in place of the bytes of an R or T frame", at: offset)
                }
                sawEmpty = true
                continue
            }
            if sawEmpty { throw damage("byte \"\(Self.text(tok))\" after \(TextTraceSyntax.empty)", at: offset) }
            var digits = tok
            var parityError = false
            if digits.last == UInt8(ascii: "!") {
                parityError = true
                digits = digits.dropLast()
            }
            var bits: UInt8 = 8
            if let slash = digits.firstIndex(of: UInt8(ascii: "/")) {
                let n = digits[(slash + 1)...]
                guard n.count == 1, let d = n.first, (0x31...0x38).contains(d) else {
                    throw damage("valid-bit count after / must be 1…8 in \"\(Self.text(tok))\"", at: offset)
                }
                bits = d - 0x30
                digits = digits[..<slash]
            }
            guard digits.count == 2, let hi = digits.first.flatMap(Hex.digit), let lo = digits.last.flatMap(Hex.digit) else {
                throw damage("expected a hex byte (like 3A, 26/7 or A2!) or key=value, found \"\(Self.text(tok))\"", at: offset)
            }
            if frame.lastByteBits != 8 { throw damage("only the last byte may have fewer than 8 valid bits", at: offset) }
            if parityError { parity.append(bytes.count) }
            bytes.append(hi << 4 | lo)
            frame.lastByteBits = bits
        }
        let kindText = Self.text(kind)
        switch frame.event {
        case .fieldOn, .fieldOff:
            guard bytes.isEmpty else { throw damage("\(kindText) carries no bytes", at: offset) }
        case .data:
            guard !bytes.isEmpty || sawEmpty else { throw damage("a frame needs at least one byte, or \(TextTraceSyntax.empty) for a frame of none", at: offset) }
        case .malformed:
            break
        }
        frame.bytes = bytes
        if !parity.isEmpty {
            guard parityAttribute != false else { throw damage("parity=unknown on a frame with parity errors (!)", at: offset) }
            frame.parityErrors = parity
        } else if parityAttribute ?? TextTraceSyntax.parityKnownByDefault(frame, header: parityKnown) {
            frame.parityErrors = []
        }
        return frame
    }

    /// `@origin` + a relative time; a sum past the 64-bit range is damage, not a wrapped time.
    /// Every time must also be within the 64-bit nanosecond range (±292 years of 1970) that
    /// renderers and writers compute in.
    private func absolute(_ relative: Int64, at offset: Int) throws(CaptureError) -> Int64 {
        let (sum, overflow) = origin.addingReportingOverflow(relative)
        guard !overflow else { throw damage("time \(relative) after @origin \(origin) is beyond the 64-bit range of \(timebase.rawValue)", at: offset) }
        guard Timestamp(sum, timebase).checkedNanoseconds != nil else {
            throw damage("time \(sum) \(timebase.rawValue) is beyond the 64-bit nanosecond range (±292 years of 1970)", at: offset)
        }
        return sum
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, s[lo] == 0x20 || s[lo] == 0x09 { lo += 1 }
        while hi > lo, s[hi - 1] == 0x20 || s[hi - 1] == 0x09 { hi -= 1 }
        return s[lo..<hi]
    }

    /// An ASCII decimal with an optional minus sign; nil on anything else or on overflow.
    static func integer(_ s: ArraySlice<UInt8>) -> Int64? {
        var i = s.startIndex
        var negative = false
        if i < s.endIndex, s[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < s.endIndex else { return nil }
        // Accumulated on the number's own side of zero, so that Int64.min (one more than
        // Int64.max in magnitude) reads too.
        var v: Int64 = 0
        while i < s.endIndex {
            let c = s[i]
            guard (0x30...0x39).contains(c) else { return nil }
            let digit = Int64(c - 0x30)
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            v = a
            i += 1
        }
        return v
    }

    private func applyAttribute(_ key: String, _ value: String, to frame: inout Frame, at offset: Int) throws(CaptureError) {
        switch key {
        case "tech":
            guard let t = Technology(name: value) else { throw damage("unknown technology \"\(value)\"", at: offset) }
            frame.technology = t
        case "crc":
            switch value {
            case "stripped": frame.crcStripped = true
            case "included": frame.crcStripped = false
            default: throw damage("crc= takes stripped or included, found \"\(value)\"", at: offset)
            }
        case "rate":
            guard let r = Int(value), r > 0 else { throw damage("rate= takes a bit rate in kbit/s", at: offset) }
            frame.bitRate = r
        case "reason":
            guard case .malformed = frame.event else { throw damage("reason= belongs to malformed events", at: offset) }
            frame.event = .malformed(reason: value)
        default:
            throw damage("unknown attribute \"\(key)\" (tech, crc, rate, parity, reason)", at: offset)
        }
    }

    /// Whether `"…"` ends with a quote that no backslash escapes (`"abc` and `"abc\"` do not).
    static func isClosedQuote(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count >= 2, s.last == UInt8(ascii: "\"") else { return false }
        var backslashes = 0
        var i = s.index(before: s.index(before: s.endIndex))
        while i > s.startIndex, s[i] == UInt8(ascii: "\\") {
            backslashes += 1
            i = s.index(before: i)
        }
        return backslashes % 2 == 0
    }

    /// Index of a `#` that starts a comment: at a token start and outside quotes.
    static func commentStart(_ s: ArraySlice<UInt8>) -> Int? {
        var inQuotes = false
        var escaped = false
        var previousIsSpace = true
        for i in s.indices {
            let c = s[i]
            if inQuotes && !escaped && c == UInt8(ascii: "\\") { escaped = true; previousIsSpace = false; continue }
            if c == UInt8(ascii: "\""), !escaped { inQuotes.toggle() }
            escaped = false
            if c == UInt8(ascii: "#"), !inQuotes, previousIsSpace { return i }
            previousIsSpace = c == 0x20 || c == 0x09
        }
        return nil
    }

    /// Splits on spaces and tabs, keeping `key="quoted value"` together; inside quotes a
    /// backslash escapes the next character (so `\"` does not end the value).
    static func tokens(_ s: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var tokenStart: Int? = nil
        var inQuotes = false
        var escaped = false
        for i in s.indices {
            let c = s[i]
            if inQuotes && !escaped && c == UInt8(ascii: "\\") {
                escaped = true
                if tokenStart == nil { tokenStart = i }
                continue
            }
            if c == UInt8(ascii: "\""), !escaped { inQuotes.toggle() }
            escaped = false
            if (c == 0x20 || c == 0x09) && !inQuotes {
                if let st = tokenStart { out.append(s[st..<i]) }
                tokenStart = nil
            } else if tokenStart == nil {
                tokenStart = i
            }
        }
        if let st = tokenStart { out.append(s[st...]) }
        return out
    }

    /// The value of `"…"` with `\\` and `\"` unescaped (another escaped character stays as
    /// written, backslash included); unquoted text as it is.
    /// Unicode scalars, like `escaped` (a quote followed by a combining mark is still a quote).
    static func unquote(_ s: Substring) -> String {
        let scalars = s.unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return String(s) }
        var out = String.UnicodeScalarView()
        var escaped = false
        for c in scalars.dropFirst().dropLast() {
            if escaped {
                if c != "\"" && c != "\\" { out.append("\\") }
                out.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }
}
