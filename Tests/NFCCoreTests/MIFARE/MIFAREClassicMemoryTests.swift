import Testing
@testable import NFCCore

/// Trailers, value blocks, the MAD and NDEF of a Classic card against protocols-wave2.md
/// §1.4–1.6 (the examples there were computed from the NXP tables and AN10787).
@Suite struct MIFAREClassicMemoryTests {
    @Test func accessBitsOfTheSheetsExamples() {
        for (bytes, data, trailer) in [([0xFF, 0x07, 0x80], 0b000, 0b001), ([0x78, 0x77, 0x88], 0b100, 0b011), ([0x7F, 0x07, 0x88], 0b000, 0b011),
                                       ([0x07, 0x8F, 0x0F], 0b010, 0b110), ([0x08, 0x77, 0x8F], 0b110, 0b011)] as [([UInt8], UInt8, UInt8)] {
            let a = MIFAREClassicAccessBits(bytes)
            #expect(a.isConsistent && a.inconsistency == nil, "\(Hex.string(bytes))")
            #expect((0..<3).allSatisfy { a.condition($0) == data } && a.condition(3) == trailer, "\(Hex.string(bytes))")
        }
        #expect(MIFAREClassicAccessBits.dataBlockRights(0b110).contains("value block"))
        #expect(MIFAREClassicAccessBits.keyBReadable(0b001) && !MIFAREClassicAccessBits.keyBReadable(0b011))
    }

    @Test func theByteThatBreaksTheAccessBitsIsNamed() {
        #expect(MIFAREClassicAccessBits([0xFE, 0x07, 0x80]).inconsistency?.hasPrefix("C1:") == true)   // one nibble of byte 6 broken
        #expect(MIFAREClassicAccessBits([0x00, 0x07, 0x80]).inconsistency?.hasPrefix("byte 6") == true)
        #expect(MIFAREClassicAccessBits([0xFF, 0xF0, 0x80]).inconsistency?.hasPrefix("byte 7") == true)
        #expect(MIFAREClassicAccessBits([0xFF, 0x00, 0x80]).inconsistency?.hasPrefix("C3:") == true)
        #expect(MIFAREClassicAccessBits([0xFF, 0x07, 0x7F]).inconsistency?.hasPrefix("byte 8") == true)
    }

    @Test func valueBlocks() {
        let hundred: [UInt8] = [0x64, 0, 0, 0, 0x9B, 0xFF, 0xFF, 0xFF, 0x64, 0, 0, 0, 0x04, 0xFB, 0x04, 0xFB]
        #expect(MIFAREClassicValueBlock(hundred) == MIFAREClassicValueBlock(value: 100, address: 4))
        #expect(MIFAREClassicValueBlock(value: 100, address: 4).encode() == hundred)
        #expect(MIFAREClassicValueBlock(value: -1, address: 4).encode() == [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x04, 0xFB, 0x04, 0xFB])
        var broken = hundred
        broken[8] = 0x65
        #expect(MIFAREClassicValueBlock(broken) == nil)
        #expect(MIFAREClassicValueBlock([UInt8](repeating: 0, count: 16)) == nil)
    }

    @Test func madCRCAndDirectory() {
        #expect(CRC.mad(Array("123456789".utf8)) == 0x99)
        let ndef: [UInt8] = [0x01] + Array([[UInt8]](repeating: [0x03, 0xE1], count: 15).joined())
        #expect(CRC.mad(ndef) == 0x14)
        let sim: [UInt8] = [0x02, 0x00, 0x00, 0x01, 0x3D, 0x01, 0x3D] + [UInt8](repeating: 0, count: 24)
        #expect(CRC.mad(sim) == 0x1A)
        let mad = MIFAREApplicationDirectory([0x14] + ndef)
        #expect(mad?.crcIsValid == true && mad?.aids.count == 15 && mad?.aids.allSatisfy { $0 == MIFAREApplicationDirectory.ndefAID } == true)
        #expect(MIFAREApplicationDirectory([0x15] + ndef)?.crcIsValid == false)
    }

    @Test func ndefOverTheSectorsTheMADNames() {
        // Sector 1 holds an NDEF TLV with a URI record, and its terminator.
        let message: [UInt8] = [0xD1, 0x01, 0x08, 0x55, 0x04] + Array("nfc.dev".utf8)
        var data: [UInt8] = [0x03, UInt8(message.count)] + message + [0xFE]
        data += [UInt8](repeating: 0, count: 48 - data.count)
        let blocks = [4: Array(data[0..<16]), 5: Array(data[16..<32]), 6: Array(data[32..<48])]
        let area = MIFAREClassicNDEF.area(sectors: [1], blocks: blocks)
        #expect(area.ndef != nil && area.issues.isEmpty, "\(area.issues)")
        #expect(area.tlvs.first?.tag == .ndef)
        // Block 6 not read: the message still decodes (it ends in block 5), nothing is guessed.
        let partial = MIFAREClassicNDEF.area(sectors: [1], blocks: [4: blocks[4]!, 5: blocks[5]!])
        #expect(partial.ndef != nil)
    }
}
