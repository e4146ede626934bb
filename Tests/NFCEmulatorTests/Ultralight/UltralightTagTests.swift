import Testing
import NFCCore
import NFCCrypto
@testable import NFCEmulator

/// The emulated Ultralight C and Ultralight AES against a reader that authenticates with
/// `UltralightAuthentication`'s reader side.
@Suite struct UltralightTagTests {
    /// AUTHENTICATE as a reader does it: the challenge, the reader's answer with `rndA`, and the
    /// tag's last answer (nil when it stayed silent; a 4-bit NAK comes back as its nibble).
    static func authenticate(_ r: TestReader, kind: UltralightCipherKind, key: [UInt8], keyNumber: UInt8 = 0,
                             rndA: [UInt8]? = nil) throws -> (answer: [UInt8]?, rndA: [UInt8], message: [UInt8]) {
        let challenge = try #require(r.answer("1A " + Hex.string([keyNumber])))
        #expect(challenge.first == 0xAF && challenge.count == 1 + kind.blockSize)
        let reader = try #require(UltralightAuthentication(kind: kind, key: key))
        let a = rndA ?? [UInt8](repeating: 0x5A, count: kind.blockSize)
        let message = reader.readerMessage(ekRndB: Array(challenge.dropFirst()), rndA: a)
        let answer = r.answer("AF " + Hex.string(message))
        if let answer, answer.count == 1 + kind.blockSize {
            #expect(answer[0] == 0x00)
            #expect(reader.tagAnswerIsRight(Array(answer.dropFirst()), rndA: a, readerMessage: message), "the tag proves the key")
        }
        return (answer, a, message)
    }

    @Test func ultralightCAuthenticatesWithItsFactoryKeyAndRefusesAnother() throws {
        let (tag, r) = ntag(.ultralightC)
        #expect(tag.memory.ultralightCKey == UltralightKey.wellKnown[0].bytes)
        r.activate()
        let ok = try Self.authenticate(r, kind: .tripleDES, key: UltralightKey.wellKnown[0].bytes)
        #expect(ok.answer?.count == 9 && tag.authenticated)
        // Unprotected (AUTH0 30h): READ works, rolls over to page 0 before the key pages.
        let tail = try #require(r.answer("30 2A"))
        #expect(Array(tail[8..<16]) == Array(tag.memory.pages[0..<8]), "READ rolls over to page 0 before the key")
        #expect(r.answer("30 2C") == [0x00], "the key pages are not readable")
        tag.fieldOff()
        tag.fieldOn()
        #expect(!tag.authenticated, "a new field ends the authentication")
        r.activate()
        let wrong = try Self.authenticate(r, kind: .tripleDES, key: [UInt8](repeating: 0, count: 16))
        #expect(wrong.answer == [0x00], "NAK 0 to a reader with another key")
        #expect(!tag.authenticated)
        // Part 2 without part 1 is no command: silence.
        r.activate(wakeUp: true)
        #expect(r.answer("AF " + Hex.string([UInt8](repeating: 0, count: 16))) == nil)
    }

    @Test func ultralightCProtectsPagesFromAUTH0AndNeverReturnsItsKey() throws {
        let (tag, r) = ntag(.ultralightC) { m in
            m.setPage(0x2A, [0x10, 0, 0, 0])   // AUTH0: pages 10h… need AUTHENTICATE
            m.setPage(0x2B, [0x00, 0, 0, 0])   // AUTH1 bit 0 clear: reads too
            m.setPage(0x10, [0xDE, 0xAD, 0xBE, 0xEF])
        }
        r.activate()
        #expect(r.answer("30 10") == [0x00], "READ of a protected page: NAK")
        r.activate(wakeUp: true)
        #expect(r.answer("A2 10 01 02 03 04") == [0x00], "WRITE of a protected page: NAK")
        r.activate(wakeUp: true)
        _ = try Self.authenticate(r, kind: .tripleDES, key: UltralightKey.wellKnown[0].bytes)
        #expect(r.answer("30 10").map { Array($0.prefix(4)) } == [0xDE, 0xAD, 0xBE, 0xEF])
        // A new key, written page by page after authenticating, is the key from then on.
        let newKey = (0..<16).map { UInt8($0) }
        let stored = UltralightKey.swapPageOrder(newKey)
        for i in 0..<4 { #expect(r.answer("A2 " + Hex.string([UInt8(0x2C + i)]) + " " + Hex.string(stored[4 * i..<4 * i + 4])) == [0x0A]) }
        #expect(tag.memory.ultralightCKey == newKey)
        tag.fieldOff()
        tag.fieldOn()
        r.activate()
        #expect(try Self.authenticate(r, kind: .tripleDES, key: newKey).answer?.count == 9)
    }

    @Test func ultralightAESAuthenticatesWithItsZeroKeys() throws {
        let (tag, r) = ntag(.ultralightAES)
        r.activate()
        let ok = try Self.authenticate(r, kind: .aes, key: [UInt8](repeating: 0, count: 16), keyNumber: 1)
        #expect(ok.answer?.count == 17 && tag.authenticated)
        tag.fieldOff()
        tag.fieldOn()
        r.activate()
        #expect(r.answer("1A 02") == [0x00], "no originality key to authenticate with")
    }
}
