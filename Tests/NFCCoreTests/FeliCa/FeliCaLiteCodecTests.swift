import Testing
@testable import NFCCore

/// Lite-S system blocks (MC, REG, WCNT), purse blocks and SF1 locations: the layouts the FeliCa
/// emulator reads and writes through.
@Suite struct FeliCaLiteCodecTests {
    // protocols.md §5.9 / Flipper's example dump: MC `FF FF FF 00 FF 00 02 00 …`.
    @Test func memoryConfigurationFieldsOfFlippersExample() throws {
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0x00, 0xFF, 0x00, 0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        let mc = try FeliCaLiteMemoryConfiguration.decode(bytes)
        #expect(mc.bytes == bytes)
        #expect(mc.isWritable(0x00) && mc.isWritable(0x0D) && mc.isWritable(FeliCaLiteBlock.reg))
        #expect(!mc.isWritable(0x80), "system blocks are not in the RW bit map")
        #expect(mc.systemBlocksWritable && !mc.ndef)
        #expect(mc.readNeedsAuthentication(0x01) && !mc.readNeedsAuthentication(0x00), "MC[6] bit 1: S_PAD1 is read after authentication")
        #expect(mc.bitMapsChangeable)
    }

    @Test func memoryConfigurationNeedsSixteenBytes() {
        #expect(throws: DecodeError.self) { try FeliCaLiteMemoryConfiguration.decode([0xFF, 0xFF, 0xFF]) }
        #expect(throws: DecodeError.self) { try FeliCaLiteMemoryConfiguration.decode([UInt8](repeating: 0, count: 17)) }
    }

    // Sato CL6NX manual: a locked block and an "after authentication" bit cannot be undone.
    @Test func anMCWriteLocksButNeverUnlocks() {
        var mc = FeliCaLiteMemoryConfiguration(writableBlocks: 0xFFFE, systemOptions: 0x01)
        var new = FeliCaLiteMemoryConfiguration(writableBlocks: 0x7FF3, systemBlocks: 0x00, systemOptions: 0x00, readNeedsAuthentication: 0x0004)
        new.reserved = [1, 2, 3]
        mc = mc.applyingWrite(new)
        #expect(mc.writableBlocks == 0x7FF2, "AND: block 0 stays locked, blocks 2, 3 and bit 15 get locked")
        #expect(mc.readNeedsAuthentication == 0x0004)
        #expect(mc.systemBlocks == 0x00 && !mc.ndef, "bytes 2–5 replaced while the system blocks were writable")
        #expect(mc.reserved == [0, 0, 0])
        let frozen = mc.applyingWrite(FeliCaLiteMemoryConfiguration(writableBlocks: 0xFFFF, systemBlocks: 0xFF, systemOptions: 0x01))
        #expect(frozen == mc, "bit 15 clear and system blocks read-only: nothing changes any more")
    }

    // Flipper `felica_handler_write_reg_block`: A and B only go down; C follows only then.
    @Test func subtractionRegisterOnlyDecreases() throws {
        let reg = FeliCaLiteSubtractionRegister(a: 100, b: 50, c: [1, 1, 1, 1, 1, 1, 1, 1])
        #expect(try FeliCaLiteSubtractionRegister.decode(reg.bytes) == reg)
        #expect(reg.bytes.prefix(4) == [100, 0, 0, 0], "little endian")
        let down = reg.applyingWrite(FeliCaLiteSubtractionRegister(a: 90, b: 50, c: [2, 2, 2, 2, 2, 2, 2, 2]))
        #expect(down.a == 90 && down.b == 50 && down.c == [2, 2, 2, 2, 2, 2, 2, 2])
        let up = reg.applyingWrite(FeliCaLiteSubtractionRegister(a: 90, b: 51, c: [3, 3, 3, 3, 3, 3, 3, 3]))
        #expect(up.a == 90 && up.b == 50 && up.c == reg.c, "B would go up: B and C stay")
    }

    @Test func writeCounterIsThreeBytesLittleEndian() throws {
        #expect(try FeliCaLiteWriteCounter.decode([0x24, 0xFE, 0xFF, 0x00]).value == 0xFFFE24)
        #expect(FeliCaLiteWriteCounter(0x01_0203).bytes == [0x03, 0x02, 0x01])
        #expect(throws: DecodeError.self) { try FeliCaLiteWriteCounter.decode([0x01, 0x02]) }
    }

    // protocols.md §7.3: Flipper lists the 28 blocks 00…0E, 80…88, 90…92, A0.
    @Test func liteSBlockOrderIsFlippers() {
        let order = FeliCaLiteBlock.liteSBlocks
        #expect(order.count == 28)
        #expect(order.dropFirst(14).first == FeliCaLiteBlock.reg && order.dropFirst(23).first == FeliCaLiteBlock.mc)
        #expect(order.last == FeliCaLiteBlock.crcCheck)
        #expect(order.allSatisfy { FeliCaLiteBlock.name($0) != nil })
    }

    @Test func purseBlockValueIsLittleEndianWithExecutionIDAtTheEnd() throws {
        let p = FeliCaPurseBlock(value: 0x0102_0304, middle: [9, 9], executionID: [0xAB, 0xCD])
        #expect(p.bytes.count == 16)
        #expect(p.bytes.prefix(4) == [0x04, 0x03, 0x02, 0x01] && p.bytes.suffix(2) == [0xAB, 0xCD])
        #expect(try FeliCaPurseBlock.decode(p.bytes) == p)
        #expect(throws: DecodeError.self) { try FeliCaPurseBlock.decode([UInt8](repeating: 0, count: 15)) }
    }

    // protocols.md §9 #12: Sony numbers the element (1-based), Lite-S/nfcpy/PM3 set bit i % 8.
    @Test func statusFlagLocationConventions() {
        #expect(FeliCaStatusFlags.element(0, sf2: 0xA8, .listNumber) == FeliCaStatusFlags(sf1: 0x01, sf2: 0xA8))
        #expect(FeliCaStatusFlags.element(2, sf2: 0xA6, .listNumber) == FeliCaStatusFlags(sf1: 0x03, sf2: 0xA6))
        #expect(FeliCaStatusFlags.element(2, sf2: 0xB1, .bitMask) == FeliCaStatusFlags(sf1: 0x04, sf2: 0xB1))
        #expect(FeliCaStatusFlags.element(9, sf2: 0xB1, .bitMask) == FeliCaStatusFlags(sf1: 0x02, sf2: 0xB1), "bit 1 = 2nd or 10th element")
        #expect(FeliCaStatusFlags.command(sf2: 0xA1) == FeliCaStatusFlags(sf1: 0xFF, sf2: 0xA1))
        #expect(FeliCaStatusFlags.element(2, sf2: 0xA6, .listNumber).location == .listElement(number: 3, maskElements: [0, 1]))
    }
}
