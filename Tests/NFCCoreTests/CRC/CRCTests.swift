import Testing
@testable import NFCCore

@Suite struct CRCTests {
    // protocols.md §1.6 and §8: vectors from ISO/IEC 14443-3 Annex B and recomputed ones.
    @Test(arguments: [
        ("00 00", "A0 1E"), ("12 34", "26 CF"), ("50 00", "57 CD"), ("30 00", "02 A8"),
        ("60", "F8 32"), ("3C 00", "A2 01"), ("1B FF FF FF FF", "63 00"), ("E0 50", "BC A5"),
        ("3A 00 10", "41 40"), ("93 70 88 04 CF FF BC", "7F BB"),
    ])
    func crcA(input: String, expected: String) {
        #expect(CRC.bytes(.a, Hex.parse(input)!) == Hex.parse(expected)!)
    }

    @Test func crcBAndISO15693() {
        #expect(CRC.bytes(.b, [0x00, 0x00, 0x00]) == [0xCC, 0xC6])
        #expect(CRC.bytes(.b, [0x26, 0x01, 0x00]) == [0xF6, 0x0A])
    }

    @Test(arguments: [
        ("06 00 FF FF 00 00", "09 21"), ("06 00 FF FF 01 00", "3A 10"),
        ("06 00 12 FC 00 00", "ED 1D"), ("06 00 FF FF 01 03", "0A 73"),
    ])
    func crcF(input: String, expected: String) {
        #expect(CRC.bytes(.felica, Hex.parse(input)!) == Hex.parse(expected)!)
    }

    @Test func checkReportsExpectedValueOnMismatch() {
        #expect(CRC.check(.a, [0x50, 0x00, 0x57, 0xCD]) == .ok)
        #expect(CRC.check(.a, [0x50, 0x00, 0x57, 0xCE]) == .mismatch(expected: [0x57, 0xCD], found: [0x57, 0xCE]))
        #expect(CRC.check(.a, [0x50]) == .tooShort)
    }

    @Test func oddParity() {
        #expect(Parity.odd(0x00) == 1)
        #expect(Parity.odd(0x01) == 0)
        #expect(Parity.odd(0x26) == 0)   // three ones
        #expect(Parity.odd(0xFF) == 1)
    }
}
