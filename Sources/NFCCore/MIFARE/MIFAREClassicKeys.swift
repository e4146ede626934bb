/// A MIFARE Classic key and where it came from (`--keys` file and line, the built-in list, or
/// recovered from the trace).
public struct MIFAREClassicKey: Sendable, Hashable {
    /// The 48 bits as people write them: `0xA0A1A2A3A4A5`.
    public var value: UInt64
    public var source: String
    /// Found from the trace itself rather than given: a secret, masked in output by default.
    public var recovered: Bool

    public init(_ value: UInt64, source: String, recovered: Bool = false) {
        self.value = value & 0xFFFF_FFFF_FFFF
        self.source = source
        self.recovered = recovered
    }

    public var bytes: [UInt8] { Crypto1.key(value) }
    /// `A0A1A2A3A4A5`.
    public var hex: String { Hex.value(value, digits: 12) }

    /// Keys that are public defaults, each with its source. Only these are built in; a key found
    /// with one of them is not a secret.
    public static let wellKnown: [MIFAREClassicKey] = [
        MIFAREClassicKey(0xFFFF_FFFF_FFFF, source: "default: NXP transport configuration (MF1S50 data sheet)"),
        MIFAREClassicKey(0xA0A1_A2A3_A4A5, source: "default: MAD key A (NXP AN10787)"),
        MIFAREClassicKey(0xD3F7_D3F7_D3F7, source: "default: NFC Forum NDEF sector key A (NFC Forum MIFARE Classic mapping)"),
        MIFAREClassicKey(0xB0B1_B2B3_B4B5, source: "default: libnfc nfc-mfclassic key list"),
        MIFAREClassicKey(0x4D3A_99C3_51DD, source: "default: libnfc nfc-mfclassic key list"),
        MIFAREClassicKey(0x1A98_2C7E_459A, source: "default: libnfc nfc-mfclassic key list"),
        MIFAREClassicKey(0xAABB_CCDD_EEFF, source: "default: libnfc nfc-mfclassic key list"),
        MIFAREClassicKey(0x0000_0000_0000, source: "default: libnfc nfc-mfclassic key list"),
        MIFAREClassicKey(0xABCD_EF12_3456, source: "default: libnfc nfc-mfclassic key list"),
    ]
}


/// One authentication as a trace shows it, and what a key does to it (protocols-wave2.md §2.4).
public enum MIFAREClassicAuthentication {
    /// The frames of the three passes: the tag's nT (or {nT}), the reader's {nR}{aR} (8 bytes,
    /// no CRC), the tag's {aT}.
    public enum Layout {
        public static let tagNonce = FieldLayout(0, 4, "4-byte tag nonce")
        public static let readerNonce = FieldLayout(0, 4, "4-byte {nR}")
        public static let readerAnswer = FieldLayout(4, 4, "4-byte {aR}")
        public static let tagAnswer = FieldLayout(0, 4, "4-byte {aT}")
    }

    /// The tag's nonce: in clear on a first authentication, encrypted under the new key's first
    /// keystream word when nested.
    public enum TagNonce: Sendable, Hashable {
        case plain(UInt32)
        case encrypted(UInt32)
    }

    /// What a key that fits makes of the exchange: the plain nonces and the cipher ready for
    /// {aT} (after the keystream that hid {aR}).
    public struct Opened: Sendable {
        public var key: MIFAREClassicKey
        public var nt: UInt32
        public var nr: UInt32
        public var ar: UInt32
        public var cipher: Crypto1
    }

    /// Tries `key` on an authentication of the card `uid` (the 4 bytes of its last cascade
    /// level, as a nonce word): fits when the reader's answer decrypts to suc⁶⁴(nT).
    public static func open(uid: UInt32, nonce: TagNonce, encryptedNR: UInt32, encryptedAR: UInt32, key: MIFAREClassicKey) -> Opened? {
        var c = Crypto1(key: key.bytes)
        let nt: UInt32
        switch nonce {
        case .plain(let n):
            nt = n
            c.word(input: uid ^ n)
        case .encrypted(let e):
            nt = c.wordDecrypting(e, xor: uid)
        }
        let nr = c.wordDecrypting(encryptedNR)
        let ar = encryptedAR ^ c.word()
        guard ar == MIFARENonce.successor(nt, 64) else { return nil }
        return Opened(key: key, nt: nt, nr: nr, ar: ar, cipher: c)
    }

    /// The first key of `keys` that fits.
    public static func open(uid: UInt32, nonce: TagNonce, encryptedNR: UInt32, encryptedAR: UInt32, keys: [MIFAREClassicKey]) -> Opened? {
        for k in keys {
            if let o = open(uid: uid, nonce: nonce, encryptedNR: encryptedNR, encryptedAR: encryptedAR, key: k) { return o }
        }
        return nil
    }
}
