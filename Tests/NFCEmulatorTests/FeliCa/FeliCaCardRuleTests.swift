import Testing
import NFCCore
@testable import NFCEmulator

/// One test per rule of a FeliCa card's framing, Polling, system switching and the commands
/// around them (protocols.md §5.1–§5.3, §5.7). Read/Write rules: FeliCaBlockAccessRuleTests;
/// Lite-S: FeliCaLiteSRuleTests.
@Suite struct FeliCaCardRuleTests {
    let idm0 = FeliCaIDm(rawValue: 0x0101_120C_773E_9015)
    let idm1 = FeliCaIDm(rawValue: 0x1101_120C_773E_9015)

    func twoSystems() -> FeliCaReader { FeliCaReader(FeliCaDump.twoSystems()) }

    // MARK: frames (§5.1)

    // A card keeps silent on a frame whose CRC_F is wrong (NFC-DIG; PM3's simulator checks crc_ok).
    @Test func aWrongCRCIsNotAnswered() {
        let r = twoSystems()
        var bytes = CRC.appending(.felica, to: FeliCaCommand.requestResponse(idm: idm0).encode())
        #expect(r.card.respond(to: Frame(.data(.readerToTag), technology: .felica, bytes: bytes)) != nil)
        bytes[bytes.count - 1] ^= 0x5A
        #expect(r.card.respond(to: Frame(.data(.readerToTag), technology: .felica, bytes: bytes)) == nil)
    }

    // LEN counts itself and the payload, not CRC_F (§5.1): a LEN that says otherwise gets no answer.
    @Test func aLENThatDoesNotCountTheFrameIsNotAnswered() {
        let r = twoSystems()
        var payload = FeliCaCommand.requestResponse(idm: idm0).encode()
        payload[0] += 2   // counts the CRC, the mistake of felica-errors
        #expect(r.frame(payload) == nil)
        payload[0] -= 3
        #expect(r.frame(payload) == nil)
        #expect(r.frame([]) == nil && r.frame([0x01]) == nil)
    }

    // The answer carries CRC_F exactly when the request did (nfcpy's UDP frontend strips CRCs).
    @Test func theAnswerCarriesCRCLikeTheRequest() throws {
        let r = twoSystems()
        let command = FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 1, timeSlots: 0).encode()
        let stripped = try #require(r.frame(command, crc: false))
        #expect(stripped.crcStripped && stripped.bytes.first.map(Int.init) == stripped.bytes.count)
        let withCRC = try #require(r.frame(command))
        #expect(CRC.check(.felica, withCRC.bytes) == .ok && Array(withCRC.bytes.dropLast(2)) == stripped.bytes)
    }

    // A frame whose LEN is right but whose lists end early does not decode: no answer.
    @Test func aTruncatedCommandIsNotAnswered() {
        let r = twoSystems()
        var payload = FeliCaCommand.readWithoutEncryption(idm: idm0, services: [FeliCaServiceCode(0x100B)], blocks: [el(0), el(1)]).encode()
        payload.removeLast(2)
        payload[0] -= 2
        #expect(r.frame(payload) == nil)
    }

    @Test func cardFramesAndOtherTechnologiesAreIgnored() {
        let r = twoSystems()
        let polling = CRC.appending(.felica, to: FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 0, timeSlots: 0).encode())
        #expect(r.card.respond(to: Frame(.data(.tagToReader), technology: .felica, bytes: polling)) == nil)
        #expect(r.card.respond(to: Frame(.data(.readerToTag), technology: .iso14443a, bytes: polling)) == nil)
        #expect(r.card.respond(to: Frame(.fieldOn, technology: .felica)) == nil)
    }

    // MARK: Polling (§5.3 "Polling details")

    // FFFF selects the first system (nfcpy: "0xffff activates the very first system").
    @Test func pollingForAnySystemSelectsSystem0() {
        let r = twoSystems()
        #expect(r.poll(0xFFFF, rc: 1) == .polling(idm: idm0, pmm: FeliCaDump.standardPMm, requestData: 0x8E4B))
    }

    // FF in either byte of the request is a wildcard for that byte (nfcpy `polling`).
    @Test func pollingWildcardBytesMatchTheFirstFittingSystem() {
        let r = twoSystems()
        #expect(r.poll(0xFF00, rc: 1) == .polling(idm: idm1, pmm: FeliCaDump.standardPMm, requestData: 0xFE00))
        #expect(r.poll(0x8EFF, rc: 1) == .polling(idm: idm0, pmm: FeliCaDump.standardPMm, requestData: 0x8E4B))
        #expect(r.poll(0xFFFE) == nil, "no system code ends in FE")
    }

    // A Polling for a system the card lacks gets no answer (PM3 simulator, §5.3).
    @Test func pollingForAnotherSystemIsNotAnswered() {
        let r = twoSystems()
        #expect(r.poll(0x0003) == nil)
        #expect(r.poll(0x12FC, rc: 1) == nil)
    }

    // RC 00: no RD; 01: the system code (big endian); 02: communication performance; other
    // request codes are treated as 00 (NFC-DIG).
    @Test func requestCodesChooseTheRequestData() throws {
        let r = twoSystems()
        #expect(r.poll(0xFE00, rc: 0) == .polling(idm: idm1, pmm: FeliCaDump.standardPMm, requestData: nil))
        #expect(r.poll(0xFE00, rc: 2) == .polling(idm: idm1, pmm: FeliCaDump.standardPMm, requestData: 0x0083))
        #expect(r.poll(0xFE00, rc: 7) == .polling(idm: idm1, pmm: FeliCaDump.standardPMm, requestData: nil))
        let answer = try #require(r.frame(FeliCaCommand.polling(systemCode: 0xFE00, requestCode: 1, timeSlots: 0).encode(), crc: false))
        #expect(answer.bytes.suffix(2) == [0xFE, 0x00], "system code big endian (§5.7)")
    }

    // A card picks one of TSN + 1 slots; frames carry no timing, so the answer is the slot-0 one.
    @Test func everyTimeSlotCountGetsOneAnswer() {
        let r = twoSystems()
        for tsn: UInt8 in [0x00, 0x01, 0x03, 0x07, 0x0F] {
            #expect(r.poll(0xFFFF, tsn: tsn) == .polling(idm: idm0, pmm: FeliCaDump.standardPMm, requestData: nil))
        }
    }

    // §5.2: Polling for a code of system n switches to it; the card then answers only that IDm.
    @Test func pollingSwitchesTheSystemAndItsIDm() {
        let r = twoSystems()
        #expect(r.send(.requestResponse(idm: idm0)) == .requestResponse(idm: idm0, mode: 0), "system 0 after power-on")
        #expect(r.poll(0xFE00) != nil)
        #expect(r.send(.requestResponse(idm: idm0)) == nil, "the IDm of system 0 is stale now (felica-errors session 3)")
        #expect(r.send(.requestResponse(idm: idm1)) == .requestResponse(idm: idm1, mode: 0))
        #expect(r.poll(0x8E4B) != nil)
        #expect(r.send(.requestResponse(idm: idm0)) != nil && r.send(.requestResponse(idm: idm1)) == nil)
    }

    // Field loss resets the card: system 0 again.
    @Test func fieldOffReturnsToSystem0() {
        let r = twoSystems()
        _ = r.poll(0xFE00)
        r.card.fieldOff()
        r.card.fieldOn()
        #expect(r.send(.requestResponse(idm: idm0)) != nil)
    }

    @Test func commandsForAnotherCardAreNotAnswered() {
        let r = twoSystems()
        #expect(r.send(.requestResponse(idm: FeliCaIDm(rawValue: 0x012E_50A3_1C9D_470B))) == nil)
        #expect(r.read([0x100B], [el(0)], idm: FeliCaIDm(rawValue: 0x0101_120C_773E_9016)) == nil)
    }

    // MARK: Request Service, Request Response, Request System Code, Search Service Code (§5.3)

    // One key version per node, little endian; FFFF for a node the system lacks; node FFFF asks
    // for the system key version.
    @Test func requestServiceAnswersKeyVersionsAndFFFFForMissingNodes() {
        let r = standardCard()
        let nodes = [0x1A8B, 0x1B08, 0x0000, 0x090F, 0xFFFF].map { FeliCaServiceCode(UInt16($0)) }
        #expect(r.send(.requestService(idm: r.idm, nodes: nodes)) == .requestService(idm: r.idm, keyVersions: [0x0002, 0x0003, 0x0000, 0xFFFF, 0x0011]))
    }

    // 1…32 nodes (PM3's simulator); the answer has no status flags, so other counts get none.
    @Test func requestServiceTakesOneTo32Nodes() {
        let r = standardCard()
        #expect(r.send(.requestService(idm: r.idm, nodes: [])) == nil)
        #expect(r.send(.requestService(idm: r.idm, nodes: [FeliCaServiceCode](repeating: FeliCaServiceCode(0x1A8B), count: 33))) == nil)
        #expect(r.send(.requestService(idm: r.idm, nodes: [FeliCaServiceCode](repeating: FeliCaServiceCode(0x1A8B), count: 32))) != nil)
    }

    // Mode 0 after power-on and Polling; only authentication (not emulated) moves it.
    @Test func requestResponseAnswersMode0() {
        let r = standardCard()
        #expect(r.send(.requestResponse(idm: r.idm)) == .requestResponse(idm: r.idm, mode: 0))
    }

    // Every system code, big endian, in system number order (§5.7).
    @Test func requestSystemCodeListsEverySystem() throws {
        let r = twoSystems()
        #expect(r.send(.requestSystemCode(idm: idm0)) == .requestSystemCode(idm: idm0, systemCodes: [0x8E4B, 0xFE00]))
        let raw = try #require(r.frame(FeliCaCommand.requestSystemCode(idm: idm0).encode(), crc: false))
        #expect(raw.bytes.suffix(5) == [0x02, 0x8E, 0x4B, 0xFE, 0x00])
    }

    // Index → node: an area with its end code, a service alone, FF FF past the last (nfcpy).
    @Test func searchServiceCodeWalksAreasAndServices() {
        let r = standardCard()
        let idm = r.idm
        #expect(r.send(.searchServiceCode(idm: idm, index: 0)) == .searchServiceCode(idm: idm, result: .area(FeliCaServiceCode(0), end: FeliCaServiceCode(0xFFFE))))
        #expect(r.send(.searchServiceCode(idm: idm, index: 1)) == .searchServiceCode(idm: idm, result: .service(FeliCaServiceCode(0x1A8B))))
        #expect(r.send(.searchServiceCode(idm: idm, index: 9)) == .searchServiceCode(idm: idm, result: .service(FeliCaServiceCode(0x1D17))))
        #expect(r.send(.searchServiceCode(idm: idm, index: 10)) == .searchServiceCode(idm: idm, result: .end))
        #expect(r.send(.searchServiceCode(idm: idm, index: 0xFFFF)) == .searchServiceCode(idm: idm, result: .end))
    }

    // Codes this card model does not support get no answer: RC-S915/RC-S962-class cards lack the
    // newer FeliCa OS commands, and authentication is not emulated.
    @Test func unsupportedCommandsAreNotAnswered() {
        let r = standardCard()
        let idm = r.idm
        #expect(r.send(.requestSpecificationVersion(idm: idm, reserved: 0)) == nil)
        #expect(r.send(.resetMode(idm: idm, reserved: 0)) == nil)
        #expect(r.send(.getSystemStatus(idm: idm, reserved: 0)) == nil)
        #expect(r.send(.other(code: FeliCaCode(0x10), idm: idm, parameters: [0x01, 0x00, 0x00, 0x01, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 8))) == nil)
        #expect(r.frame([0x03, 0xF0, 0x00]) == nil, "Echo")
        #expect(r.frame([0x0A, 0x5A] + idm.bytes) == nil, "unknown code 5A")
    }
}
