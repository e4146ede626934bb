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
            for b in utf8 where needsEscape(b) {
                plain = false
                break
            }
            if plain {
                out.append(contentsOf: utf8)
                return
            }
            for b in utf8 {
                if needsEscape(b) { escape(b) { out.append($0) } } else { out.append(b) }
            }
        }
        out.append(0x22)
    }

    /// Whether `b` is written escaped inside a JSON string literal: control characters, `"`
    /// and `\` (RFC 8259 §7). Bytes of 0x80 and above are UTF-8 and stay as they are.
    @inlinable
    public static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

    /// Writes how `b` is escaped inside a JSON string literal (`\"`, `\\`, `\n`, `\r`, `\t`,
    /// `\u00XX` for other control characters), one byte at a time to `put`; a byte that needs no
    /// escape is written as itself. The JSON renderer's fast path copies plain runs and asks this
    /// for the rest.
    ///
    /// No array literals here: an `@inlinable` function's constant arrays are emitted as
    /// statically initialised objects named by their order in the function, and Swift 6.3's
    /// release build numbered them differently in the module that inlined this function than in
    /// NFCCore, so the renderer wrote `\t` for a quote and `\r` for a backslash (issue 44, point 1;
    /// Tests/NFCCoreTests/Bytes/InlinableConstantTests.swift keeps such literals out).
    @inlinable
    public static func escape(_ b: UInt8, _ put: (UInt8) -> Void) {
        let letter: UInt8
        switch b {
        case 0x22: letter = 0x22
        case 0x5C: letter = 0x5C
        case 0x0A: letter = 0x6E
        case 0x0D: letter = 0x72
        case 0x09: letter = 0x74
        case 0..<0x20: letter = 0x75
        default:
            put(b)
            return
        }
        put(0x5C)
        put(letter)
        guard letter == 0x75 else { return }
        put(0x30)
        put(0x30)
        put(Hex.digit(ofNibble: b >> 4))
        put(Hex.digit(ofNibble: b & 0x0F))
    }
}
