/// libFuzzer `-dict` files: one quoted entry per line, bytes outside printable ASCII (and the
/// quote and backslash) written as `\xNN` (libFuzzer's dictionary syntax, as AFL's).
public enum FuzzDictionary {
    /// The dictionary file for `entries` under a `title` comment: duplicates, empty entries and
    /// entries over 64 bytes (libFuzzer's limit) left out.
    public static func text(_ entries: [[UInt8]], title: String) -> String {
        var seen = Set<[UInt8]>()
        var out = "# \(title)\n# Written by `nfctrace fuzz --make-corpus`; magic values of the shape (docs/fuzzing.md).\n"
        for entry in entries where !entry.isEmpty && entry.count <= 64 && seen.insert(entry).inserted {
            out += "\"" + entry.map(escape).joined() + "\"\n"
        }
        return out
    }

    static func escape(_ b: UInt8) -> String {
        if b == 0x22 { return "\\\"" }
        if b == 0x5C { return "\\\\" }
        if (0x20...0x7E).contains(b) { return String(UnicodeScalar(b)) }
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0x0F)])
    }

    /// Parses the entries back (the unit tests check the round trip; `--exec` reads user dictionaries).
    public static func parse(_ text: String) -> [[UInt8]] {
        text.split(separator: "\n").compactMap { line -> [UInt8]? in
            let t = line.drop { $0 == " " || $0 == "\t" }
            guard !t.hasPrefix("#"), let open = t.firstIndex(of: "\""), let close = t.lastIndex(of: "\""), open < close else { return nil }
            var bytes: [UInt8] = []
            var chars = Array(t[t.index(after: open)..<close].utf8)[...]
            while let c = chars.popFirst() {
                guard c == 0x5C, let next = chars.popFirst() else { bytes.append(c); continue }
                if next == UInt8(ascii: "x"), chars.count >= 2, let hex = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(hex)
                    chars = chars.dropFirst(2)
                } else {
                    bytes.append(next)
                }
            }
            return bytes
        }
    }
}
