/// JSON string literals, the one place nfctrace escapes them.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string literal; plain text (the usual case) is copied in one go.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        out.append(0x22)
        var s = string
        s.withUTF8 { utf8 in
            var plain = true
            for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
                plain = false
                break
            }
            if plain {
                out.append(contentsOf: utf8)
                return
            }
            for b in utf8 {
                switch b {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
                case 0x0D: out.append(contentsOf: [0x5C, 0x72])
                case 0x09: out.append(contentsOf: [0x5C, 0x74])
                case 0..<0x20:
                    out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                    Hex.appendByte(b, to: &out)
                default: out.append(b)
                }
            }
        }
        out.append(0x22)
    }
}
