import NFCCore
import NFCCrypto

/// An Ultralight C / AES authentication as the dissector follows it: the challenge, the
/// reader's answer, and what a key made of them.
struct UltralightAuthenticationState {
    var keyNumber: UInt8
    var firstFrame: Int
    var ekRndB: [UInt8]?
    var readerMessage: [UInt8]?
    /// The key that opened the reader's message, and the RndA it held.
    var opened: (key: UltralightKey, rndA: [UInt8])?

    var kind: UltralightCipherKind? { ekRndB.flatMap { UltralightCipherKind(challengeLength: $0.count) } }
}

/// How an Ultralight mutual authentication ended, for the session's headline and the rebuilt tag.
struct UltralightAuthenticationOutcome: Equatable {
    var kind: UltralightCipherKind
    var keyNumber: UInt8
    /// The key that opened the exchange; nil when none of the keys tried did.
    var key: UltralightKey?
    /// Whether the tag's ek(RndA′) was right for that key (nil without a key).
    var tagProvedKey: Bool?

    /// `mutually authenticated (3DES key 49454D4B41455242214E4143554F5946)`.
    var summary: String {
        var text = "mutually authenticated (\(kind.name) key"
        if kind == .aes { text += " \(keyNumber)" }
        if let key { text += " " + key.hex + (tagProvedKey == false ? ", the tag's answer is wrong" : "") } else { text += " unknown" }
        return text + ")"
    }
}

/// The dissector's side of the Ultralight C / AES authentication: the challenge and answers
/// labelled, decrypted with a given or built-in key, and checked both ways.
enum UltralightAuthenticationFrames {
    /// `1A keyNo`: a new authentication starts.
    static func request(keyNumber: UInt8, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        s.ultralightAuthentication = UltralightAuthenticationState(keyNumber: keyNumber, firstFrame: ctx.number)
    }

    /// `AF` ek(RndB).
    static func challenge(_ ekRndB: [UInt8], _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        if s.ultralightAuthentication == nil { s.ultralightAuthentication = UltralightAuthenticationState(keyNumber: 0, firstFrame: ctx.number) }
        s.ultralightAuthentication?.ekRndB = ekRndB
        s.ultralightExchanges.append(UltralightExchange(keyNumber: s.ultralightAuthentication?.keyNumber ?? 0, ekRndB: ekRndB))
        if let kind = UltralightCipherKind(challengeLength: ekRndB.count) {
            // Only an Ultralight C answers AUTHENTICATE with 8 bytes, only an Ultralight AES with
            // 16: the model (and its memory map) follows when GET_VERSION did not name it.
            if s.model == nil {
                s.model = kind == .tripleDES ? .ultralightC : .ultralightAES
                ctx.note("a \(ekRndB.count)-byte challenge: the tag is a \(s.model?.rawValue ?? "")")
            }
            let keyNumber = s.ultralightAuthentication?.keyNumber ?? 0
            let aes = "AES-128, CBC (MIFARE Ultralight AES), key \(keyNumber)" + (Type2Command.aesKeyName(keyNumber).map { " (\($0))" } ?? "")
            ctx.sink.add(Field(.ntag.authCipher, kind == .tripleDES ? "2K3DES, CBC (MIFARE Ultralight C)" : aes,
                               range: Type2Response.Layout.authenticationData(ekRndB.count)))
        }
    }

    /// `AF` ek(RndA ‖ RndB′): tried with every key until one finds RndB′ in it.
    static func readerAnswer(_ message: [UInt8], range: Range<Int>, keys: KeyRing, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        guard var state = s.ultralightAuthentication, let ekRndB = state.ekRndB, let kind = state.kind else {
            ctx.note("no AUTHENTICATE challenge precedes this part 2: it is not decrypted")
            return
        }
        state.readerMessage = message
        if !s.ultralightExchanges.isEmpty { s.ultralightExchanges[s.ultralightExchanges.count - 1].readerMessage = message }
        let candidates = keys.ultralightCandidates(for: kind)
        for key in candidates {
            guard let auth = UltralightAuthentication(kind: kind, key: key.bytes),
                  let opened = auth.open(ekRndB: ekRndB, readerMessage: message) else { continue }
            keys.fits(key)
            state.opened = (key, opened.rndA)
            ctx.summary = "AUTHENTICATE part 2: key \(key.hex) fits (RndB′ right)"
            ctx.sink.add(Field(.ntag.authKey, "\(key.hex) (\(key.source))", range: range))
            ctx.sink.add(Field(.ntag.rndB, .hex(opened.rndB), range: range))
            ctx.sink.add(Field(.ntag.rndA, .hex(opened.rndA), range: range))
            s.ultralightAuthentication = state
            return
        }
        s.ultralightAuthentication = state
        ctx.summary = "AUTHENTICATE part 2 (encrypted, no key fits)"
        ctx.note("none of the \(candidates.count) \(kind.name) keys tried decrypts RndB′; give the key with --keys")
    }

    /// `00` ek(RndA′): the tag proves it holds the key too.
    static func result(_ ekRndAPrime: [UInt8], _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        guard let state = s.ultralightAuthentication, let kind = state.kind ?? UltralightCipherKind(challengeLength: ekRndAPrime.count) else {
            s.authentication = .mutuallyAuthenticated(UltralightAuthenticationOutcome(kind: .tripleDES, keyNumber: 0, key: nil, tagProvedKey: nil))
            return
        }
        var outcome = UltralightAuthenticationOutcome(kind: kind, keyNumber: state.keyNumber, key: nil, tagProvedKey: nil)
        if let (key, rndA) = state.opened, let message = state.readerMessage, let auth = UltralightAuthentication(kind: kind, key: key.bytes) {
            outcome.key = key
            let right = auth.tagAnswerIsRight(ekRndAPrime, rndA: rndA, readerMessage: message)
            outcome.tagProvedKey = right
            if right {
                ctx.summary = "AUTHENTICATE done: ek(RndA′) right, both hold key \(key.hex)"
                ctx.sink.add(Field(.ntag.rndARotated, .hex(UltralightAuthentication.rotated(rndA)), range: Type2Response.Layout.authenticationData(ekRndAPrime.count)))
            } else {
                ctx.summary = "AUTHENTICATE done, but ek(RndA′) is wrong for key \(key.hex)"
                ctx.warn("the tag's ek(RndA′) does not decrypt to RndA′ under the key that opened the reader's answer")
            }
        }
        s.authentication = .mutuallyAuthenticated(outcome)
        s.ultralightAuthentication = nil
        if !s.ultralightExchanges.isEmpty { s.ultralightExchanges[s.ultralightExchanges.count - 1].ekRndAPrime = ekRndAPrime }
        if let key = outcome.key, outcome.tagProvedKey == true { s.ultralightKey = key.bytes }
    }
}
