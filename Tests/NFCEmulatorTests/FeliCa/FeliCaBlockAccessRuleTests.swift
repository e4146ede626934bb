import Testing
import NFCCore
@testable import NFCEmulator

/// One test per Read/Write Without Encryption rule of a FeliCa Standard card (protocols.md
/// §5.3–§5.6; choices for §9 #12–#14 in FeliCaStandardAccess and docs/felica.md). The test card
/// (`standardCard`) has random, cyclic and purse services with and without key.
@Suite struct FeliCaBlockAccessRuleTests {
    let zero = [UInt8](repeating: 0, count: 16)

    // §5.3: blocks come back in block-list order, each from the service its element names;
    // 2- and 3-byte elements (§5.5) alike.
    @Test func readReturnsTheBlocksInListOrder() {
        let r = standardCard()
        let answer = r.read([0x1C0F, 0x1A8B], [el(1, 1), el(2, 0), FeliCaBlockListElement(serviceOrder: 1, blockNumber: 0, form: .threeByte)])
        #expect(r.blocks(answer) == [block("NAME"), block("R2"), block("2024A1234")])
    }

    // §5.5/§5.6: no or more than 16 services → FF A1 (§9 #14: 16 as Sony and PM3; T3T needs 15).
    @Test func readWithNoOrMoreThan16ServicesIsFFA1() {
        let r = standardCard()
        #expect(r.status(r.read([], [el(0)])) == sf(0xFF, 0xA1))
        #expect(r.status(r.read([UInt16](repeating: 0x1A8B, count: 17), [el(0)])) == sf(0xFF, 0xA1))
        #expect(r.status(r.read([UInt16](repeating: 0x1A8B, count: 16), [el(0, 15)])) == .success)
    }

    // No or more than 15 blocks → FF A2 (Sony; §9 #13: nfcpy's emulator also uses A2 for a missing block).
    @Test func readWithNoOrMoreThan15BlocksIsFFA2() {
        let r = standardCard()
        #expect(r.status(r.read([0x1A8B], [])) == sf(0xFF, 0xA2))
        #expect(r.status(r.read([0x1A8B], [FeliCaBlockListElement]((0..<16).map { _ in el(0) }))) == sf(0xFF, 0xA2))
        #expect(r.blocks(r.read([0x1A8B], [FeliCaBlockListElement]((0..<15).map { _ in el(1) })))?.count == 15)
    }

    // An element naming a service beyond the service list → A3, SF1 = its number in the list (Sony).
    @Test func anElementBeyondTheServiceListIsA3() {
        let r = standardCard()
        #expect(r.status(r.read([0x1A8B], [el(0), el(0, 1)])) == sf(0x02, 0xA3))
    }

    // Access mode other than 000 → A7; 001 (cash-back) only on a purse cash-back service.
    @Test func anUndefinedAccessModeIsA7() {
        let r = standardCard()
        #expect(r.status(r.read([0x1A8B], [el(0, mode: 2)])) == sf(0x01, 0xA7))
        #expect(r.status(r.read([0x1A8B], [el(0), el(0, mode: 1)])) == sf(0x02, 0xA7))
        #expect(r.status(r.read([0x1D13], [el(0, mode: 1)])) == .success, "mode 001 on the purse cash-back service 1D13")
    }

    // §9 #13 (DISAGREE): a service the system lacks → element + A6 (Sony, PM3), not nfcpy's FF A1.
    @Test func aServiceTheSystemLacksIsA6AtItsElement() {
        let r = standardCard()
        #expect(r.status(r.read([0x1A8B, 0x090F], [el(0), el(1), el(0, 1)])) == sf(0x03, 0xA6), "element 3 names 090F")
    }

    // A service with a key (even attribute) cannot be accessed without encryption → A5
    // ("Area or Service … cannot be accessed", Sony).
    @Test func aServiceWithKeyIsA5() {
        let r = standardCard()
        #expect(r.status(r.read([0x1B08], [el(0)])) == sf(0x01, 0xA5))
        #expect(r.status(r.write([0x1B08], [el(0)], zero)) == sf(0x01, 0xA5))
    }

    // A block number beyond the service's blocks → A8 (Sony, PM3; felica-errors `01 A8`).
    @Test func aBlockBeyondTheServiceIsA8() {
        let r = standardCard()
        #expect(r.status(r.read([0x1A8B], [el(0), el(1), el(2)])) == sf(0x03, 0xA8))
        #expect(r.status(r.read([0x1A8B], [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0x0100)])) == sf(0x01, 0xA8))
    }

    // §5.4: overlap services (same number, other attribute) reach the same blocks.
    @Test func overlapServicesShareTheirBlocks() {
        let r = standardCard()
        #expect(r.status(r.write([0x1A89], [el(1)], block("WRITTEN"))) == .success)
        #expect(r.blocks(r.read([0x1A8B], [el(1)])) == [block("WRITTEN")])
    }

    // Writing through a read-only service (random/cyclic/purse read-only) → A4: the service's
    // attribute does not allow the command.
    @Test func aWriteThroughAReadOnlyServiceIsA4() {
        let r = standardCard()
        #expect(r.status(r.write([0x1A8B], [el(0)], zero)) == sf(0x01, 0xA4))
        #expect(r.status(r.write([0x1C0F], [el(0)], zero)) == sf(0x01, 0xA4))
        #expect(r.status(r.write([0x1D17], [el(0)], zero)) == sf(0x01, 0xA4))
        #expect(r.blocks(r.read([0x1A8B], [el(0)])) == [block("2024A1234")])
    }

    // The command is checked whole before anything is written: a refusal at element 2 leaves
    // element 1's block as it was.
    @Test func aRefusedWriteChangesNothing() {
        let r = standardCard()
        #expect(r.status(r.write([0x1A89], [el(0), el(7)], block("NEW") + block("NEW"))) == sf(0x02, 0xA8))
        #expect(r.blocks(r.read([0x1A8B], [el(0)])) == [block("2024A1234")])
    }

    // Cyclic service: a write adds the newest record as block 0; the others move up and the
    // oldest drops out.
    @Test func aCyclicWritePushesTheRing() {
        let r = standardCard()
        #expect(r.status(r.write([0x1C0D], [el(0)], block("R-NEW"))) == .success)
        #expect(r.blocks(r.read([0x1C0F], [el(0), el(1), el(2)])) == [block("R-NEW"), block("R0"), block("R1")])
    }

    // A cyclic write names block 0, the record being added; other numbers → A8.
    @Test func aCyclicWriteNamesBlock0() {
        let r = standardCard()
        #expect(r.status(r.write([0x1C0D], [el(1)], zero)) == sf(0x01, 0xA8))
    }

    // Two writes to one cyclic service in one command → AF ("too many simultaneous cyclic writes").
    @Test func twoCyclicWritesInOneCommandAreAF() {
        let r = standardCard()
        #expect(r.status(r.write([0x1C0D], [el(0), el(0)], zero + zero)) == sf(0x02, 0xAF))
        #expect(r.blocks(r.read([0x1C0F], [el(0)])) == [block("R0")])
    }

    // Purse direct: the block is written as sent.
    @Test func aPurseDirectWriteReplacesTheBlock() {
        let r = standardCard()
        #expect(r.status(r.write([0x1D11], [el(0)], FeliCaPurseBlock(value: 5000).bytes)) == .success)
        #expect(r.blocks(r.read([0x1D17], [el(0)])) == [FeliCaPurseBlock(value: 5000).bytes])
    }

    // Purse cash-back adds bytes 0–3 of the written block, decrement subtracts them; both take
    // the execution ID (bytes 14–15) written (Sony manual Figure 3-17).
    @Test func purseCashbackAddsAndDecrementSubtracts() {
        let r = standardCard()
        #expect(r.status(r.write([0x1D13], [el(0)], FeliCaPurseBlock(value: 250, executionID: [0, 1]).bytes)) == .success)
        #expect(r.status(r.write([0x1D15], [el(0)], FeliCaPurseBlock(value: 50, executionID: [0, 2]).bytes)) == .success)
        #expect(r.blocks(r.read([0x1D17], [el(0)])) == [FeliCaPurseBlock(value: 1200, executionID: [0, 2]).bytes])
    }

    // A decrement below zero or a cash-back beyond FFFFFFFF → SF2 01 (purse under/overflow), nothing changes.
    @Test func purseUnderOrOverflowIs01() {
        let r = standardCard()
        #expect(r.status(r.write([0x1D15], [el(0)], FeliCaPurseBlock(value: 1001).bytes)) == sf(0x01, 0x01))
        #expect(r.status(r.write([0x1D13], [el(0)], FeliCaPurseBlock(value: UInt32.max).bytes)) == sf(0x01, 0x01))
        #expect(r.status(r.write([0x1D15, 0x1D15], [el(0), el(0, 1)], FeliCaPurseBlock(value: 600).bytes + FeliCaPurseBlock(value: 600).bytes)) == sf(0x02, 0x01),
                "the second decrement would go below zero")
        #expect(r.blocks(r.read([0x1D17], [el(0)])) == [FeliCaPurseBlock(value: 1000).bytes])
    }

    // Writes land in the system they were made in and survive in `savedDump()`.
    @Test func writesAreInTheSavedDump() throws {
        let r = standardCard()
        #expect(r.status(r.write([0x1A89], [el(1)], block("SAVED"))) == .success)
        let saved = try #require(r.card.savedDump())
        let again = try TagDump.load(saved, name: "saved.nfc")
        let card = FeliCaReader(try #require(again.content as? FeliCaDump))
        #expect(card.blocks(card.read([0x1A8B], [el(1)])) == [block("SAVED")])
        #expect(card.blocks(card.read([0x1C0F], [el(0), el(1), el(2)])) == [block("R0"), block("R1"), block("R2")])
        #expect(card.send(.requestService(idm: card.idm, nodes: [FeliCaServiceCode(0x1B08)])) == .requestService(idm: card.idm, keyVersions: [0x0003]))
    }
}
