/// Bytes that came from outside (a peer's datagram, a file's line) made safe to print on a
/// terminal: printable ASCII stays as it is, a backslash is doubled, every other byte (control
/// characters such as ESC, and UTF-8 sequences) becomes `\xNN`. So nothing a peer sends can
/// move the cursor, clear the screen or set a window title.
public enum PrintableText {
    /// The escaped text of at most `limit` bytes, with how many were left out.
    public static func escaped<C: Collection>(_ bytes: C, limit: Int = 80) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(min(bytes.count, limit) + 8)
        var shown = 0
        for b in bytes {
            if shown == limit { break }
            shown += 1
            switch b {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x20...0x7E: out.append(b)
            default:
                out += [0x5C, 0x78]
                Hex.appendByte(b, to: &out)
            }
        }
        let rest = bytes.count - shown
        var text = String(decoding: out, as: UTF8.self)
        if rest > 0 { text += "… (\(rest) more byte\(rest == 1 ? "" : "s"))" }
        return text
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and carriage returns: how the line-based files
    /// nfctrace reads (text traces, Flipper `.nfc`) separate a key or value from its padding.
    /// Works on Unicode scalars: dropping the last Character of a Substring again and again
    /// costs a grapheme-break search each time, quadratic in a run of trailing blanks (issue 51:
    /// 64 KiB of spaces after a line took 22 s). A blank scalar is a Character of its own.
    public func trimmingBlanks() -> String {
        let s = unicodeScalars
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, Self.isBlank(s[lo]) { lo = s.index(after: lo) }
        while hi > lo {
            let before = s.index(before: hi)
            guard Self.isBlank(s[before]) else { break }
            hi = before
        }
        return String(self[lo..<hi])
    }

    private static func isBlank(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" }
}

/// Text that came from an input (a trace comment, an NDEF text record, a file's header, an
/// argument), made safe for a terminal: C0 controls, DEL, C1 controls (U+0080–U+009F: U+009B is a
/// CSI on many terminals) and the characters that reorder text on screen (bidirectional
/// overrides, embeddings, isolates and marks) are written as escapes — `\x1B` for a C0 control or
/// DEL, `\u{202E}` for the others — so that no input can move the cursor, retitle the window,
/// ring the bell or make text read in another order. Everything else, other Unicode included,
/// is kept. One rule for every output meant for a terminal: the text view, `-V`, field trees,
/// messages on standard error. JSON and the capture formats keep the text as it was.
extension PrintableText {
    /// `s`, or `s` with its unsafe characters escaped; `keepingLines`: line feeds and tabs stay
    /// (messages of several lines).
    public static func forTerminal(_ s: String, keepingLines: Bool = false) -> String {
        if isTerminalSafe(s, keepingLines: keepingLines) { return s }
        var out: [UInt8] = []
        appendEscaping(s, keepingLines: keepingLines, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Escapes what `out` holds from `start` on, in place (the text renderers write a value's
    /// UTF-8 straight into their buffer; a buffer holds few unsafe characters, usually none).
    public static func makeTerminalSafe(_ out: inout [UInt8], from start: Int, keepingLines: Bool = false) {
        guard start < out.count else { return }
        let found = out.withUnsafeBufferPointer { firstUnsafe(UnsafeBufferPointer(rebasing: $0[start...]), keepingLines: keepingLines) }
        guard let offset = found else { return }
        let tail = String(decoding: out[(start + offset)...], as: UTF8.self)
        out.removeSubrange((start + offset)...)
        appendEscaping(tail, keepingLines: keepingLines, to: &out)
    }

    /// Whether `s` holds nothing the rule escapes.
    public static func isTerminalSafe(_ s: String, keepingLines: Bool = false) -> Bool {
        var s = s
        return s.withUTF8 { firstUnsafe($0, keepingLines: keepingLines) == nil }
    }

    /// Whether a scalar is one the rule escapes.
    public static func isUnsafeForTerminal(_ u: Unicode.Scalar, keepingLines: Bool = false) -> Bool {
        switch u.value {
        case 0x0A, 0x09: return !keepingLines
        case 0x00..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func appendEscaping(_ s: String, keepingLines: Bool, to out: inout [UInt8]) {
        for u in s.unicodeScalars {
            if !isUnsafeForTerminal(u, keepingLines: keepingLines) {
                out.append(contentsOf: String(u).utf8)
            } else if u.value < 0x80 {
                out += [0x5C, 0x78]
                Hex.appendByte(UInt8(u.value), to: &out)
            } else {
                out.append(contentsOf: "\\u{\(String(u.value, radix: 16, uppercase: true))}".utf8)
            }
        }
    }

    /// The offset of the first byte of an unsafe character, looking at the UTF-8 alone: C0 and
    /// DEL are one byte, C1 is C2 80–9F, U+061C is D8 9C, the others E2 80 8E–8F, E2 80 AA–AE,
    /// E2 81 A6–A9.
    private static func firstUnsafe(_ p: UnsafeBufferPointer<UInt8>, keepingLines: Bool) -> Int? {
        guard let base = p.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var i = 0
        let n = p.count
        while i < n {
            // Eight bytes at a time while they are printable ASCII (the text view scans every
            // frame's summary: byte by byte this cost 7.6 % of its rendering thread's
            // instructions). A word holds a byte under 0x20, 0x7F or 0x80 and above exactly
            // when one of the three bit tests below is set.
            if i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                let del = w ^ (ones &* 0x7F)
                if (w | ((w &- ones &* 0x20) & ~w) | ((del &- ones) & ~del)) & highs == 0 {
                    i += 8
                    continue
                }
            }
            let b = p[i]
            if b < 0x20 {
                if !(keepingLines && (b == 0x0A || b == 0x09)) { return i }
            } else if b == 0x7F {
                return i
            } else if b == 0xC2 {
                if i + 1 < n, (0x80...0x9F).contains(p[i + 1]) { return i }
            } else if b == 0xD8 {
                if i + 1 < n, p[i + 1] == 0x9C { return i }
            } else if b == 0xE2, i + 2 < n {
                let c = p[i + 1], d = p[i + 2]
                if c == 0x80, d == 0x8E || d == 0x8F || (0xAA...0xAE).contains(d) { return i }
                if c == 0x81, (0xA6...0xA9).contains(d) { return i }
            }
            i += 1
        }
        return nil
    }
}
