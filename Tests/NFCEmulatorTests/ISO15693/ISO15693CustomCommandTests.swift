import Testing
import NFCCore
@testable import NFCEmulator

/// Custom commands (`A0…DF`, ISO/IEC 15693-3 10.5): the IC manufacturer code decides who answers;
/// the ICODE SLIX2 configuration answers the NXP commands it can answer honestly.
@Suite struct ISO15693CustomCommandTests {
    // Flipper iso15693_3_listener_handle_custom_request and ChameleonMini ISO15693PrepareFrame:
    // a custom command for another IC manufacturer is not for this VICC: silence.
    @Test func customCommandForAnotherManufacturerIsIgnored() throws {
        let (_, r) = try slix2Tag()
        #expect(r.send("22 B2 02 \(slix2OnAir)") == nil)
        #expect(r.send("02 BD 07") == nil)
    }

    // Table 7 error 01: a custom code the VICC does not know (Traces/iso15693-errors.nfctrace: D0 for NXP).
    @Test func unknownNXPCustomCommandIsError01() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 D0 04 \(slix2OnAir)") == [0x01, 0x01])
        #expect(r.answer("22 B3 04 \(slix2OnAir) 01 00 00 00 00") == [0x01, 0x01], "SET PASSWORD is not emulated")
    }

    // protocols.md §6.4: GET RANDOM NUMBER answers 2 bytes; the emulator's are repeatable by seed.
    @Test func getRandomNumberAnswersTwoBytes() throws {
        let (_, r) = try slix2Tag()
        let first = try #require(r.answer("02 B2 04"))
        #expect(first.count == 3 && first.first == 0x00)
        let (_, again) = try slix2Tag()
        #expect(again.answer("02 B2 04") == first, "same seed, same number")
        #expect(r.answer("02 B2 04") != first, "the next number differs")
    }

    // ICODE SLIX2 datasheet 9.5.3.20: READ SIGNATURE answers the 32-byte originality signature.
    @Test func readSignatureAnswersTheStoredSignature() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 BD 04 \(slix2OnAir)") == [0x00] + Array(0..<32))
    }

    // GET NXP SYSTEM INFORMATION (Flipper's layout): protection pointer and condition, lock bits
    // (b1 AFI, b2 EAS, b3 DSFID, b4 PPL), SLIX2 feature flags LSB first.
    @Test func getNXPSystemInformationReportsProtectionAndLocks() throws {
        let (_, r) = try slix2Tag {
            $0.icode?.protectionPointer = 0x20
            $0.icode?.protectionCondition = 0x02
            $0.icode?.easLocked = true
        }
        #expect(r.answer("22 28 \(slix2OnAir)") == [0x00])
        let answer = try #require(r.answer("22 AB 04 \(slix2OnAir)"))
        #expect(answer == [0x00, 0x20, 0x02, 0x03, 0x7F, 0x35, 0x00, 0x00])
        let info = try ISO15693NXPSystemInformation.decode(Array(answer.dropFirst()))
        #expect(info.lockBits & ISO15693NXPSystemInformation.afiLocked != 0 && info.featureFlags == 0x357F)
    }

    // A tag rebuilt from a trace answers READ SIGNATURE with the signature the trace showed.
    @Test func reconstructedSLIX2AnswersTheTracedSignature() throws {
        let traced = ISO15693Reconstruction(uid: ISO15693Dump.slix2UID, blockSize: 4, blockCount: 80, signature: Array(100..<132))
        let tag = try #require(ISO15693Dump(reconstruction: traced).makeTag() as? ISO15693Tag)
        #expect(tag.configuration.name == "ICODE SLIX2")
        #expect(VICCReader(tag: tag).answer("02 BD 04") == [0x00] + Array(100..<132))
    }

    // The NXP commands take no parameters: more bytes are a format error (02).
    @Test func nxpCommandsWithParametersAreFormatError02() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("02 BD 04 00") == [0x01, 0x02])
        #expect(r.answer("02 B2 04 00 00") == [0x01, 0x02])
    }

    // A VICC of another configuration knows no custom command of its own manufacturer (01).
    @Test func otherConfigurationsAnswer01ToTheirManufacturersCustomCommands() throws {
        let (_, r) = try vicc(.st25dv04k, uid: ISO15693Dump.st25dv04kUID)
        #expect(r.answer("02 B4 02") == [0x01, 0x01], "ST's Get Random Number is not emulated")
        #expect(r.send("02 B2 04") == nil, "an NXP command is not for an ST tag")
    }
}
