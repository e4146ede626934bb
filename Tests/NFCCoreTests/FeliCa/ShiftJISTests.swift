import Testing
@testable import NFCCore

/// Byte sequences produced by Python's `shift_jis` codec (JIS X 0208 mapping).
@Suite struct ShiftJISTests {
    @Test(arguments: [
        ("53 32 30 32 35 41 30 30 31", "S2025A001"),
        ("B6 DE B8 BE B2", "ｶﾞｸｾｲ"),
        ("82 51 82 4F 82 51 82 54", "２０２５"),
        ("82 AA 82 AD 82 B9 82 A2", "がくせい"),
        ("83 4B 83 4E 83 5A 83 43", "ガクセイ"),
        ("83 94 83 96", "ヴヶ"),
        ("83 9F 83 B6 83 BF 83 D6", "ΑΩαω"),
        ("84 46 84 47 84 91 84 76", "ЁЖяё"),
        ("81 40 81 75 83 65 83 58 83 67 81 76", "　「テスト」"),
        ("82 60 82 9A", "Ａｚ"),
    ])
    func coveredTextDecodes(hex: String, text: String) {
        #expect(ShiftJIS.decode(Hex.parse(hex)!) == text)
    }

    @Test(arguments: [
        "8A 77 90 B6",   // 学生: kanji are not covered
        "41 0A 42",      // control byte
        "41 82",         // lead byte without trail
        "82 7F",         // 7F is never a trail byte
        "84 A0",         // row 8 (box drawing) is not covered
        "81 AD",         // unassigned cell in row 2
        "FA 40",         // IBM extension
        "80",            // not a Shift_JIS byte
    ])
    func uncoveredTextIsRefused(hex: String) {
        #expect(ShiftJIS.decode(Hex.parse(hex)!) == nil)
    }

    @Test func blockTextDropsPaddingAndNeedsTwoCharacters() {
        let block = Hex.parse("32 30 32 35 30 34 31 35 30 37 00 00 00 00 00 00")!
        #expect(ShiftJIS.text(inBlock: block) == "2025041507")
        #expect(ShiftJIS.text(inBlock: Hex.parse("B6 DE B8 BE B2 20 20 20 20 20 20 20 20 20 20 20")!) == "ｶﾞｸｾｲ")
        #expect(ShiftJIS.text(inBlock: [UInt8](repeating: 0, count: 16)) == nil)
        #expect(ShiftJIS.text(inBlock: [0x41] + [UInt8](repeating: 0, count: 15)) == nil)
        #expect(ShiftJIS.text(inBlock: Hex.parse("16 01 00 02 32 8F E3 0A E3 14 E8 03 00 00 2A 00")!) == nil, "a history record is not text")
    }

    @Test func rowAndCellArithmetic() {
        #expect(ShiftJIS.rowCell(0x81, 0x40)! == (1, 1))
        #expect(ShiftJIS.rowCell(0x81, 0x9F)! == (2, 1))
        #expect(ShiftJIS.rowCell(0x81, 0x80)! == (1, 64))
        #expect(ShiftJIS.rowCell(0xE0, 0x40)! == (63, 1))
        #expect(ShiftJIS.symbols.count == 188)
    }
}
