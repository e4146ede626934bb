import Testing
@testable import NFCCore

/// Keys of nested authentications recovered from sniffs (issue 44, point 6): two real ones, a
/// card with a weak generator in each.
@Suite struct NestedRecoveryTests {
    /// Bytes as a Proxmark3 listing writes them (`5A! 92`): the value and the parity bits on air.
    static func onAir(_ listing: String) -> (bytes: [UInt8], parity: [UInt8]) {
        let items = listing.split(separator: " ")
        let bytes = items.compactMap { Hex.parse(String($0.prefix(2)))?.first }
        let errors = items.indices.filter { items[$0].hasSuffix("!") }
        return (bytes, Parity.bits(bytes, errors: errors))
    }

    static func authentication(uid: String, nt: String, answer: String, at: String) -> Crypto1Recovery.NestedAuthentication {
        let n = onAir(nt), r = onAir(answer), t = onAir(at)
        return .init(uid: MIFARENonce.value(Hex.parse(uid) ?? []), encryptedNT: MIFARENonce.value(n.bytes), ntParity: n.parity,
                     encryptedNR: MIFARENonce.value(Array(r.bytes[0..<4])), encryptedAR: MIFARENonce.value(Array(r.bytes[4..<8])),
                     answerParity: r.parity, encryptedAT: MIFARENonce.value(t.bytes), atParity: t.parity)
    }

    /// A forum sniff of a real card (quoted in the Proxmark3's tools/mf_nonce_brute README): the
    /// key is FFFFFFFFFFFF, the nonce A5 5D 95 0B.
    @Test func aRealCardsNestedKey() throws {
        let a = Self.authentication(uid: "9C 59 9B 32", nt: "5A! 92 0D! 85!", answer: "98! D7 6B! 77 D6 C6 E8 70", at: "CA 7E! 0B! 63!")
        let nt = MIFARENonce.value([0xA5, 0x5D, 0x95, 0x0B])
        let candidates = Crypto1Recovery.nestedCandidates(a)
        #expect((16...256).contains(candidates.count), "\(candidates.count) candidates")
        let at = try #require(candidates.firstIndex(of: nt))
        // The search from the true nonce on (each candidate costs a 64-bit search, seconds in a
        // debug build for all), and a few wrong ones that must give no key.
        let found = try #require(Crypto1Recovery.nestedKey(a, candidates: Array(candidates[at...]), limit: 1))
        #expect(found.key == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(found.nt == nt)
        #expect(Crypto1Recovery.nestedKey(a, candidates: candidates.filter { $0 != nt }, limit: 3) == nil)
    }

    /// ../shared/pm3-traces/hf_mf_hid_sio_sim.trace, records 23–25 (a simulated HID SIO card):
    /// key 3B7E4FD575AD. Ordered by distance from the card's previous (static) nonce, the right
    /// one comes first.
    @Test func theSIOSimulationsNestedKey() throws {
        let a = Self.authentication(uid: "56 DD 89 78", nt: "A5 1E C8 D8", answer: "34 D8! D0 2C! 58! 90 82! AD!", at: "8B 3C! 44! F3")
        let nt = MIFARENonce.value([0x1E, 0xD2, 0x4A, 0x6A])
        let candidates = Crypto1Recovery.nestedCandidates(a, near: nt)
        #expect(candidates.first == nt)
        let found = try #require(Crypto1Recovery.nestedKey(a, candidates: candidates, limit: 4))
        #expect(found.key == [0x3B, 0x7E, 0x4F, 0xD5, 0x75, 0xAD])
    }

    @Test func theGeneratorCycleHasEveryOutputOnce() {
        #expect(Crypto1Recovery.generator.cycle.count == 0xFFFF)
        #expect(Set(Crypto1Recovery.generator.cycle).count == 0xFFFF)
        #expect(Crypto1Recovery.generator.cycle.allSatisfy(MIFARENonce.isGeneratorOutput))
        let n = MIFARENonce.emulated(3)
        #expect(Crypto1Recovery.generatorDistance(from: n, to: MIFARENonce.successor(n, 1234)) == 1234)
    }
}
