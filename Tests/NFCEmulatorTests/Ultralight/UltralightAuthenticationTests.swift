import Testing
import NFCCore
import NFCCrypto

/// The Ultralight C (2K3DES) and Ultralight AES authentication, against vectors made by another
/// implementation and a real trace, and tag against reader on random keys.
@Suite struct UltralightAuthenticationTests {
    static func hex(_ s: String) -> [UInt8] { Hex.parse(s)! }

    /// FIPS-197 appendix C.1 (AES-128).
    @Test func aesBlockIsFIPS197() throws {
        let aes = try #require(AES128(key: Self.hex("000102030405060708090A0B0C0D0E0F")))
        #expect(aes.encryptBlock(Self.hex("00112233445566778899AABBCCDDEEFF")) == Self.hex("69C4E0D86A7B0430D8CDB78070B4C55A"))
        #expect(aes.decryptBlock(Self.hex("69C4E0D86A7B0430D8CDB78070B4C55A")) == Self.hex("00112233445566778899AABBCCDDEEFF"))
        #expect(AES128(key: [1, 2, 3]) == nil)
    }

    /// The factory key, RndB 01…08 and RndA A1…A8, computed with Python's `cryptography`
    /// (TripleDES, CBC, the IV chained as MF0ICU2 describes): an implementation not ours.
    @Test func ultralightCExchangeMatchesAnotherImplementation() throws {
        let auth = UltralightAuthentication.tripleDES(key: UltralightKey.wellKnown[0].bytes)
        let rndB = Self.hex("0102030405060708"), rndA = Self.hex("A1A2A3A4A5A6A7A8")
        let ekRndB = auth.challenge(rndB: rndB)
        #expect(ekRndB == Self.hex("14872DC9707C94A5"))
        let message = auth.readerMessage(ekRndB: ekRndB, rndA: rndA)
        #expect(message == Self.hex("CA24F2664F235117935CEC681C6FA081"))
        #expect(auth.answer(rndA: rndA, readerMessage: message) == Self.hex("23B7BAE7F80C03E3"))
        let opened = try #require(auth.open(ekRndB: ekRndB, readerMessage: message))
        #expect(opened.rndA == rndA && opened.rndB == rndB)
        #expect(UltralightKey.wellKnown[0].pageOrder == Array("BREAKMEIFYOUCAN!".utf8))
    }

    /// `hf_14a_mful_aes_defaultkey.trace` (Proxmark3 repository): the all-zero key opens it,
    /// the Proxmark3's RndA is 01…01, and the card's ek(RndA′) is right.
    @Test func ultralightAESOpensTheProxmarkTrace() throws {
        let auth = try #require(UltralightAuthentication(kind: .aes, key: [UInt8](repeating: 0, count: 16)))
        let ekRndB = Self.hex("02FD5CA2E65616541BF64E345ED4D225")
        let message = Self.hex("E14D5D0EE27715DF08B4152BA23DA8E0631478498BE93E190C112BB35F257988")
        let opened = try #require(auth.open(ekRndB: ekRndB, readerMessage: message))
        #expect(opened.rndA == [UInt8](repeating: 1, count: 16))
        #expect(opened.rndB == Self.hex("4D4B447D0AC14D1C937283CE060BEAF1"))
        #expect(auth.tagAnswerIsRight(Self.hex("E14D5D0EE27715DF08B4152BA23DA8E0"), rndA: opened.rndA, readerMessage: message))
        // Another key does not open it.
        let other = try #require(UltralightAuthentication(kind: .aes, key: [UInt8](repeating: 0, count: 15) + [1]))
        #expect(other.open(ekRndB: ekRndB, readerMessage: message) == nil)
    }

    @Test(arguments: [UltralightCipherKind.tripleDES, .aes])
    func tagAndReaderAgreeOnRandomKeys(kind: UltralightCipherKind) throws {
        var rng = SplitMix64(seed: kind == .aes ? 21 : 20)
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        for _ in 0..<50 {
            let key = bytes(16), n = kind.blockSize
            let tag = try #require(UltralightAuthentication(kind: kind, key: key))
            let reader = try #require(UltralightAuthentication(kind: kind, key: key))
            let rndB = bytes(n), rndA = bytes(n)
            let ekRndB = tag.challenge(rndB: rndB)
            let message = reader.readerMessage(ekRndB: ekRndB, rndA: rndA)
            #expect(tag.readerRndA(message, rndB: rndB, ekRndB: ekRndB) == rndA)
            let answer = tag.answer(rndA: rndA, readerMessage: message)
            #expect(reader.tagAnswerIsRight(answer, rndA: rndA, readerMessage: message))
            // A reader with another key is refused.
            var wrongKey = key
            wrongKey[0] ^= 0x01 << 1   // bit 0 of a DES key byte is parity; flip a key bit
            let wrong = try #require(UltralightAuthentication(kind: kind, key: wrongKey))
            #expect(tag.readerRndA(wrong.readerMessage(ekRndB: ekRndB, rndA: rndA), rndB: rndB, ekRndB: ekRndB) == nil)
        }
    }
}
