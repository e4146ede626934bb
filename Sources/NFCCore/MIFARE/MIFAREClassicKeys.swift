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
    ] + accessSystems

    /// The keys the Proxmark3 client tries first for common access, hotel, transit and ID
    /// systems (its compiled-in default list; the systems named as its dictionary names them,
    /// in our words). Public, as the others are: a key found with one of them is not masked.
    static let accessSystems: [MIFAREClassicKey] = [
        (0x5C8F_F999_0DA2, "MIFARE Classic EV1 signature sector 16, key A"), (0xD01A_FEEB_890A, "MIFARE Classic EV1 signature sector 16, key B"),
        (0x75CC_B59C_9BED, "MIFARE Classic EV1 signature sector 17, key A"), (0x4B79_1BEA_7BCC, "MIFARE Classic EV1 signature sector 17, key B"),
        (0x89EC_A97F_8C2A, "MAD key B"), (0xA5A4_A3A2_A1A0, "MAD key A, bytes reversed"),
        (0xFC00_0187_78F7, "public transport (RKF), key A"), (0x6471_A5EF_2D1A, "SimonsVoss"), (0x4E35_5242_6B32, "ID06 site ID cards"),
        (0x6A19_87C4_0A21, "Salto"), (0x7F33_625B_C129, "Salto"), (0xEF12_32AB_18A0, "Schlage"),
        (0x4849_4420_4953, "HID MIFARE Classic 1K"), (0x2047_5245_4154, "HID MIFARE Classic 1K"),
        (0x3B7E_4FD5_75AD, "HID MIFARE SO (SIO)"), (0x1149_6F97_752A, "HID MIFARE SO (SIO)"),
        (0xB7BF_0C13_066E, "Gallagher"), (0x135B_88A9_4B8B, "Saflok hotel locks"), (0x2A2C_13CC_242A, "dormakaba hotel locks"),
        (0x5A7A_52D5_E20D, "Bosch access control"), (0x314B_4947_4956, "Vigik, key A"), (0x564C_505F_4D41, "Vigik, key B"),
        (0x0212_0919_7591, "BTicino"), (0x4845_5841_4354, "Intratone"), (0xEC0A_9B1A_9E06, "Vingcard"), (0x66B3_1E64_CA4B, "Vingcard"),
        (0x0000_014B_5C31, "Vingcard"), (0x96A3_01BC_E267, "Vingcard"), (0x97F5_DA64_0B18, "Bangkok metro"), (0xA884_4B0B_CA06, "Metro Valencia"),
        (0xE441_0EF8_ED2D, "Armenian metro"), (0x8574_64D3_AAD1, "HTC Eindhoven"), (0x08B3_8646_3229, "Troika"), (0xE000_0000_0000, "iCopy-X"),
        (0x1994_0428_1970, "NSP Global, key A"), (0x1994_0428_1998, "NSP Global, key B"), (0x3E65_E4FB_65B3, "gym access"),
        (0x1A2B_3C4D_5E6F, "test pattern"), (0x1234_5678_9ABC, "test pattern"), (0x0102_0304_0506, "test pattern"), (0x1234_56AB_CDEF, "test pattern"),
        (0xC0C1_C2C3_C4C5, "test pattern"), (0xD0D1_D2D3_D4D5, "test pattern"),
        (0x714C_5C88_6E97, "common default"), (0x587E_E5F9_350F, "common default"), (0xA047_8CC3_9091, "common default"),
        (0x533C_B6C7_23F6, "common default"), (0x8FD0_A4F2_56E9, "common default"), (0xB578_F38A_5C61, "common default"),
    ].map { MIFAREClassicKey($0.0, source: "default: Proxmark3 default key list (\($0.1))") }
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
