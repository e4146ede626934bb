/// The cipher of an Ultralight mutual authentication, told apart by the length of the tag's
/// challenge: 8 bytes for MIFARE Ultralight C (2K3DES), 16 for Ultralight AES (AES-128).
public enum UltralightCipherKind: Sendable, Hashable {
    case tripleDES
    case aes

    public init?(challengeLength: Int) {
        switch challengeLength {
        case 8: self = .tripleDES
        case 16: self = .aes
        default: return nil
        }
    }

    /// The length of RndA, RndB and of one cipher block.
    public var blockSize: Int { self == .tripleDES ? 8 : 16 }

    public var name: String { self == .tripleDES ? "3DES" : "AES" }

    /// Ultralight C chains the IV through the exchange: ek(RndB) under a zero IV, the reader's
    /// message under ek(RndB), the tag's answer under the last block of the reader's message
    /// (MF0ICU2; libfreefare and the Proxmark3 client do the same). Ultralight AES starts every
    /// message from a zero IV: measured on the Proxmark3's `hf_14a_mful_aes_defaultkey.trace`,
    /// where only a zero IV yields the reader's RndA `01 … 01` and the tag's RndA′.
    public var chainsIV: Bool { self == .tripleDES }
}

/// A 16-byte Ultralight C (2K3DES) or Ultralight AES key and where it came from.
public struct UltralightKey: Sendable, Hashable {
    public var bytes: [UInt8]
    public var source: String

    public init(_ bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    public var hex: String { Hex.string(bytes, separator: "") }

    /// The key as pages 2C–2F of an Ultralight C hold it: each 8-byte half reversed (so the
    /// factory key reads `BREAKMEIFYOUCAN!` in a dump). The same operation turns pages back
    /// into the key.
    public var pageOrder: [UInt8] { Self.swapPageOrder(bytes) }

    public static func swapPageOrder(_ b: [UInt8]) -> [UInt8] {
        guard b.count == 16 else { return b }
        return Array(b[0..<8].reversed()) + Array(b[8..<16].reversed())
    }

    /// Public default keys, each with its source.
    public static let wellKnown: [UltralightKey] = [
        UltralightKey([0x49, 0x45, 0x4D, 0x4B, 0x41, 0x45, 0x52, 0x42, 0x21, 0x4E, 0x41, 0x43, 0x55, 0x4F, 0x59, 0x46],
                      source: "default: Ultralight C factory key (MF0ICU2 data sheet; BREAKMEIFYOUCAN! in pages 2C–2F)"),
        UltralightKey([UInt8](repeating: 0, count: 16),
                      source: "default: all-zero key (Ultralight AES as delivered; blank Ultralight C)"),
    ]
}

/// MIFARE Ultralight C / Ultralight AES mutual authentication, for the tag, the reader and an
/// observer of both (MF0ICU2 §7.5.5; protocols-wave2.md): reader `1A keyNo`; tag `AF` ek(RndB);
/// reader `AF` ek(RndA ‖ RndB′); tag `00` ek(RndA′), where ′ is a rotation left by one byte.
///
/// MIFARE DESFire EV1's AUTHENTICATE AES (`AA keyNo`) is the same three passes with AES and the
/// IV chained as Ultralight C chains it (`chainsIV`), so the DESFire card uses this type too.
public struct UltralightAuthentication: Sendable {
    public let kind: UltralightCipherKind
    public let cipher: any BlockCipher
    /// Whether each message's IV is the last cipher block before it (Ultralight C, DESFire) or
    /// zero (Ultralight AES).
    public let chainsIV: Bool

    public init(kind: UltralightCipherKind, cipher: any BlockCipher, chainsIV: Bool? = nil) {
        self.kind = kind
        self.cipher = cipher
        self.chainsIV = chainsIV ?? kind.chainsIV
    }

    /// The Ultralight C authentication with a 16-byte key (K1 ‖ K2).
    public static func tripleDES(key: [UInt8]) -> UltralightAuthentication {
        UltralightAuthentication(kind: .tripleDES, cipher: TripleDES(key: key))
    }

    var zeroIV: [UInt8] { [UInt8](repeating: 0, count: kind.blockSize) }

    /// The IV of the reader's message.
    func readerIV(ekRndB: [UInt8]) -> [UInt8] { chainsIV ? ekRndB : zeroIV }

    /// The IV of the tag's answer.
    func tagIV(readerMessage: [UInt8]) -> [UInt8] { chainsIV ? Array(readerMessage.suffix(kind.blockSize)) : zeroIV }

    public static func rotated(_ b: [UInt8]) -> [UInt8] { b.isEmpty ? b : Array(b.dropFirst()) + [b[0]] }

    // MARK: tag

    /// ek(RndB), the tag's challenge.
    public func challenge(rndB: [UInt8]) -> [UInt8] { cipher.encryptCBC(rndB, iv: zeroIV) }

    /// The reader's RndA when its message holds RndB′, nil otherwise (the reader does not know
    /// the key, or answered another challenge).
    public func readerRndA(_ message: [UInt8], rndB: [UInt8], ekRndB: [UInt8]) -> [UInt8]? {
        let n = kind.blockSize
        guard message.count == 2 * n else { return nil }
        let plain = cipher.decryptCBC(message, iv: readerIV(ekRndB: ekRndB))
        guard Array(plain[n...]) == Self.rotated(rndB) else { return nil }
        return Array(plain[..<n])
    }

    /// ek(RndA′), the tag's proof that it holds the key.
    public func answer(rndA: [UInt8], readerMessage: [UInt8]) -> [UInt8] {
        cipher.encryptCBC(Self.rotated(rndA), iv: tagIV(readerMessage: readerMessage))
    }

    // MARK: reader

    /// ek(RndA ‖ RndB′) for the tag's challenge.
    public func readerMessage(ekRndB: [UInt8], rndA: [UInt8]) -> [UInt8] {
        let rndB = cipher.decryptCBC(ekRndB, iv: zeroIV)
        return cipher.encryptCBC(rndA + Self.rotated(rndB), iv: readerIV(ekRndB: ekRndB))
    }

    // MARK: observer

    /// RndB and RndA of a recorded exchange, when this key opens it (the reader's message holds
    /// RndB′ of the decrypted challenge).
    public func open(ekRndB: [UInt8], readerMessage: [UInt8]) -> (rndB: [UInt8], rndA: [UInt8])? {
        guard ekRndB.count == kind.blockSize else { return nil }
        let rndB = cipher.decryptCBC(ekRndB, iv: zeroIV)
        guard let rndA = readerRndA(readerMessage, rndB: rndB, ekRndB: ekRndB) else { return nil }
        return (rndB, rndA)
    }

    /// Whether the tag's answer is ek(RndA′): the tag holds the key too.
    public func tagAnswerIsRight(_ ekRndAPrime: [UInt8], rndA: [UInt8], readerMessage: [UInt8]) -> Bool {
        ekRndAPrime == answer(rndA: rndA, readerMessage: readerMessage)
    }
}
