import Testing
import NFCCore
@testable import NFCEmulator

/// Block commands: one test per rule of ISO/IEC 15693-3 (2009 clauses; error codes Table 7).
/// Test tags hold `n n n n` in block n.
@Suite struct ISO15693BlockTests {
    let generic = ISO15693TagConfiguration.generic(blockCount: 128, blockSize: 4)

    // 10.4.1: Read Single Block answers flags and the block, addressed or not.
    @Test func readSingleBlockAnswersTheBlock() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 20 \(slix2OnAir) 05") == [0x00, 0x05, 0x05, 0x05, 0x05])
        #expect(r.answer("02 20 4F") == [0x00, 0x4F, 0x4F, 0x4F, 0x4F])
    }

    // 7.3.1 Table 4 and 10.4.1: with the option flag the block security status (b1 = locked) comes first.
    @Test func optionFlagPutsTheSecurityStatusBeforeTheBlock() throws {
        let (_, r) = try slix2Tag { $0.setLocked(3) }
        #expect(r.answer("62 20 \(slix2OnAir) 03") == [0x00, 0x01, 0x03, 0x03, 0x03, 0x03])
        #expect(r.answer("62 20 \(slix2OnAir) 04") == [0x00, 0x00, 0x04, 0x04, 0x04, 0x04])
    }

    // 10.4.4: Read Multiple Blocks reads count + 1 blocks; with the option flag each after its status.
    @Test func readMultipleBlocksReadsCountPlusOneBlocks() throws {
        let (_, r) = try slix2Tag { $0.setLocked(3) }
        #expect(r.answer("22 23 \(slix2OnAir) 02 02") == Hex.parse("00 02020202 03030303 04040404"))
        #expect(r.answer("62 23 \(slix2OnAir) 02 01") == Hex.parse("00 00 02020202 01 03030303"))
    }

    // Table 7 error 10: a block past the last is not available, also when a range crosses the end.
    @Test func readPastTheLastBlockIsError10() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 20 \(slix2OnAir) 50") == [0x01, 0x10])
        #expect(r.answer("22 23 \(slix2OnAir) 4E 02") == [0x01, 0x10])
        #expect(r.answer("22 23 \(slix2OnAir) 4F 00") == [0x00, 0x4F, 0x4F, 0x4F, 0x4F])
        #expect(r.answer("22 2C \(slix2OnAir) 4F 01") == [0x01, 0x10])
    }

    // 10.4.2: Write Single Block stores the block and answers the flags byte alone.
    @Test func writeSingleBlockStoresTheBlock() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("22 21 \(slix2OnAir) 05 DE AD BE EF") == [0x00])
        #expect(tag.memory.block(5) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(r.answer("02 20 05") == [0x00, 0xDE, 0xAD, 0xBE, 0xEF])
    }

    // Table 7 error 02: write data that is not one block of the block size is a format error.
    @Test func writeOfTheWrongSizeIsFormatError02() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("22 21 \(slix2OnAir) 05 01 02 03") == [0x01, 0x02])
        #expect(r.answer("22 21 \(slix2OnAir) 05 01 02 03 04 05") == [0x01, 0x02])
        #expect(tag.memory.block(5) == [5, 5, 5, 5])
    }

    // 10.4.5: Write Multiple Blocks writes count + 1 blocks; the ICODE SLIX2 does not have it (01).
    @Test func writeMultipleBlocksWritesEveryBlock() throws {
        let (tag, r) = try vicc(generic)
        #expect(r.answer("22 24 \(slix2OnAir) 05 01 A1 A2 A3 A4 B1 B2 B3 B4") == [0x00])
        #expect(tag.memory.block(5) == [0xA1, 0xA2, 0xA3, 0xA4] && tag.memory.block(6) == [0xB1, 0xB2, 0xB3, 0xB4])
        let (_, slix2) = try slix2Tag()
        #expect(slix2.answer("22 24 \(slix2OnAir) 05 00 A1 A2 A3 A4") == [0x01, 0x01])
    }

    // Table 7: a refused Write Multiple Blocks (locked block 12, block past the end 10) writes nothing.
    @Test func aRefusedWriteMultipleBlocksWritesNothing() throws {
        let (tag, r) = try vicc(generic) { $0.setLocked(6) }
        #expect(r.answer("22 24 \(slix2OnAir) 05 02 A1A2A3A4 B1B2B3B4 C1C2C3C4") == [0x01, 0x12])
        #expect(tag.memory.block(5) == [5, 5, 5, 5] && tag.memory.block(7) == [7, 7, 7, 7])
        #expect(r.answer("22 24 \(slix2OnAir) 7F 01 A1A2A3A4 B1B2B3B4") == [0x01, 0x10])
        #expect(tag.memory.block(127) == [127, 127, 127, 127])
    }

    // 10.4.3 and Table 7: Lock Block is permanent; a locked block refuses writes (12) and a second
    // lock (11); the lock survives power-off (non-volatile).
    @Test func lockBlockIsPermanent() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("22 22 \(slix2OnAir) 07") == [0x00])
        #expect(r.answer("22 21 \(slix2OnAir) 07 01 02 03 04") == [0x01, 0x12])
        #expect(r.answer("22 22 \(slix2OnAir) 07") == [0x01, 0x11])
        #expect(r.answer("22 22 \(slix2OnAir) 50") == [0x01, 0x10])
        tag.fieldOff()
        tag.fieldOn()
        #expect(r.answer("62 20 \(slix2OnAir) 07") == [0x00, 0x01, 0x07, 0x07, 0x07, 0x07])
    }

    // 7.3.1 Table 4: a write-alike command with the option flag is answered after the reader's
    // EOF; the EOF is no frame, so the answer comes at once and says so. ST tags refuse the option (03).
    @Test func optionFlagOnWritesAnswersAfterTheEOFOrIsRefused() throws {
        let (tag, r) = try slix2Tag()
        let answer = try #require(r.send("62 21 \(slix2OnAir) 05 01 02 03 04"))
        #expect(Array(answer.bytes.dropLast(2)) == [0x00])
        #expect(answer.comment?.contains("EOF") == true)
        #expect(tag.memory.block(5) == [1, 2, 3, 4])
        #expect(r.send("22 21 \(slix2OnAir) 06 01 02 03 04")?.comment == nil)
        let (st, stReader) = try vicc(.st25dv04k)
        #expect(stReader.answer("62 21 \(slix2OnAir) 05 01 02 03 04") == [0x01, 0x03])
        #expect(st.memory.block(5) == [5, 5, 5, 5])
    }

    // Table 7 errors 13 and 14: a block whose EEPROM fails is not programmed, not locked.
    @Test func failingBlocksAnswer13And14() throws {
        let (tag, r) = try slix2Tag { $0.failingBlocks = [9] }
        #expect(r.answer("22 21 \(slix2OnAir) 09 01 02 03 04") == [0x01, 0x13])
        #expect(r.answer("22 22 \(slix2OnAir) 09") == [0x01, 0x14])
        #expect(tag.memory.block(9) == [9, 9, 9, 9] && !tag.memory.isLocked(9))
    }

    // 10.4.13: Get Multiple Block Security Status answers one status byte per block (01 = locked).
    @Test func getMultipleBlockSecurityStatusAnswersOneBytePerBlock() throws {
        let (_, r) = try slix2Tag { $0.setLocked(2); $0.setLocked(4) }
        #expect(r.answer("22 2C \(slix2OnAir) 01 04") == [0x00, 0x00, 0x01, 0x00, 0x01, 0x00])
    }

    // protocols.md §6.4: 30–34 and 3C take 2-byte block numbers and counts, LSB first; needed past
    // 256 blocks. Without them (80 blocks) they are not supported (01).
    @Test func extendedCommandsTakeTwoByteBlockNumbers() throws {
        let (tag, r) = try vicc(largeGeneric)
        #expect(r.answer("22 31 \(slix2OnAir) 00 04 11 22 33 44") == [0x00])
        #expect(tag.memory.block(0x400) == [0x11, 0x22, 0x33, 0x44])
        #expect(r.answer("22 30 \(slix2OnAir) 00 04") == [0x00, 0x11, 0x22, 0x33, 0x44])
        #expect(r.answer("22 33 \(slix2OnAir) FF 03 01 00") == Hex.parse("00 00000000 11223344"))
        #expect(r.answer("22 32 \(slix2OnAir) 00 04") == [0x00])
        #expect(r.answer("22 3C \(slix2OnAir) FF 03 01 00") == [0x00, 0x00, 0x01])
        #expect(r.answer("62 30 \(slix2OnAir) 00 04") == [0x00, 0x01, 0x11, 0x22, 0x33, 0x44])
        #expect(r.answer("22 30 \(slix2OnAir) 00 08") == [0x01, 0x10], "block 2048 of 0…2047")
        #expect(r.answer("22 34 \(slix2OnAir) FF 07 01 00 A1A2A3A4 B1B2B3B4") == [0x01, 0x10])
        let (_, slix2) = try slix2Tag()
        #expect(slix2.answer("22 30 \(slix2OnAir) 05 00") == [0x01, 0x01])
    }
}
