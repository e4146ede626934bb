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
