import Foundation
import Testing
import NFCCore
@testable import NFCDissect

/// Field values kept as bytes: their text, their equality with plain text, and what the JSON
/// writer makes of them (the same as of their text).
@Suite struct FieldValueTests {
    @Test func textOfEachShape() {
        #expect(FieldValue.hex([0x04, 0xA2, 0x2C]).text == "04 A2 2C")
        #expect(FieldValue.hex([0xEB, 0x68], suffix: " (correct)").text == "EB 68 (correct)")
        #expect(FieldValue.hex([0x00, 0x44], style: .plain).text == "0044")
        #expect(FieldValue.hex([0x1A, 0x8B], style: .prefixed, prefix: "code ").text == "code 0x1A8B")
        #expect(FieldValue.bigEndian(UInt16(0x0044)).text == "0044")
        #expect(FieldValue.bigEndian(UInt32(0x0102_0304), style: .spaced).text == "01 02 03 04")
        #expect(FieldValue.byte(0x93, suffix: ": x").text == "0x93: x")
        #expect(FieldValue.byte(0x03, note: "CC").text == "0x03 (CC)")
        #expect(FieldValue.named("READ", code: 0x30).text == "READ (0x30)")
        #expect(FieldValue.hex([UInt8]()).text == "")
        #expect(FieldValue("plain").text == "plain")
        // Eight bytes are kept as bytes; nine become text, with the same result.
        let eight: [UInt8] = [0, 4, 4, 2, 1, 0, 0x11, 3]
        #expect(FieldValue.hex(eight).text == Hex.string(eight))
        #expect(FieldValue.hex(eight + [0xFF], suffix: "!").text == Hex.string(eight + [0xFF]) + "!")
        #expect(FieldValue.hex(eight + [0xFF], style: .prefixed).text == "0x" + Hex.string(eight + [0xFF], separator: ""))
        #expect(FieldValue.hex(eight[2...]).text == Hex.string(eight[2...]))
    }

    @Test func equalWhenTheTextIs() {
        #expect(FieldValue.byte(0x02, suffix: " (correct)") == FieldValue("0x02 (correct)"))
        #expect(FieldValue.byte(0x02) != FieldValue.byte(0x03))
        #expect(Field("k", "L", .hex([1, 2])) == Field("k", "L", "01 02"))
        var f = Field("k", "L", .byte(1))
        #expect(f.value == "0x01")
        f.value = "changed"
        #expect(f.content == FieldValue("changed"))
    }

    @Test func writtenToJSONAsTheirText() throws {
        var rng = SplitMix64(seed: 11)
        let notes = ["", "x", " (correct)", "quote \" and \\ and \n", "→ µs", "0123456789abcdef"]
        for _ in 0..<2_000 {
            let n = Int(rng.next() % 11)
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let note = notes[Int(rng.next() % UInt64(notes.count))]
            let prefix = notes[Int(rng.next() % UInt64(notes.count))]
            let style = [FieldValue.HexStyle.spaced, .prefixed, .plain][Int(rng.next() % 3)]
            let values: [FieldValue] = [
                .hex(bytes, style: style, prefix: prefix, suffix: note),
                .byte(bytes.first ?? 0, note: note),
                .named(prefix, code: bytes.last ?? 0xFF),
            ]
            for v in values {
                let json = JSONWriterTests.written { $0.fields("f", [Field("k", "L", v, range: 0..<1)]) }
                let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
                let field = (object?["f"] as? [[String: Any]])?.first
                #expect(field?["value"] as? String == v.text, "\(v.text)")
            }
        }
    }
}
