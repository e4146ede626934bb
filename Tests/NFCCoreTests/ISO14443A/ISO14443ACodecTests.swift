import Testing
import PropertyBased
import NFCTestInputs
@testable import NFCCore

@Suite struct ISO14443ACodecTests {
    @Test func shortFrames() throws {
        #expect(try ISO14443ACommand.decode([0x26], lastByteBits: 7) == .reqa)
        #expect(try ISO14443ACommand.decode([0x52], lastByteBits: 7) == .wupa)
        #expect(try ISO14443ACommand.decode([0x35], lastByteBits: 7) == .shortFrame(0x35))
        #expect(ISO14443ACommand.reqa.encode() == ([0x26], 7))
        #expect(ISO14443ACommand.recognises([0x26], lastByteBits: 8), "captures without bit counts still show REQA")
        #expect(!ISO14443ACommand.recognises([0x30, 0x04], lastByteBits: 8))
    }

    @Test func selectAndAnticollisionRoundTrip() async {
        await propertyCheck(input: Gen.int(in: 1...3), Gen<UInt8>.value().array(of: 4)) { level, uid in
            let l = CascadeLevel(rawValue: level) ?? .one
            let select = ISO14443ACommand.select(level: l, uid: UIDLevelData(bytes: uid))
            #expect((try? ISO14443ACommand.decode(select.encode().bytes)) == select)
            let anticoll = ISO14443ACommand.anticollision(level: l, nvb: NVB(0x20), knownBits: [])
            #expect((try? ISO14443ACommand.decode(anticoll.encode().bytes)) == anticoll)
        }
    }

    @Test func crcPresenceFollowsTheCommand() {
        #expect(!ISO14443ACommand.carriesCRC([0x26], lastByteBits: 7))
        #expect(!ISO14443ACommand.carriesCRC([0x93, 0x20], lastByteBits: 8))
        #expect(ISO14443ACommand.carriesCRC([0x93, 0x70, 1, 2, 3, 4, 4, 0, 0], lastByteBits: 8))
        #expect(ISO14443ACommand.carriesCRC([0x50, 0x00, 0x57, 0xCD], lastByteBits: 8))
    }

    @Test func bccAndCascadeLevels() throws {
        let levels = try #require(UIDLevelData.levels(forUID: [0x04, 0xA2, 0x2C, 0x12, 0xDE, 0x5F, 0x80]))
        #expect(levels.count == 2)
        #expect(levels[0].bytes == [0x88, 0x04, 0xA2, 0x2C] && levels[0].bcc == 0x02)
        #expect(levels[1].bytes == [0x12, 0xDE, 0x5F, 0x80] && levels[1].bcc == 0x13)
        #expect(levels[0].hasCascadeTag && !levels[1].hasCascadeTag)
        #expect(!UIDLevelData(bytes: [1, 2, 3, 4], bcc: 0).bccIsValid)
        #expect(UIDLevelData.levels(forUID: [1, 2, 3]) == nil)
        #expect(UIDLevelData.levels(forUID: Array(0..<10).map(UInt8.init))?.count == 3)
    }

    @Test func nvb() {
        #expect(NVB(0x20).isValid && NVB(0x20).uidBitCount == 0)
        #expect(NVB(0x25).uidBitCount == 5)
        #expect(NVB(0x70).isSelect)
        #expect(!NVB(0x80).isValid && !NVB(0x18).isValid)
        #expect(throws: DecodeError(offset: 1, expected: "NVB 20…67", found: "0x80")) { try ISO14443ACommand.decode([0x93, 0x80]) }
    }

    @Test func atqaAndSak() throws {
        let atqa = try ATQA.decode([0x44, 0x00])
        #expect(atqa.value == 0x0044 && atqa.uidSize == .double && atqa.bitFrameIsValid && !atqa.rfuBitsSet)
        #expect(try ATQA.decode([0x04, 0x00]).uidSize == .single)
        #expect(try ATQA.decode([0x00, 0x0C]).isType1Tag)
        #expect(throws: DecodeError.self) { try ATQA.decode([0x44]) }
        #expect(SAK(0x04).uidIncomplete && !SAK(0x04).isType2Platform)
        #expect(SAK(0x00).isType2Platform)
        #expect(SAK(0x20).supportsISODEP)
        #expect(SAK(0x08).mifareClassicHint == "MIFARE Classic 1K")
    }

    @Test func atsFields() throws {
        let ats = try ATS.decode([0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(ats.fsci == 5 && ats.fsc == 64)
        #expect(ats.ta1 == 0x77 && ats.tb1 == 0x81 && ats.tc1 == 0x02)
        #expect(ats.fwi == 8 && ats.sfgi == 1)
        #expect(ats.historicalBytes == [0x80])
        #expect(ats.bitRatesTagToReader == [212, 424, 848])
        #expect(ats.encode() == [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(throws: DecodeError(offset: 0, expected: "TL equal to the ATS length 3", found: "5")) { try ATS.decode([0x05, 0x75, 0x77]) }
        #expect(throws: DecodeError.self) { try ATS.decode([0x03, 0x70, 0x77]) }
    }

    @Test func isoDEPBlocks() {
        #expect(ISODEPBlock(pcb: 0x02) == .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 0))
        #expect(ISODEPBlock(pcb: 0x13) == .i(chaining: true, cidFollows: false, nadFollows: false, blockNumber: 1))
        #expect(ISODEPBlock(pcb: 0xA3) == .r(nak: false, cidFollows: false, blockNumber: 1))
        #expect(ISODEPBlock(pcb: 0xB2) == .r(nak: true, cidFollows: false, blockNumber: 0))
        #expect(ISODEPBlock(pcb: 0xC2) == .s(kind: .deselect, cidFollows: false))
        #expect(ISODEPBlock(pcb: 0xF2) == .s(kind: .wtx, cidFollows: false))
        // PWD_AUTH's 1B is a well-formed I-block PCB: which is why only an ATS may switch a
        // dissector to ISO-DEP (the dissector tests check that 1B stays PWD_AUTH).
        #expect(ISODEPBlock(pcb: 0x1B) == .i(chaining: true, cidFollows: true, nadFollows: false, blockNumber: 1))
        #expect(ISODEPBlock(pcb: 0x30) == nil)
    }

    @Test func decodersSurviveRandomBytes() {
        var rng = TestSeed(0x1443_A001).generator
        for _ in 0..<50_000 {
            let n = Int.random(in: 0...24, using: &rng)
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let bits = UInt8.random(in: 1...8, using: &rng)
            _ = try? ISO14443ACommand.decode(bytes, lastByteBits: bits)
            _ = try? ATQA.decode(bytes)
            _ = try? SAK.decode(bytes)
            _ = try? ATS.decode(bytes)
            _ = try? Type2Command.decode(bytes)
            _ = try? Type2Command.decode(bytes, continuation: .compatibilityWriteData(page: 4))
            _ = try? Type2Command.decode(bytes, continuation: .sectorSelectSector)
            _ = try? Type2Version.decode(bytes)
            for c in [Type2Command.getVersion, .read(page: 0), .fastRead(start: 4, end: bytes.first ?? 0), .pwdAuth(password: [0, 0, 0, 0]),
                      .readCounter(counter: 2), .readSignature(address: 0), .authenticate(keyNumber: 0), .authenticateContinue([]), .vcsl(installationIdentifier: [], pcdCapabilities: []),
                      .write(page: 4, data: [0, 0, 0, 0]), .checkTearingEvent(counter: 0), .sectorSelectSector(sector: 0, rfu: [])] {
                _ = try? Type2Response.decode(bytes, lastByteBits: bits, answering: c)
            }
            if let b = bytes.first { _ = ISODEPBlock(pcb: b) }
            _ = Hex.parse(String(decoding: bytes, as: UTF8.self))
            _ = CRC.check(.a, bytes)
        }
    }
}
