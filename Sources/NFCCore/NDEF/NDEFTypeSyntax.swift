/// The syntax a TYPE must have for TNF 2 and 3 (NDEF 1.0 §3.2.6): a media type per RFC 2046
/// (`type/subtype` with optional parameters) and an absolute URI per RFC 3986 §4.3.
enum NDEFTypeSyntax {
    /// The rule `type` breaks for `tnf`, if any (only TNF 2 and 3 have a syntax).
    static func breach(tnf: NDEFTypeNameFormat, type: [UInt8]) -> NDEFRule? {
        switch tnf {
        case .media: return isMediaType(type) ? nil : .mediaTypeInvalid
        case .absoluteURI: return isAbsoluteURI(type) ? nil : .absoluteURIInvalid
        default: return nil
        }
    }

    /// RFC 2045 §5.1 `token`: US-ASCII printable, no space, no tspecials.
    private static func isTokenByte(_ b: UInt8) -> Bool {
        guard b > 0x20 && b < 0x7F else { return false }
        switch b {
        case 0x28, 0x29, 0x3C, 0x3E, 0x40, 0x2C, 0x3B, 0x3A, 0x5C, 0x22, 0x2F, 0x5B, 0x5D, 0x3F, 0x3D: return false
        default: return true
        }
    }

    /// `type "/" subtype *( OWS ";" OWS attribute "=" value )`, value a token or quoted-string.
    static func isMediaType(_ t: [UInt8]) -> Bool {
        var i = 0
        func token() -> Bool {
            let start = i
            while i < t.count && isTokenByte(t[i]) { i += 1 }
            return i > start
        }
        func skipSpace() { while i < t.count && (t[i] == 0x20 || t[i] == 0x09) { i += 1 } }
        guard token(), i < t.count, t[i] == 0x2F else { return false }
        i += 1
        guard token() else { return false }
        while true {
            skipSpace()
            if i == t.count { return true }
            guard t[i] == 0x3B else { return false }
            i += 1
            skipSpace()
            guard token(), i < t.count, t[i] == 0x3D else { return false }
            i += 1
            if i < t.count && t[i] == 0x22 {
                // quoted-string: any printable byte but `"` and `\`, or a backslash pair.
                i += 1
                var closed = false
                while i < t.count {
                    if t[i] == 0x22 { i += 1; closed = true; break }
                    if t[i] == 0x5C { i += 2; continue }
                    guard t[i] >= 0x20 && t[i] < 0x7F else { return false }
                    i += 1
                }
                guard closed else { return false }
            } else {
                guard token() else { return false }
            }
        }
    }

    /// `scheme ":" hier-part [ "?" query ]`: scheme is a letter then letters, digits, `+-.`; the
    /// rest uses URI characters only, percent escapes are complete, and there is no fragment.
    static func isAbsoluteURI(_ t: [UInt8]) -> Bool {
        guard let first = t.first, isLetter(first), let colon = t.firstIndex(of: 0x3A) else { return false }
        for b in t[..<colon] where !(isLetter(b) || (0x30...0x39).contains(b) || b == 0x2B || b == 0x2D || b == 0x2E) {
            return false
        }
        var i = colon + 1
        while i < t.count {
            let b = t[i]
            if b == 0x25 {
                guard i + 2 < t.count, Hex.digit(t[i + 1]) != nil, Hex.digit(t[i + 2]) != nil else { return false }
                i += 3
                continue
            }
            guard isURIByte(b) else { return false }
            i += 1
        }
        return true
    }

    private static func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }

    /// RFC 3986 unreserved, sub-delims, `:`, `@`, `/`, `?`, and `[` `]` for IP literals.
    private static func isURIByte(_ b: UInt8) -> Bool {
        if isLetter(b) || (0x30...0x39).contains(b) { return true }
        switch b {
        case 0x2D, 0x2E, 0x5F, 0x7E,                                          // - . _ ~
             0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, // ! $ & ' ( ) * + , ; =
             0x3A, 0x40, 0x2F, 0x3F, 0x5B, 0x5D:                              // : @ / ? [ ]
            return true
        default:
            return false
        }
    }
}
