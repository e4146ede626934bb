/// Text for XML and HTML, in element content or a quoted attribute: `&`, `<`, `>` and `"` as
/// entities; control characters other than newline and tab (not allowed in XML 1.0) as `?`.
/// JUnit reports and `nfctrace report`'s page use it.
public enum MarkupText {
    public static func escaped(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                if u.value < 0x20 && u != "\n" && u != "\t" { out += "?" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}
