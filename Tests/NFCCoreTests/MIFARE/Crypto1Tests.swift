import Testing
@testable import NFCCore

/// Crypto1 against published and computed vectors (protocols-wave2.md §2.1, §2.3, §2.6, §2.7):
/// the key load of GARCIA08's convention, the successor function on the Proxmark3's `mfkey`
/// example nonces (`tools/mfc/card_reader/mfkey_examples.md`, `tools/pm3_tests.sh`), and the
/// keystream of the Proxmark3 sample trace `hf_mf_hid_sio_sim.trace`.
@Suite struct Crypto1Tests {
    static func hex(_ s: String) -> [UInt8] { Hex.parse(s)! }
    static func word(_ s: String) -> UInt32 { MIFARENonce.value(hex(s)) }

    @Test func keyLoadPutsTheFirstKeyByteFirst() {
        let c = Crypto1(key: Self.hex("A0A1A2A3A4A5"))
        let cells = (0..<48).map { String(c.state >> UInt64($0) & 1) }.joined()
        #expect(cells == "000001011000010101000101110001010010010110100101")
        #expect(Crypto1.key(0xA0A1A2A3A4A5) == Self.hex("A0A1A2A3A4A5"))
        #expect(c.key == Self.hex("A0A1A2A3A4A5"))
    }

    @Test func filterTablesMatchTheBooleanForms() {
        func fa(_ y: [Bool]) -> Bool { ((y[0] || y[1]) != (y[0] && y[3])) != (y[2] && ((y[0] != y[1]) || y[3])) }
        func fb(_ y: [Bool]) -> Bool { ((y[0] && y[1]) || y[2]) != ((y[0] != y[1]) && (y[2] || y[3])) }
        func fc(_ y: [Bool]) -> Bool { (y[0] || ((y[1] || y[4]) && (y[3] != y[4]))) != ((y[0] != (y[1] && y[3])) && ((y[2] != y[3]) || (y[1] && y[4]))) }
        for i in 0..<16 {
            let y = (0..<4).map { i >> $0 & 1 == 1 }
            #expect((Crypto1.fa >> i & 1 == 1) == fa(y))
            #expect((Crypto1.fb >> i & 1 == 1) == fb(y))
        }
        for i in 0..<32 { #expect((Crypto1.fc >> i & 1 == 1) == fc((0..<5).map { i >> $0 & 1 == 1 })) }
    }

    @Test func successorOfPublishedNonces() {
        for (nt, ar, at) in [("82A4166C", "8D65734B", "9A427B20"), ("CE844261", "76D4468D", "D5F3C476"),
                             ("01200145", "63E5BCA7", "993730BD"), ("1ED24A6A", "C50A7A19", "C01C8E28")] {
            #expect(MIFARENonce.successor(Self.word(nt), 64) == Self.word(ar), "suc64(\(nt))")
            #expect(MIFARENonce.successor(Self.word(nt), 96) == Self.word(at), "suc96(\(nt))")
            #expect(MIFARENonce.isGeneratorOutput(Self.word(nt)))
        }
        #expect(!MIFARENonce.isGeneratorOutput(Self.word("1ED24A6B")))
        #expect(MIFARENonce.bytes(Self.word("1ED24A6A")) == Self.hex("1ED24A6A"))
    }

    /// The sample trace's first authentication: key A0A1A2A3A4A5, UID 56DD8978, nT 1ED24A6A,
    /// nR 27C0A872 — and the bytes the trace shows for {nR}{aR} and {aT}.
    @Test func keystreamOfTheSampleTrace() {
        var c = Crypto1(key: Self.hex("A0A1A2A3A4A5"))
        let uid = Self.word("56DD8978"), nt = Self.word("1ED24A6A"), nr = Self.word("27C0A872")
        #expect(c.word(input: uid ^ nt) == Self.word("70D1CAF1"))
        #expect(c.word(input: nr) == Self.word("63CDF161"))
        #expect(c.word() == Self.word("076B6002"))
        #expect(c.word() == Self.word("98A49A04"))
        #expect(c.word() == Self.word("747098EC"))
        // As the card sees it: {nR} decrypted bit by bit while it is fed.
        var card = Crypto1(key: Self.hex("A0A1A2A3A4A5"))
        card.word(input: uid ^ nt)
        #expect(card.wordDecrypting(Self.word("440D5913")) == nr)
        #expect(card.word() ^ Self.word("C2611A1B") == MIFARENonce.successor(nt, 64))
        #expect(card.word() ^ Self.word("58B8142C") == MIFARENonce.successor(nt, 96))
    }

    @Test func nestedKeystream() {
        var c = Crypto1(key: Self.hex("059E2905BFCC"))
        let uid = Self.word("5C467F63"), nt = Self.word("4BBF8A12")
        #expect(c.word(input: uid ^ nt) == Self.word("E00C81C3"))
        // The card's side of a nested auth: {nT} = nT ⊕ ks0, fed with the plain nT.
        var card = Crypto1(key: Self.hex("059E2905BFCC"))
        #expect(card.wordDecrypting(Self.word("ABB30BD1"), xor: uid) == nt)
        c.word(input: Self.word("12345678"))
        #expect(c.word() == Self.word("DA0D069A"))
    }

    /// The published mfkey64 example checks with the key FFFFFFFFFFFF.
    @Test func mfkey64ExampleChecksWithItsKey() {
        var c = Crypto1(key: Self.hex("FFFFFFFFFFFF"))
        let uid = Self.word("52B0F519"), nt = Self.word("5417D1F8")
        c.word(input: uid ^ nt)
        _ = c.wordDecrypting(Self.word("4D545EA7"))
        #expect(c.word() ^ Self.word("E15AC8C2") == MIFARENonce.successor(nt, 64))
        #expect(c.word() ^ Self.word("5056E41B") == MIFARENonce.successor(nt, 96))
    }

    @Test func rollbackUndoesClocksAndEncryptionRoundTrips() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<200 {
            let key = (0..<6).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let uid = UInt32(truncatingIfNeeded: rng.next()), nt = UInt32(truncatingIfNeeded: rng.next()), nr = UInt32(truncatingIfNeeded: rng.next())
            // Reader and card agree: the card decrypts {nR} bit by bit, both derive the same stream.
            var reader = Crypto1(key: key), card = Crypto1(key: key)
            reader.word(input: uid ^ nt)
            card.word(input: uid ^ nt)
            let encNR = nr ^ reader.word(input: nr)
            #expect(card.wordDecrypting(encNR) == nr)
            let frame = (0..<Int(rng.next() % 18)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let (sent, parity) = reader.encrypt(frame)
            let (plain, ok) = card.decrypt(sent, parity: parity)
            #expect(plain == frame && ok == Array(repeating: true, count: frame.count))
            // Rolled back through the frame, the nR feed and uid ⊕ nT, the state is the key again.
            var back = card
            for _ in 0..<(frame.count * 8) { back.rollback() }
            for bit in (0..<32).reversed() { back.rollbackDecrypting(UInt8(truncatingIfNeeded: encNR >> UInt32(bit))) }
            for bit in (0..<32).reversed() { back.rollback(UInt8(truncatingIfNeeded: (uid ^ nt) >> UInt32(bit))) }
            #expect(back.key == key)
        }
    }
}

/// Key recovery on the published mfkey examples (protocols-wave2.md §2.7): the keys were not
/// printed there, only computed, so each result is also checked by opening the authentication.
@Suite struct Crypto1RecoveryTests {
    static func word(_ s: String) -> UInt32 { MIFARENonce.value(Hex.parse(s)!) }

    @Test func stateFromSixtyFourKeystreamBits() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2 {
            let state = rng.next() & 0xFFFF_FFFF_FFFF
            var c = Crypto1(state: state)
            let bits = (0..<64).map { _ in c.clock() }
            #expect(Crypto1Recovery.states(keystream: bits).contains(state))
        }
    }

    @Test func mfkey64Example() {
        let key = Crypto1Recovery.key(uid: Self.word("52B0F519"), nt: Self.word("5417D1F8"), encryptedNR: Self.word("4D545EA7"),
                                      encryptedAR: Self.word("E15AC8C2"), encryptedAT: Self.word("5056E41B"))
        #expect(key == Hex.parse("FFFFFFFFFFFF"))
    }

    @Test func mfkey64OnTheSampleTrace() {
        // hf_mf_hid_sio_sim.trace frames 12–14.
        let key = Crypto1Recovery.key(uid: Self.word("56DD8978"), nt: Self.word("1ED24A6A"), encryptedNR: Self.word("440D5913"),
                                      encryptedAR: Self.word("C2611A1B"), encryptedAT: Self.word("58B8142C"))
        #expect(key == Hex.parse("A0A1A2A3A4A5"))
    }

    /// Whole authentications made with random keys, UIDs and nonces on the reader's side: the
    /// key comes back from uid, nT, {nR}, {aR}, {aT} alone, and a wrong {aT} gives none.
    @Test func mfkey64RoundTripsRandomAuthentications() {
        var rng = SplitMix64(seed: 64)
        for _ in 0..<3 {
            let key = (0..<6).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let uid = UInt32(truncatingIfNeeded: rng.next()), nt = UInt32(truncatingIfNeeded: rng.next())
            let nr = UInt32(truncatingIfNeeded: rng.next())
            var reader = Crypto1(key: key)
            reader.word(input: uid ^ nt)
            let encryptedNR = nr ^ reader.word(input: nr)
            let encryptedAR = MIFARENonce.successor(nt, 64) ^ reader.word()
            let encryptedAT = MIFARENonce.successor(nt, 96) ^ reader.word()
            #expect(Crypto1Recovery.key(uid: uid, nt: nt, encryptedNR: encryptedNR, encryptedAR: encryptedAR, encryptedAT: encryptedAT) == key)
            #expect(Crypto1Recovery.key(uid: uid, nt: nt, encryptedNR: encryptedNR, encryptedAR: encryptedAR, encryptedAT: encryptedAT ^ 1 << 20) == nil)
        }
    }

    /// More than 64 bits: the search uses the first 64 and every state it returns fits them all.
    @Test func stateFromSeventyTwoKeystreamBits() {
        var rng = SplitMix64(seed: 72)
        let state = rng.next() & 0xFFFF_FFFF_FFFF
        var c = Crypto1(state: state)
        let bits = (0..<72).map { _ in c.clock() }
        #expect(Crypto1Recovery.states(keystream: bits) == [state])
    }

    /// The 64-bit search reads the filter through its tables, cells newest first: they must agree
    /// with the filter on every window they are asked about.
    @Test func sixtyFourBitSearchTablesAgreeWithTheFilter() {
        let search = Crypto1Recovery.Search64.Search(tables: Crypto1Recovery.Search64.tables, bits: Array(repeating: 0, count: 64),
                                                     kept: .allocate(capacity: 1), evens: .allocate(capacity: 1))
        defer { search.kept.deallocate(); search.evens.deallocate() }
        var rng = SplitMix64(seed: 20)
        for _ in 0..<2000 {
            let forward = rng.next() & 0xFFFFF
            var newestFirst: UInt64 = 0
            for i in 0..<20 { newestFirst |= (forward >> UInt64(i) & 1) << UInt64(19 - i) }
            #expect(search.filter(newestFirst) == Crypto1Recovery.filter20(forward))
        }
    }

    @Test func mfkey32v2Example() {
        let key = Crypto1Recovery.key(uid: Self.word("52B0F519"),
                                      .init(nt: Self.word("5417D1F8"), encryptedNR: Self.word("4D545EA7"), encryptedAR: Self.word("E15AC8C2")),
                                      .init(nt: Self.word("A1BA88C6"), encryptedNR: Self.word("DAC1A7F4"), encryptedAR: Self.word("5AE5C37F")))
        #expect(key == Hex.parse("FFFFFFFFFFFF"))
    }

    /// Issue 51, point 7: the same authentication twice fits thousands of keys; the first of them
    /// (15F0045C38CA here) was printed as found.
    @Test func mfkey32WithTheSameAuthenticationTwiceFindsNoKey() {
        let answer = Crypto1Recovery.ReaderAnswer(nt: Self.word("5417D1F8"), encryptedNR: Self.word("4D545EA7"), encryptedAR: Self.word("E15AC8C2"))
        // More than one fits, so `key(uid:_:_:)` (one search, the dearest part, a few seconds in
        // a debug build) has none to give.
        #expect(Crypto1Recovery.keys(uid: Self.word("52B0F519"), answer, answer, atMost: 2).count == 2)
    }
}
