import Testing
import NFCCore
import NFCDissect
import NFCEmulator
@testable import NFCReplay

/// Replay of encrypted MIFARE Classic sessions: the card rebuilt from a trace answers each
/// authentication with the nonce the trace recorded, so the recorded reader frames decrypt and
/// every encrypted answer comes out byte for byte; a card with another key diverges at the
/// authentication, and says why.
@Suite struct MIFAREClassicReplayTests {
    static let sectorKey: UInt64 = 0x3B7E_4FD5_75AD

    /// A card with a private key on sector 2, read by the software reader: plain and nested
    /// authentication, reads, a value decrement.
    static func recorded() -> [Frame] {
        var memory = MIFAREClassicMemory.blank(.oneK, uid: [0x56, 0xDD, 0x89, 0x78])
        memory.blocks[11] = Crypto1.key(sectorKey) + [0x08, 0x77, 0x8F, 0x69] + Crypto1.key(sectorKey)
        memory.blocks[9] = MIFAREClassicValueBlock(value: 500, address: 9).encode()
        memory.blocks[8] = Array("nfctrace classic".utf8)
        let tag = MIFAREClassicTag(MIFAREClassicDump(memory: memory, uid: [0x56, 0xDD, 0x89, 0x78]))!
        let r = MIFAREClassicReader(tag)
        r.fieldReset()
        r.activate()
        _ = r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF)
        for b in 0..<4 { r.send(MIFAREClassicCommand.read(block: UInt8(b)).encode()) }
        _ = r.authenticate(.a, block: 8, key: sectorKey, nr: 0x0BAD_F00D)
        r.send(MIFAREClassicCommand.read(block: 8).encode())
        r.send(MIFAREClassicCommand.read(block: 9).encode())
        r.send(MIFAREClassicCommand.decrement(block: 9).encode())
        r.send(MIFAREClassicCommand.valueOperand(25).encode())
        r.send(MIFAREClassicCommand.transfer(block: 9).encode())
        r.send(MIFAREClassicCommand.read(block: 9).encode())
        r.send(MIFAREClassicCommand.halt.encode())
        return r.frames
    }

    static func replay(_ frames: [Frame], keys: KeyList, against tag: EmulatedTag? = nil) throws -> ReplayResult {
        try replayFrames(frames, keys: keys, against: tag, trace: "classic")
    }

    @Test func anEncryptedSessionReplaysAgainstTheCardRebuiltFromIt() throws {
        let frames = Self.recorded()
        var keys = KeyList([MIFAREClassicKey(Self.sectorKey, source: "test")])
        keys.append(contentsOf: .defaults)
        let result = try Self.replay(frames, keys: keys)
        #expect(result.passed, "\(result.outcome)")
        #expect(result.exchanges == 18, "every reader frame of the session, HALT included")
    }

    @Test func aCardWithAnotherKeyDivergesAtTheAuthentication() throws {
        let frames = Self.recorded()
        // The card rebuilt without the sector key holds FFFFFFFFFFFF there.
        let result = try Self.replay(frames, keys: .defaults)
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence, got \(result.outcome)")
            return
        }
        #expect(d.reason.contains("does not hold the key"), "\(d.reason)")
        #expect(d.request.summary == "AUTH-A block 0x08 (sector 2)", "\(d.request.summary)")
        // A first authentication with another key: the nonce is the recorded one, the reader's
        // answer does not fit the target's key.
        var memory = MIFAREClassicMemory.blank(.oneK, uid: [0x56, 0xDD, 0x89, 0x78])
        memory.blocks[3].replaceSubrange(0..<6, with: Crypto1.key(0xA0A1_A2A3_A4A5))
        var dump = MIFAREClassicDump(memory: memory, uid: [0x56, 0xDD, 0x89, 0x78])
        dump.nonces = [MIFARENonce.value(frames[9].bytes)]   // the recorded nT of the first AUTH
        let other = try Self.replay(frames, keys: .defaults, against: MIFAREClassicTag(dump)!)
        guard case .diverged(let first) = other.outcome else {
            Issue.record("expected a divergence, got \(other.outcome)")
            return
        }
        #expect(first.reason.contains("refused the reader's {nR}{aR}"), "\(first.reason)")
    }
}
