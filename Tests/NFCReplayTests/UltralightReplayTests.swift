import Testing
import NFCCore
import NFCCrypto
import NFCDissect
import NFCEmulator
@testable import NFCReplay

/// Issue 19 point 8: an Ultralight C session with a private key, recorded from the emulator,
/// replays against the tag rebuilt from it (with the key or without it: the rebuilt tag answers
/// the recorded challenges), and a tag with another key diverges at the challenge, saying why.
@Suite struct UltralightReplayTests {
    static let uid: [UInt8] = [0x04, 0x94, 0x2C, 0xCA, 0x99, 0x4F, 0x80]
    static let key: [UInt8] = Array("nfctrace-ulc-key".utf8)

    /// The frames of a reader and `tag`, both directions, CRC_A added where it belongs.
    final class Recorder {
        let tag: EmulatedTag
        var frames: [Frame] = [Frame(.fieldOn)]
        init(_ tag: EmulatedTag) { self.tag = tag }

        @discardableResult
        func send(_ payload: [UInt8], bits: UInt8 = 8, crc: Bool = true) -> [UInt8]? {
            let f = Frame(.data(.readerToTag), bytes: crc ? CRC.appending(.a, to: payload) : payload, lastByteBits: bits)
            frames.append(f)
            guard let answer = tag.respond(to: f) else { return nil }
            frames.append(answer)
            return answer.lastByteBits == 4 ? answer.bytes : Array(answer.bytes.dropLast(2))
        }

        func activate(_ uid: [UInt8]) {
            send([0x26], bits: 7, crc: false)
            for (i, level) in (UIDLevelData.levels(forUID: uid) ?? []).enumerated() {
                let sel = CascadeLevel(rawValue: i + 1)?.selCode ?? 0x93
                send([sel, 0x20], crc: false)
                send([sel, 0x70] + level.bytes + [level.bcc])
            }
        }

        /// AUTHENTICATE with `key` and `rndA`; true when the tag proved the key.
        func authenticate(key: [UInt8], rndA: [UInt8]) -> Bool {
            guard let challenge = send(Type2Command.authenticate(keyNumber: 0).encode()), challenge.count == 9 else { return false }
            let reader = UltralightAuthentication.tripleDES(key: key)
            let message = reader.readerMessage(ekRndB: Array(challenge.dropFirst()), rndA: rndA)
            guard let answer = send(Type2Command.authenticateContinue(message).encode()), answer.count == 9 else { return false }
            return reader.tagAnswerIsRight(Array(answer.dropFirst()), rndA: rndA, readerMessage: message)
        }
    }

    static func tag(key: [UInt8]) -> Type2Tag {
        var memory = Type2TagMemory.factory(.ultralightC, uid: uid)
        memory.setUltralightCKey(key)
        memory.setPage(0x2A, [0x10, 0, 0, 0])   // AUTH0: pages 10h… behind AUTHENTICATE, reads too
        memory.setPage(0x10, Array("priv".utf8))
        return Type2Tag(memory: memory)!
    }

    static func recorded() -> [Frame] {
        let r = Recorder(tag(key: key))
        r.activate(uid)
        r.send(Type2Command.read(page: 0x04).encode())
        #expect(r.authenticate(key: key, rndA: Array(1...8)))
        r.send(Type2Command.read(page: 0x10).encode())
        r.send([0x50, 0x00])
        r.frames.append(Frame(.fieldOff))
        return r.frames
    }

    static func replay(_ frames: [Frame], keys: KeyList, against target: EmulatedTag? = nil) throws -> ReplayResult {
        try replayFrames(frames, keys: keys, against: target, trace: "ultralight-c")
    }

    @Test func theSessionReplaysAgainstTheTagRebuiltFromItWithOrWithoutTheKey() throws {
        let frames = Self.recorded()
        var keys = KeyList(ultralight: [UltralightKey(Self.key, source: "test")])
        let withKey = try Self.replay(frames, keys: keys)
        #expect(withKey.passed, "\(withKey.outcome)")
        let withoutKey = try Self.replay(frames, keys: KeyList())
        #expect(withoutKey.passed, "\(withoutKey.outcome)")

        // The tag rebuilt with the key checks a new RndA itself; without it, only the recorded answer passes.
        var i = 0
        let next = { () -> Frame? in defer { i += 1 }; return i < frames.count ? frames[i] : nil }
        let rebuilt = try #require(try TraceTag.rebuild(next: next, keys: keys))
        let tag = try #require(rebuilt.dump.makeTag())
        let fresh = Recorder(tag)
        fresh.activate(Self.uid)
        #expect(fresh.authenticate(key: Self.key, rndA: Array(11...18)))
        #expect(fresh.send(Type2Command.read(page: 0x10).encode()).map { Array($0.prefix(4)) } == Array("priv".utf8))
        i = 0
        keys = KeyList()
        let keyless = try #require(try TraceTag.rebuild(next: next, keys: keys)?.dump.makeTag())
        let refused = Recorder(keyless)
        refused.activate(Self.uid)
        #expect(!refused.authenticate(key: Self.key, rndA: Array(11...18)))
        #expect(refused.frames.last?.bytes == [0x00], "NAK: the rebuilt tag cannot check another RndA without the key")
    }

    @Test func aTagWithAnotherKeyDivergesAtTheChallenge() throws {
        let result = try Self.replay(Self.recorded(), keys: .defaults, against: Self.tag(key: UltralightKey.wellKnown[0].bytes))
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence, got \(result.outcome)")
            return
        }
        #expect(d.reason.contains("AUTHENTICATE challenge differs"), "\(d.reason)")
        #expect(d.request.summary == "AUTHENTICATE key 0 (part 1)")
    }
}
