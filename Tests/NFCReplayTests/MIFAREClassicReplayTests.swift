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
    /// A key no list holds (3B7E4FD575AD, used before, is HID SIO's and in the built-in list now).
    static let sectorKey: UInt64 = 0x5D3A_8C1B_2E47

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
        // The card rebuilt without the sector key (no key search, so the nested authentication's
        // key is not recovered from the trace either) holds FFFFFFFFFFFF there.
        var noSearch = KeyList.defaults
        noSearch.keySearchBudget = 0
        let result = try Self.replay(frames, keys: noSearch)
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

    // MARK: issue 44, point 6

    /// The nested authentication's key, in no list, is recovered from the trace (the card's weak
    /// generator and the parity bits), masked, and the card rebuilt from the trace replays it.
    @Test func aNestedKeyIsRecoveredFromTheTrace() throws {
        let frames = Self.recorded()
        let events = Dissector.dissect(frames)
        let d = events.compactMap { if case .frame(let f) = $0 { return f } else { return nil } }
        let at = try #require(d.first { $0.summary.hasPrefix("{aT}: authenticated (key A, sector 2)") })
        #expect(at.summary == "{aT}: authenticated (key A, sector 2) with 5D••••••••47", "\(at.summary)")
        #expect(at.diagnostics.contains { $0.message.hasPrefix("key key A, sector 2 recovered from this nested authentication") })
        // The {nR}{aR} before it, held back, says so too.
        #expect(d[at.number - 2].summary == "{nR}{aR}: made with key 5D••••••••47 (key A, sector 2), recovered at frame \(at.number)", "\(d[at.number - 2].summary)")
        #expect(d.contains { $0.summary == "block 0x08: " + Hex.string(Array("nfctrace classic".utf8)) })
        // Replayed with the key given: the search (seconds in a debug build) is not done again.
        let result = try Self.replay(frames, keys: Self.keysWithTheSectorKey)
        #expect(result.passed, "\(result.outcome)")
    }

    static var keysWithTheSectorKey: KeyList {
        var keys = KeyList([MIFAREClassicKey(sectorKey, source: "test")])
        keys.append(contentsOf: .defaults)
        return keys
    }

    /// A reader that tries a wrong key on a nested authentication (nfc-mfclassic does): its answer
    /// fits its own key, but that key decrypts {nT} to no nonce the card could send, so it is no
    /// "decrypted tag nonce", the card holds another key, and the recording replays against the
    /// card rebuilt from it.
    @Test func aRefusedNestedAuthenticationIsNotTakenForTheCards() throws {
        var memory = MIFAREClassicMemory.blank(.oneK, uid: [0x56, 0xDD, 0x89, 0x78])
        memory.blocks[11] = Crypto1.key(Self.sectorKey) + [0x08, 0x77, 0x8F, 0x69] + Crypto1.key(Self.sectorKey)
        memory.blocks[8] = Array("nfctrace classic".utf8)
        let r = MIFAREClassicReader(MIFAREClassicTag(MIFAREClassicDump(memory: memory, uid: [0x56, 0xDD, 0x89, 0x78]))!)
        r.fieldReset()
        r.activate()
        _ = r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF)
        r.send(MIFAREClassicCommand.read(block: 1).encode())
        #expect(!r.authenticate(.a, block: 8, key: 0xFFFF_FFFF_FFFF, nr: 0x1111_2222), "the card refuses the wrong key")
        r.activate()
        _ = r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF)
        #expect(r.authenticate(.a, block: 8, key: Self.sectorKey, nr: 0x3333_4444))
        r.send(MIFAREClassicCommand.read(block: 8).encode())
        let frames = r.frames
        let d = Dissector.dissect(frames).compactMap { if case .frame(let f) = $0 { return f } else { return nil } }
        let refused = try #require(d.first { $0.summary.contains("which the card does not hold") })
        #expect(refused.summary == "{nR}{aR}: made with key FFFFFFFFFFFF (key A, sector 2), which the card does not hold", "\(refused.summary)")
        #expect(refused.fields.first(key: "mfc.auth.nt.plain") == nil, "no nonce decrypted with the reader's key")
        #expect(d.contains { $0.summary == "{aT}: authenticated (key A, sector 2) with 5D••••••••47" }, "\(d.map(\.summary))")
        // The card rebuilt from the trace sends the refused authentication's nonce too: the key
        // the session proved later decrypts it. (The key is given so that the replay's own
        // dissections do not search for it again.)
        let result = try Self.replay(frames, keys: Self.keysWithTheSectorKey)
        #expect(result.passed, "\(result.outcome)")
    }
}
