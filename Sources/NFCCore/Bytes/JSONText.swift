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
                if let e = escape(b) { out.append(contentsOf: e) } else { out.append(b) }
            }
        }
        out.append(0x22)
    }

    /// How `b` is written inside a JSON string literal: nil for itself, else its escape (`\"`,
    /// `\\`, `\n`, `\r`, `\t`, `\u00XX` for other control characters). The JSON renderer's
    /// fast path copies plain runs and asks this for the rest.
    @inlinable
    public static func escape(_ b: UInt8) -> [UInt8]? {
        switch b {
        case 0x22: return [0x5C, 0x22]
        case 0x5C: return [0x5C, 0x5C]
        case 0x0A: return [0x5C, 0x6E]
        case 0x0D: return [0x5C, 0x72]
        case 0x09: return [0x5C, 0x74]
        case 0..<0x20: return [0x5C, 0x75, 0x30, 0x30, Hex.digit(ofNibble: b >> 4), Hex.digit(ofNibble: b & 0x0F)]
        default: return nil
        }
    }
}
