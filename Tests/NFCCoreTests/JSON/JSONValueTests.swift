import Foundation
import Testing
import NFCCore

/// The one JSON reader (issue 17: the emulator's and the fuzzer's parsers were two), and the
/// one escaper it writes with.
@Suite struct JSONValueTests {
    @Test func parses() throws {
        let v = try JSONValue.parse(Array(#"{"a": [1, 2.5, "x\u0041\n"], "b": {"c": true, "d": null}}"#.utf8))
        #expect(v["a"] == .array([.number("1"), .number("2.5"), .string("xA\n")]))
        #expect(v["a"].map { if case .array(let items) = $0 { return items.compactMap(\.number) } else { return [] } } == [1, 2.5])
        #expect(v["b"]?["c"] == .bool(true) && v["b"]?["d"] == .null)
        #expect(throws: DecodeError.self) { try JSONValue.parse(Array(String(repeating: "[", count: 100).utf8)) }
        #expect(throws: DecodeError.self) { try JSONValue.parse(Array("{\"a\" 1}".utf8)) }
        #expect(throws: DecodeError.self) { try JSONValue.parse(Array("[1x]".utf8)) }
    }

    /// What is read is written back: member order, duplicate keys and the spelling of numbers
    /// kept (the fuzzer mutates dumps through this), strings escaped by JSONText.
    @Test func writesBackWhatItRead() throws {
        let text = #"{"b": 1e2, "a": [-0.50, true, null], "a": "q\"\\\n\u0001"}"#
        let v = try JSONValue.parse(Array(text.utf8))
        #expect(v.text == #"{"b": 1e2, "a": [-0.50, true, null], "a": "q\"\\\n\u0001"}"#)
        #expect(try JSONValue.parse(Array(v.text.utf8)) == v)
        var edited = v
        edited.set("a", .string("x"))
        edited.set("c", .number("7"))
        #expect(edited.text == #"{"b": 1e2, "a": [-0.50, true, null], "a": "x", "c": 7}"#)
    }

    @Test func everyByteIsEscapedOrKept() {
        for b in UInt8(0)...0x7F {
            let quoted = JSONText.quoted(String(UnicodeScalar(b)))
            var escaped: [UInt8] = []
            JSONText.escape(b) { escaped.append($0) }
            if b < 0x20 || b == 0x22 || b == 0x5C {
                #expect(JSONText.needsEscape(b) && escaped.first == 0x5C && quoted.count > 3, "byte \(b)")
                let decoded = try? JSONSerialization.jsonObject(with: Data(([0x22] + escaped + [0x22])), options: .fragmentsAllowed) as? String
                #expect(decoded == String(UnicodeScalar(b)), "byte \(b): \(String(decoding: escaped, as: UTF8.self))")
            } else {
                #expect(!JSONText.needsEscape(b) && escaped == [b] && quoted.count == 3, "byte \(b)")
            }
        }
    }
}
