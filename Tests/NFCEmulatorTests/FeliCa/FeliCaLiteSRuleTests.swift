import Testing
import NFCCore
@testable import NFCEmulator

/// One test per FeliCa Lite-S rule, without MAC (protocols.md §5.8, §5.9; status flags as
/// Flipper's Lite-S listener answers them, SF1 a bit mask — §9 #12).
@Suite struct FeliCaLiteSRuleTests {
    let zero = [UInt8](repeating: 0, count: 16)

    func liteS(_ configure: (inout FeliCaLiteSMemory) -> Void = { _ in }) -> FeliCaReader {
        guard case .liteS(var m) = FeliCaDump.liteS(pmm: FeliCaLiteSMemory.liteSPMm).memory else { return FeliCaReader(FeliCaDump.liteS()) }
        configure(&m)
        return FeliCaReader(.liteS(m))
    }

    func setMC(_ m: inout FeliCaLiteSMemory, _ change: (inout FeliCaLiteMemoryConfiguration) -> Void) {
        var mc = m.configuration
        change(&mc)
        m.setBlock(FeliCaLiteBlock.mc, mc.bytes)
    }

    // One system, SYS_C (88B4); MC's NDEF bit adds 12FC with the same IDm (nfcpy `format`;
    // EWTJ680H manual: a Lite-S answers RC 01 with 88 B4).
    @Test func pollingAnswersSYSCAnd12FCWhenNDEFIsOn() {
        let r = liteS()
        #expect(r.poll(0xFFFF, rc: 1) == .polling(idm: r.idm, pmm: FeliCaLiteSMemory.liteSPMm, requestData: 0x88B4))
        #expect(r.poll(0x12FC, rc: 1) == .polling(idm: r.idm, pmm: FeliCaLiteSMemory.liteSPMm, requestData: 0x12FC))
        #expect(r.poll(0x88B4) != nil && r.poll(0xFE00) == nil)
        let plain = liteS { m in setMC(&m) { $0.systemOptions = 0 } }
        #expect(plain.poll(0x12FC) == nil, "NDEF off: no answer for 12FC")
        #expect(plain.poll(0xFFFF, rc: 1) != nil)
    }

    // A Lite-S knows Polling and Read/Write Without Encryption only.
    @Test func standardCommandsAreNotAnswered() {
        let r = liteS()
        #expect(r.send(.requestService(idm: r.idm, nodes: [.ndefRead])) == nil)
        #expect(r.send(.requestResponse(idm: r.idm)) == nil)
        #expect(r.send(.requestSystemCode(idm: r.idm)) == nil)
        #expect(r.send(.searchServiceCode(idm: r.idm, index: 0)) == nil)
    }

    // §5.8: block 0 of 000B is the AIB, the NDEF message follows; 0009 reads the same blocks.
    @Test func readGivesTheAIBAndTheNDEFMessage() throws {
        let r = liteS()
        let blocks = try #require(r.blocks(r.read([0x000B], [el(0), el(1), el(2), el(3)])))
        let aib = try Type3AttributeInformationBlock.decode(blocks[0])
        #expect(aib.checksumIsValid && aib.nbr == 4 && aib.nbw == 1 && aib.nmaxb == 13 && aib.rwFlag == 1)
        let message = NDEFMessage.decode(Array(blocks.dropFirst().joined().prefix(Int(aib.ln))), mode: .strict)
        #expect(message.issues.isEmpty)
        #expect(r.blocks(r.read([0x0009], [el(1)])) == [blocks[1]])
    }

    // Exactly one service per command (Flipper: `service_num != 1` → FF A1).
    @Test func notExactlyOneServiceIsFFA1() {
        let r = liteS()
        #expect(r.status(r.read([], [el(0)])) == sf(0xFF, 0xA1))
        #expect(r.status(r.read([0x000B, 0x000B], [el(0)])) == sf(0xFF, 0xA1))
        #expect(r.status(r.write([0x0009, 0x0009], [el(0)], zero)) == sf(0xFF, 0xA1))
    }

    // Read: 1…4 blocks (Nbr 4); Write: 1 block, or 2 with MAC_A → otherwise FF A2.
    @Test func blockCountsOutsideTheLimitsAreFFA2() {
        let r = liteS()
        #expect(r.status(r.read([0x000B], [el(0), el(1), el(2), el(3), el(4)])) == sf(0xFF, 0xA2))
        #expect(r.status(r.read([0x000B], [])) == sf(0xFF, 0xA2))
        #expect(r.status(r.write([0x0009], [el(1), el(2), el(3)], zero + zero + zero)) == sf(0xFF, 0xA2))
    }

    // Services other than 000B/0009 → 01 A6; Write only through 0009.
    @Test func otherServicesAre01A6() {
        let r = liteS()
        #expect(r.status(r.read([0x1A8B], [el(0)])) == sf(0x01, 0xA6))
        #expect(r.status(r.write([0x000B], [el(1)], zero)) == sf(0x01, 0xA6))
    }

    // SF1 is a bit mask, 1 << element (§9 #12): the third element → 04.
    @Test func theFailingElementIsABitMask() {
        let r = liteS()
        #expect(r.status(r.read([0x000B], [el(0), el(1), el(0x0F)])) == sf(0x04, 0xA8), "0F is no Lite-S block")
        #expect(r.status(r.read([0x000B], [el(0), el(1, 1)])) == sf(0x02, 0xA3))
        #expect(r.status(r.read([0x000B], [el(0), el(1), el(2), el(3, mode: 1)])) == sf(0x08, 0xA7))
    }

    // Reading a read-only block through the read/write service 0009 → A8 (Flipper).
    @Test func readOnlyBlocksReadThroughTheWriteServiceAreA8() {
        let r = liteS()
        #expect(r.status(r.read([0x0009], [el(FeliCaLiteBlock.dID)])) == sf(0x01, 0xA8))
        #expect(r.blocks(r.read([0x000B], [el(FeliCaLiteBlock.dID)])) == [r.idm.bytes + FeliCaLiteSMemory.liteSPMm.bytes])
    }

    // MC bytes 6–7: "read after authentication" → B1 (nfcpy `01B1` …); no MAC here, so always.
    @Test func aReadRestrictedBlockIsB1() {
        let r = liteS { m in setMC(&m) { $0.readNeedsAuthentication = 0x0004 } }
        #expect(r.status(r.read([0x000B], [el(1), el(2)])) == sf(0x02, 0xB1))
        #expect(r.status(r.read([0x000B], [el(1)])) == .success)
    }

    // RC and CK are write-only: they read as zeros (§5.9).
    @Test func rcAndCKReadAsZeros() {
        let r = liteS { m in m.setBlock(FeliCaLiteBlock.ck, [UInt8](repeating: 0x77, count: 16)) }
        #expect(r.status(r.write([0x0009], [el(FeliCaLiteBlock.rc)], [UInt8](repeating: 0x55, count: 16))) == .success)
        #expect(r.blocks(r.read([0x000B], [el(FeliCaLiteBlock.rc), el(FeliCaLiteBlock.ck)])) == [zero, zero])
    }

    // MAC and MAC_A need the MAC computation this emulator does not do → B2.
    @Test func macBlocksAreRefusedWithB2() {
        let r = liteS()
        #expect(r.status(r.read([0x000B], [el(0), el(FeliCaLiteBlock.mac)])) == sf(0x02, 0xB2))
        #expect(r.status(r.read([0x000B], [el(FeliCaLiteBlock.macA)])) == sf(0x01, 0xB2))
        #expect(r.status(r.write([0x0009], [el(1), el(FeliCaLiteBlock.macA)], zero + zero)) == sf(0x02, 0xB2))
        #expect(r.status(r.write([0x0009], [el(1), el(2)], zero + zero)) == sf(0x02, 0xA8), "the second block may only be MAC_A")
    }

    // S_PAD with its MC RW bit clear → 01 A8; the block keeps its data.
    @Test func aLockedUserBlockIs01A8() {
        let r = liteS { m in setMC(&m) { $0.writableBlocks = 0xFFFD } }
        #expect(r.status(r.write([0x0009], [el(1)], zero)) == sf(0x01, 0xA8))
        #expect(r.blocks(r.read([0x000B], [el(1)])) != [zero])
        #expect(r.status(r.write([0x0009], [el(2)], zero)) == .success)
    }

    // MC[2] = 00 freezes ID, SER_C, SYS_C, CKV and CK; FF leaves them writable.
    @Test func systemBlocksAreWritableOnlyWhileMC2IsFF() {
        let open = liteS()
        #expect(open.status(open.write([0x0009], [el(FeliCaLiteBlock.serC)], [0x0B, 0x00] + [UInt8](repeating: 0, count: 14))) == .success)
        let frozen = liteS { m in setMC(&m) { $0.systemBlocks = 0x00 } }
        for n in [FeliCaLiteBlock.id, FeliCaLiteBlock.serC, FeliCaLiteBlock.sysC, FeliCaLiteBlock.ckv, FeliCaLiteBlock.ck] {
            #expect(frozen.status(frozen.write([0x0009], [el(n)], zero)) == sf(0x01, 0xA8), "block \(Hex.value(n, digits: 2))")
        }
    }

    // MAC, D_ID, WCNT, CRC_CHECK are read-only; STATE only takes a MAC write (ext-auth) → 01 A8.
    @Test func readOnlyAndMACOnlyBlocksAre01A8() {
        let r = liteS()
        for n in [FeliCaLiteBlock.mac, FeliCaLiteBlock.dID, FeliCaLiteBlock.wcnt, FeliCaLiteBlock.crcCheck, FeliCaLiteBlock.state, FeliCaLiteBlock.macA] {
            #expect(r.status(r.write([0x0009], [el(n)], zero)) == sf(0x01, 0xA8), "block \(Hex.value(n, digits: 2))")
        }
        let mac = liteS { m in setMC(&m) { $0.writeNeedsMAC = 0x0002 } }
        #expect(mac.status(mac.write([0x0009], [el(1)], zero)) == sf(0x01, 0xA8), "MC bytes 10–11: S_PAD1 needs MAC_A")
    }

    // MC bytes 8–9: "write after authentication" → 01 B1.
    @Test func aWriteRestrictedBlockIs01B1() {
        let r = liteS { m in setMC(&m) { $0.writeNeedsAuthentication = 0x0008 } }
        #expect(r.status(r.write([0x0009], [el(3)], zero)) == sf(0x01, 0xB1))
    }

    // Every write counts in WCNT (bytes 0–2, little endian).
    @Test func everyWriteCountsInWCNT() throws {
        let r = liteS()
        for i in 0..<3 { #expect(r.status(r.write([0x0009], [el(UInt16(i + 1))], zero)) == .success) }
        let wcnt = try #require(r.blocks(r.read([0x000B], [el(FeliCaLiteBlock.wcnt)]))?.first)
        #expect(try FeliCaLiteWriteCounter.decode(wcnt).value == 3)
    }

    // With the system blocks frozen, a WCNT in 1028h…FFFDFEh answers SF 71 — the write is done (Flipper; §5.6).
    @Test func aHighWriteCountWarnsWith71() {
        let r = liteS { m in
            setMC(&m) { $0.systemBlocks = 0x00 }
            m.setBlock(FeliCaLiteBlock.wcnt, FeliCaLiteWriteCounter(0x2000).bytes)
        }
        #expect(r.status(r.write([0x0009], [el(1)], block("STILL"))) == sf(0xFF, 0x71))
        #expect(r.blocks(r.read([0x000B], [el(1)])) == [block("STILL")])
    }

    // REG: A and B only go down (Flipper).
    @Test func theSubtractionRegisterOnlyGoesDown() throws {
        let r = liteS()
        let lower = FeliCaLiteSubtractionRegister(a: 10, b: 20, c: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(r.status(r.write([0x0009], [el(FeliCaLiteBlock.reg)], lower.bytes)) == .success)
        #expect(r.status(r.write([0x0009], [el(FeliCaLiteBlock.reg)], FeliCaLiteSubtractionRegister(a: 11, b: 20, c: []).bytes)) == .success)
        #expect(r.blocks(r.read([0x000B], [el(FeliCaLiteBlock.reg)])) == [lower.bytes])
    }

    // ID: bytes 0–7 (IDd) stay, DFC and the rest change (Flipper `felica_handler_write_id_block`).
    @Test func anIDWriteKeepsIDd() {
        let r = liteS()
        #expect(r.status(r.write([0x0009], [el(FeliCaLiteBlock.id)], [UInt8](repeating: 0xAA, count: 16))) == .success)
        #expect(r.blocks(r.read([0x000B], [el(FeliCaLiteBlock.id)])) == [r.idm.bytes + [UInt8](repeating: 0xAA, count: 8)])
    }

    // An MC write takes effect at the next power-on (Flipper applies its MC shadow on reset).
    @Test func anMCWriteTakesEffectAfterThePowerCycle() {
        let r = liteS()
        var mc = FeliCaLiteMemoryConfiguration(systemOptions: 0x00)
        mc.writableBlocks = 0xFFDF   // locks S_PAD5
        #expect(r.status(r.write([0x0009], [el(FeliCaLiteBlock.mc)], mc.bytes)) == .success)
        #expect(r.poll(0x12FC) != nil && r.status(r.write([0x0009], [el(5)], zero)) == .success)
        r.card.fieldOff()
        r.card.fieldOn()
        #expect(r.poll(0x12FC) == nil, "NDEF off from now on")
        #expect(r.status(r.write([0x0009], [el(5)], zero)) == sf(0x01, 0xA8))
    }

    // nfcpy writes NDEF block by block through 0009; the saved dump keeps the new blocks.
    @Test func writesAreInTheSavedDump() throws {
        let r = liteS()
        #expect(r.status(r.write([0x0009], [el(4)], block("KEPT"))) == .success)
        let again = try TagDump.load(try #require(r.card.savedDump()), name: "saved.nfc")
        let card = FeliCaReader(try #require(again.content as? FeliCaDump))
        #expect(card.blocks(card.read([0x000B], [el(4)])) == [block("KEPT")])
        #expect(card.idm == r.idm && card.poll(0x12FC) != nil)
        #expect(again.notes.isEmpty, "\(again.notes)")
    }
}
