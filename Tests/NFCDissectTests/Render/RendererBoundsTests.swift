import Testing
import NFCCore
@testable import NFCDissect

/// The two renderers' buffers are raw memory for speed; what keeps them safe is that every write
/// first makes room (`JSONWriter.reserve`, `TextWriter.room`). These tests start each writer at
/// its smallest buffer and write every kind of piece in sizes that force it to grow, checking
/// after each piece that the bytes written still fit the buffer and read back as expected: a
/// piece that skipped making room fails here (as the count passing the capacity) even when the
/// overrun happens not to crash.
@Suite struct RendererBoundsTests {
    static let lengths = [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200, 4_097]

    @Test func jsonWriterNeverWritesPastItsBuffer() {
        var w = JSONWriter(capacity: 0)
        var expected = ""
        func check(_ w: JSONWriter, _ what: String) {
            #expect(w.count <= w.capacity, "\(what): \(w.count) bytes written into \(w.capacity)")
            #expect(String(decoding: w.out, as: UTF8.self) == expected, "\(what)")
        }
        w.beginObject(); expected += "{"
        for n in Self.lengths {
            let plain = String(repeating: "a", count: n)
            let quoted = String(repeating: "\"", count: n)
            w.string("s", plain); expected += (expected.hasSuffix("{") ? "" : ",") + "\"s\":\"\(plain)\""
            check(w, "plain string of \(n)")
            w.string("q", quoted); expected += ",\"q\":\(JSONText.quoted(quoted))"
            check(w, "escaped string of \(n)")
            let value = FieldValue.hex(Array(repeating: UInt8(0xAB), count: min(n, FieldValue.maxBytes)), prefix: plain, suffix: quoted)
            w.fields("f", [Field(FieldName(plain), FieldName(quoted), value, range: n..<(n * 1_000))])
            expected += ",\"f\":[{\"key\":\"\(plain)\",\"label\":\(JSONText.quoted(quoted)),\"value\":\(JSONText.quoted(value.text)),\"range\":[\(n),\(n * 1_000)]}]"
            check(w, "field of \(n)")
            w.hex("h", Array(repeating: 0x5A, count: n)); expected += ",\"h\":\"\(String(repeating: "5A", count: n))\""
            check(w, "hex of \(n)")
            w.intArray("i", Array(repeating: Int.min, count: n / 8)); expected += ",\"i\":[\((Array(repeating: String(Int.min), count: n / 8)).joined(separator: ","))]"
            check(w, "integers, \(n / 8)")
        }
        w.endObject(); expected += "}"
        check(w, "end")
    }

    @Test func textWriterNeverWritesPastItsBuffer() {
        var w = TextWriter(capacity: 0)
        var expected = ""
        for n in Self.lengths {
            let text = String(repeating: "é", count: n)
            w.write(text); expected += text
            #expect(w.count <= w.capacity && w.string == expected, "text of \(n)")
            w.hexBytes(Array(repeating: UInt8(0xC3), count: n)); expected += Hex.string(Array(repeating: UInt8(0xC3), count: n))
            #expect(w.count <= w.capacity && w.string == expected, "hex of \(n)")
            w.decimal(-n * 1_000_003); expected += String(-n * 1_000_003)
            w.hexValue(n, digits: n % 20); expected += n % 20 == 0 ? "" : Hex.value(n, digits: n % 20)
            #expect(w.count <= w.capacity && w.string == expected, "numbers of \(n)")
        }
        // A copy writes into a buffer of its own: the original keeps its text.
        var copy = w
        copy.write("more")
        #expect(w.string == expected && copy.string == expected + "more")
    }
}
