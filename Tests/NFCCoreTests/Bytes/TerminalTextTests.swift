import Testing
import PropertyBased
@testable import NFCCore

/// Issue 51, point 16: one escaping rule for text from input on every output meant for a terminal.
@Suite struct TerminalTextTests {
    static let unsafe: [Unicode.Scalar] = [0x00, 0x07, 0x08, 0x0D, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E, 0x200F,
                                           0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].map { Unicode.Scalar($0)! }

    @Test func eachKindIsEscaped() {
        #expect(PrintableText.forTerminal("a\u{1B}]0;PWN\u{07}\u{1B}[2J") == "a\\x1B]0;PWN\\x07\\x1B[2J")
        #expect(PrintableText.forTerminal("\u{7F}\u{9B}2J\u{202E}txt.exe") == "\\x7F\\u{9B}2J\\u{202E}txt.exe")
        #expect(PrintableText.forTerminal("one\ntwo\tthree") == "one\\x0Atwo\\x09three")
        #expect(PrintableText.forTerminal("one\ntwo\tthree", keepingLines: true) == "one\ntwo\tthree")
        for u in Self.unsafe {
            #expect(PrintableText.isUnsafeForTerminal(u), "U+\(String(u.value, radix: 16))")
            #expect(!PrintableText.isTerminalSafe("x" + String(u) + "y"), "U+\(String(u.value, radix: 16))")
        }
    }

    /// At every offset of a long ASCII text (the scan takes eight bytes at a time), and beside
    /// other multi-byte characters.
    @Test func everyOffsetOfALongText() {
        let text = Array("reader frame 12: READ 04 (16 bytes) → ok".unicodeScalars)
        for u in Self.unsafe + ["\u{0}", "\u{1F}"] {
            for at in 0...text.count {
                var s = String.UnicodeScalarView()
                s.append(contentsOf: text[..<at])
                s.append(u)
                s.append(contentsOf: text[at...])
                #expect(!PrintableText.isTerminalSafe(String(s)), "U+\(String(u.value, radix: 16)) at \(at)")
            }
        }
        #expect(PrintableText.isTerminalSafe(String(String.UnicodeScalarView(text))))
        for c in ["\u{7E}", "\u{20}", "\u{A0}", "\u{FF}", "\u{2029}", "\u{206A}"] {
            #expect(PrintableText.isTerminalSafe(String(repeating: "abcdefgh", count: 3) + c + "ijklmnop"), "\(c.unicodeScalars.first!.value)")
        }
    }

    /// What the outputs write of their own (arrows, bullets, µ, box drawing) and other Unicode stays.
    @Test func otherTextIsKept() {
        for s in ["reader → tag", "••", "0.0 µs", "── session", "Prüfung", "学生証", "…", "\u{A0}", "🙂", "\u{2028}", "a\\b \"q\""] {
            #expect(PrintableText.forTerminal(s) == s)
            #expect(PrintableText.isTerminalSafe(s))
        }
    }

    /// In place, from an offset: what the buffer held before (the renderer's own colour codes) stays.
    @Test func inPlaceFromAnOffset() {
        var out = Array("\u{1B}[1mFrame\u{1B}[0m ".utf8)
        let start = out.count
        out += Array("x\u{9B}y\u{1B}".utf8)
        PrintableText.makeTerminalSafe(&out, from: start)
        #expect(String(decoding: out, as: UTF8.self) == "\u{1B}[1mFrame\u{1B}[0m x\\u{9B}y\\x1B")
        var clean = Array("plain".utf8)
        PrintableText.makeTerminalSafe(&clean, from: 0)
        #expect(clean == Array("plain".utf8))
    }

    /// Any text: nothing unsafe is left, and the safe scalars come out in order.
    @Test func anyText() async {
        let pool: [Unicode.Scalar] = Self.unsafe + ["a", "\\", "é", "→", "\u{A0}", "\u{202F}", "\u{2065}", "\u{206A}", "\u{C1}", "\u{9B}"]
        await propertyCheck(input: Gen.int(in: 0...(pool.count - 1)).array(of: 0...40)) { picks in
            var s = ""
            for i in picks { s.unicodeScalars.append(pool[i]) }
            let safe = PrintableText.forTerminal(s)
            #expect(!safe.unicodeScalars.contains { PrintableText.isUnsafeForTerminal($0) })
            #expect(safe.unicodeScalars.filter { $0 != "\\" && !"xu{}0123456789ABCDEF".unicodeScalars.contains($0) }
                    == s.unicodeScalars.filter { !PrintableText.isUnsafeForTerminal($0) && $0 != "\\" && !"xu{}0123456789ABCDEF".unicodeScalars.contains($0) })
        }
    }
}
