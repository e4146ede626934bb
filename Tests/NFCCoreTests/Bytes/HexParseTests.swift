import Testing
import NFCCore

/// `Hex.parse` (issue 24: a lone trailing nibble was taken as a byte) and `PrintableText`.
@Suite struct HexParseTests {
    @Test(arguments: [("04 A2 2C", [0x04, 0xA2, 0x2C]), ("04a22c", [0x04, 0xA2, 0x2C]), ("4 A2", [0x04, 0xA2]),
                      ("0x04 0xA2", [0x04, 0xA2]), ("04:A2-2C,01", [0x04, 0xA2, 0x2C, 0x01]), ("", [])] as [(String, [UInt8])])
    func parses(text: String, bytes: [UInt8]) {
        #expect(Hex.parse(text) == bytes)
    }

    @Test(arguments: ["04A22C5", "D1010", "04 A22 2C", "zz", "04 A2 G"])
    func oddRunsAndOtherTextAreRefused(text: String) {
        #expect(Hex.parse(text) == nil)
    }

    @Test func pairsOnlyRefusesLoneDigits() {
        #expect(Hex.parse("D1 01 0", pairsOnly: true) == nil)
        #expect(Hex.parse("4 A2", pairsOnly: true) == nil)
        #expect(Hex.parse("D1 01 00", pairsOnly: true) == [0xD1, 0x01, 0x00])
    }

    @Test func printableTextEscapesEveryControlCharacter() {
        let all = [UInt8](0...255)
        let text = PrintableText.escaped(all, limit: 256)
        #expect(text.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) })
        #expect(PrintableText.escaped(Array("\u{1B}[2J\\ok".utf8)) == "\\x1B[2J\\\\ok")
        #expect(PrintableText.escaped([UInt8](repeating: 0x41, count: 100), limit: 80) == String(repeating: "A", count: 80) + "… (20 more bytes)")
    }
}
