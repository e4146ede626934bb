import Foundation
import Testing
import NFCCore
@testable import NFCDissect

/// The raw-buffer JSON writer against NFCCore's reference escaping (`JSONText`), which the
/// other JSON outputs use.
@Suite struct JSONWriterTests {
    static func written(_ body: (inout JSONWriter) -> Void, capacity: Int = 64) -> String {
        var w = JSONWriter(capacity: capacity)
        w.beginObject()
        body(&w)
        w.endObject()
        return String(decoding: w.out, as: UTF8.self)
    }

    @Test func stringsAreEscapedLikeTheReference() {
        var rng = SplitMix64(seed: 7)
        let pool: [String] = ["a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{1F}", "\u{7F}",
                              "é", "→", "ü", "📡", "e\u{301}", "/", "{", "}"]
        for _ in 0..<3_000 {
            let n = Int(rng.next() % 40)
            let s = (0..<n).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }.joined()
            #expect(Self.written { $0.string("k", s) } == "{\"k\":\(JSONText.quoted(s))}")
        }
    }

    /// Strings shorter than a word are gathered into one (overlapping loads, padded); longer ones
    /// go a word at a time with an overlapping last word. Every length up to 20, plain and with a
    /// byte that needs an escape at each position, as string members and as field key, label and
    /// value, starting at every offset of a small buffer (so growth meets each case).
    @Test func everyShortLengthAndEscapePosition() {
        for n in 0...20 {
            var cases = [String(repeating: "x", count: n)]
            for at in 0..<n {
                for special in ["\"", "\\", "\n", "\u{1}"] {
                    var chars = Array(repeating: "y", count: n)
                    chars[at] = special
                    cases.append(chars.joined())
                }
            }
            for s in cases {
                for pad in 0..<9 {
                    let lead = String(repeating: "p", count: pad)
                    let json = Self.written({ $0.string("k", lead); $0.string("s", s)
                        $0.fields("f", [Field(FieldName(s), FieldName(s), FieldValue(s))]) }, capacity: 64)
                    let q = JSONText.quoted(s)
                    #expect(json == "{\"k\":\"\(lead)\",\"s\":\(q),\"f\":[{\"key\":\(q),\"label\":\(q),\"value\":\(q)}]}")
                }
            }
        }
    }

    /// Keys and labels, literal or made at run time, are escaped every time they need it and
    /// written the same every time the writer is reused.
    @Test func namesAreEscapedEveryTimeTheyNeedIt() {
        let fields = [Field("plain.key", "Label \"quoted\"", "v"), Field("tab\tkey", "Plain label", "w"),
                      Field(FieldName("text \"name\""), FieldName("plain text"), "x"),
                      Field(FieldName("made \"once\""), FieldName(String("made once")), "y"),
                      Field("plain.pair", "Plain pair", "z", range: 1..<2), Field("plain.pair", "Plain pair", "z2")]
        let once = Self.written { $0.fields("f", fields) }
        #expect(once.contains(#"{"key":"plain.key","label":"Label \"quoted\"","value":"v"}"#))
        #expect(once.contains(#"{"key":"tab\tkey","label":"Plain label","value":"w"}"#))
        #expect(once.contains(#"{"key":"text \"name\"","label":"plain text","value":"x"}"#))
        #expect(once.contains(#"{"key":"made \"once\"","label":"made once","value":"y"}"#))
        #expect(once.contains(#"{"key":"plain.pair","label":"Plain pair","value":"z","range":[1,2]},{"key":"plain.pair","label":"Plain pair","value":"z2"}"#))
        #expect(FieldName(String("made once")) == "made once")
        #expect(FieldName(String()) == "")
        var w = JSONWriter(capacity: 64)
        for _ in 0..<3 {
            w.reset()
            w.beginObject()
            w.fields("f", fields)
            w.endObject()
            #expect(String(decoding: w.out, as: UTF8.self) == once)
        }
    }

    /// Field ranges under 100 are written in place, others through the general path.
    @Test func fieldRangesAtTheDigitEdges() {
        for (a, b) in [(0, 0), (0, 1), (9, 10), (10, 99), (99, 100), (100, 1_000), (-1, 5), (5, 12_345)] {
            let json = Self.written { $0.fields("f", [Field("k", "K", "v", range: a..<b)]) }
            #expect(json == "{\"f\":[{\"key\":\"k\",\"label\":\"K\",\"value\":\"v\",\"range\":[\(a),\(b)]}]}")
        }
    }

    @Test func everyControlCharacterIsEscaped() throws {
        let s = String(decoding: (0..<0x20).map { UInt8($0) } + [0x22, 0x5C], as: UTF8.self)
        let json = Self.written { $0.string("k", s) }
        #expect(!json.utf8.contains { $0 < 0x20 })
        let back = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(back?["k"] == s)
    }

    @Test func integersAndArrays() {
        let values = [0, 9, 10, -1, -10, 1_234_567, Int.max, Int.min]
        for v in values { #expect(Self.written { $0.int("n", v) } == "{\"n\":\(v)}") }
        // Digits are written two at a time: every length, odd and even, both edges of each.
        var edge = 1
        for _ in 0..<19 {
            let next = edge.multipliedReportingOverflow(by: 10)
            for v in [edge - 1, edge, edge + 1, -edge, next.overflow ? Int.max : next.partialValue - 1] {
                #expect(Self.written { $0.int("n", v) } == "{\"n\":\(v)}")
            }
            edge = next.overflow ? edge : next.partialValue
        }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<1_000 {
            let v = Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64)
            #expect(Self.written { $0.int("n", v) } == "{\"n\":\(v)}")
        }
        #expect(Self.written { $0.intArray("a", values) } == "{\"a\":[\(values.map(String.init).joined(separator: ","))]}")
        #expect(Self.written { $0.intArray("a", []); $0.bool("t", true); $0.bool("f", false) } == "{\"a\":[],\"t\":true,\"f\":false}")
        #expect(Self.written { $0.decimal("t", 171, 5) } == "{\"t\":171.5}")
        #expect(Self.written { $0.hex("b", [0x00, 0xA2, 0xFF]) } == "{\"b\":\"00A2FF\"}")
        #expect(Self.written { $0.stringArray("s", ["x", "\"y\""]) } == "{\"s\":[\"x\",\"\\\"y\\\"\"]}")
    }

    @Test func growsPastItsCapacityAndResets() throws {
        let long = String(repeating: "0123456789\"", count: 10_000)
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.string("v", long)
        w.fields("f", [Field("a.b", "A", "x", range: 1..<3, children: [Field("a.c", "C", long)])])
        w.diagnostics([Diagnostic(.warning, "w", range: 0..<1)])
        w.endObject()
        let object = try JSONSerialization.jsonObject(with: Data(w.out)) as? [String: Any]
        #expect(object?["v"] as? String == long)
        let field = (object?["f"] as? [[String: Any]])?.first
        #expect(field?["range"] as? [Int] == [1, 3])
        #expect(((field?["children"] as? [[String: Any]])?.first?["value"]) as? String == long)
        #expect(((object?["diagnostics"] as? [[String: Any]])?.first?["severity"]) as? String == "warning")
        w.reset()
        w.beginObject()
        w.endObject()
        #expect(w.out == Array("{}".utf8))
    }
}
