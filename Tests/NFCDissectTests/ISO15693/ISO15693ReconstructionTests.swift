import Testing
import NFCCore
@testable import NFCDissect

/// The tag an ISO 15693 session reconstructs, for `emulate --from-trace` and replays: only what
/// the session proved (answers with a correct CRC, acknowledged writes).
@Suite struct ISO15693ReconstructionTests {
    func reconstruction(_ frames: [Frame]) -> ISO15693Reconstruction? {
        guard case .iso15693(let r)? = sessions(Dissector.dissect(frames)).first?.reconstruction else { return nil }
        return r
    }

    @Test func sessionReconstructsIdentitySystemInformationAndBlocks() throws {
        let r = try #require(reconstruction(formatAndWrite))
        #expect(r.uid == ISO15693UID(value: 0xE004_0108_49D0_DC81) && r.dsfid == 0x00 && r.afi == 0x00)
        #expect(r.blockCount == 80 && r.blockSize == 4 && r.icReference == 0x01 && r.systemInformation?.infoFlags == 0x0F)
        #expect(r.blocks[0] == [0xE1, 0x40, 0x30, 0x01] && r.blocks[4] == [0x6C, 0x6F, 0xFE, 0x00] && r.knownBlockCount == 5)
    }

    @Test func locksAFIAndDSFIDAreReconstructed() throws {
        let frames = slix2Activation + [
            VR("62 20 \(slix2) 02"), VT("00 01 4C 4F 43 4B"),
            VR("22 2C \(slix2) 05 01"), VT("00 00 01"),
            VR("22 22 \(slix2) 09"), VT("00"),
            VR("22 27 \(slix2) 3D"), VT("00"),
            VR("22 28 \(slix2)"), VT("00"),
            VR("22 21 \(slix2) 07 01 02 03 04"), VT("01 12"),
            fieldOff,
        ]
        let r = try #require(reconstruction(frames))
        #expect(r.locks == [2: true, 5: false, 6: true, 9: true])
        #expect(r.blocks[2] == [0x4C, 0x4F, 0x43, 0x4B] && r.blocks[7] == nil, "a refused write is not taken")
        #expect(r.afi == 0x3D && r.afiLocked && !r.dsfidLocked)
    }

    @Test func readSignatureAnswerIsKept() throws {
        let signature = Hex.string([UInt8](0..<32))
        let r = try #require(reconstruction(slix2Activation + [VR("22 BD 04 \(slix2)"), VT("00 \(signature)"), fieldOff]))
        #expect(r.signature == Array(0..<32))
        let damaged = try #require(reconstruction(slix2Activation + [VR("22 BD 04 \(slix2)"), VT("00 \(signature) 00 00", crc: false), fieldOff]))
        #expect(damaged.signature == nil, "an answer with a wrong CRC is not taken")
    }

    @Test func noUIDNoReconstruction() {
        #expect(sessions(Dissector.dissect([VR("02 20 05"), VT("00 05 05 05 05"), fieldOff])).first?.reconstruction == nil)
    }
}
