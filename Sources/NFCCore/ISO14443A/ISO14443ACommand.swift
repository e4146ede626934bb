/// ISO/IEC 14443-3 cascade levels and their SEL codes (protocols.md §1.2).
public enum CascadeLevel: Int, Sendable, Hashable, CaseIterable {
    case one = 1, two = 2, three = 3

    public var selCode: UInt8 {
        switch self {
        case .one: return 0x93
        case .two: return 0x95
        case .three: return 0x97
        }
    }

    public init?(selCode: UInt8) {
        switch selCode {
        case 0x93: self = .one
        case 0x95: self = .two
        case 0x97: self = .three
        default: return nil
        }
    }
}

/// The Number of Valid Bits byte of ANTICOLLISION/SELECT: whole bytes sent (SEL and NVB
/// included) in the high nibble, extra bits in the low nibble.
public struct NVB: Sendable, Hashable {
    public var raw: UInt8
    public init(_ raw: UInt8) { self.raw = raw }
    public init(bytes: Int, bits: Int) { raw = UInt8((bytes & 0xF) << 4 | (bits & 0x7)) }
    public var byteCount: Int { Int(raw >> 4) }
    public var extraBits: Int { Int(raw & 0x0F) }
    /// `0x70`: SEL, NVB and the 40 bits of UID CLn + BCC, i.e. a SELECT.
    public static let select = NVB(bytes: 7, bits: 0)
    public var isSelect: Bool { self == NVB.select }
    /// Number of UID CLn bits the reader sent along (0 for `20`).
    public var uidBitCount: Int { max(0, (byteCount - 2) * 8 + extraBits) }
    /// ISO/IEC 14443-3 §6.5.3.3: byte count 2…7, bit count 0…7, and not beyond 40 UID bits.
    public var isValid: Bool { (2...7).contains(byteCount) && extraBits <= 7 && uidBitCount <= 40 }
}

/// One cascade level's UID bytes: `uid0…uid3` (or `CT uid0 uid1 uid2`) and their BCC.
public struct UIDLevelData: Sendable, Hashable {
    /// Where its values sit, from the start of the level's 5 bytes (inside a SELECT, after SEL
    /// and NVB; alone, in the tag's ANTICOLLISION answer). ISO/IEC 14443-3 §6.5.4.
    public enum Layout {
        public static let uid = FieldLayout(0, 4, "UID CLn (4 bytes)")
        public static let cascadeTag = FieldLayout(0, 1, "cascade tag")
        public static let uidAfterCascadeTag = FieldLayout(1, 3, "3 UID bytes after the cascade tag")
        public static let bcc = FieldLayout(4, 1, "BCC")
    }

    /// The 5 bytes of a cascade level: UID CLn and BCC (the tag's ANTICOLLISION answer).
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> UIDLevelData {
        var c = ByteCursor(bytes)
        let uid = try c.readBytes(Layout.uid)
        let bcc = try c.readUInt8(Layout.bcc)
        try c.expectEnd("UID CLn and BCC")
        return UIDLevelData(bytes: uid, bcc: bcc)
    }

    /// The four UID CLn bytes, cascade tag included.
    public var bytes: [UInt8]
    public var bcc: UInt8

    public init(bytes: [UInt8], bcc: UInt8) {
        self.bytes = bytes
        self.bcc = bcc
    }

    /// Builds a level with the right BCC.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        self.bcc = UIDLevelData.bcc(of: bytes)
    }

    /// ISO/IEC 14443-3 §6.5.3.1: BCC is the XOR of the four UID CLn bytes.
    public static func bcc(of bytes: [UInt8]) -> UInt8 { bytes.reduce(0, ^) }

    public var expectedBCC: UInt8 { UIDLevelData.bcc(of: bytes) }
    public var bccIsValid: Bool { bcc == expectedBCC }
    /// `88` in the first byte announces more cascade levels.
    public var hasCascadeTag: Bool { bytes.first == ISO14443A.cascadeTag }
    /// The UID bytes of this level without the cascade tag.
    public var uidBytes: [UInt8] { Array(uidSlice) }
    /// The same bytes as a slice of `bytes` (no array made).
    public var uidSlice: ArraySlice<UInt8> { hasCascadeTag ? bytes.dropFirst() : bytes[...] }

    /// Splits a full UID (4, 7 or 10 bytes) into its cascade levels (protocols.md §1.4).
    public static func levels(forUID uid: [UInt8]) -> [UIDLevelData]? {
        switch uid.count {
        case 4: return [UIDLevelData(bytes: uid)]
        case 7: return [UIDLevelData(bytes: [ISO14443A.cascadeTag] + uid[0..<3]), UIDLevelData(bytes: Array(uid[3..<7]))]
        case 10:
            return [UIDLevelData(bytes: [ISO14443A.cascadeTag] + uid[0..<3]),
                    UIDLevelData(bytes: [ISO14443A.cascadeTag] + uid[3..<6]),
                    UIDLevelData(bytes: Array(uid[6..<10]))]
        default: return nil
        }
    }
}

public enum ISO14443A {
    /// CT, ISO/IEC 14443-3 §6.5.4.
    public static let cascadeTag: UInt8 = 0x88
    public static let reqa: UInt8 = 0x26
    public static let wupa: UInt8 = 0x52
    /// HLTA `50 00` (§6.4.3).
    public static let hlta: UInt8 = 0x50
    /// RATS (ISO/IEC 14443-4 §5.6.1) and the PPS start byte PPSS `Dx` (§5.6.3).
    public static let rats: UInt8 = 0xE0
    public static let pps: UInt8 = 0xD0
}

/// Reader commands of ISO/IEC 14443-3 type A activation (and RATS/PPS of 14443-4, which still
/// travel before ISO-DEP blocks). Payloads exclude CRC_A; `carriesCRC` says which frames have one.
public enum ISO14443ACommand: Sendable, Hashable {
    case reqa
    case wupa
    /// A 7-bit short frame other than REQA/WUPA (`35` optional time slot, `40…4F`/`78…7F` proprietary).
    case shortFrame(UInt8)
    /// ANTICOLLISION CLn: SEL, NVB and the UID bits the reader already knows.
    case anticollision(level: CascadeLevel, nvb: NVB, knownBits: [UInt8])
    /// SELECT CLn (NVB `70`).
    case select(level: CascadeLevel, uid: UIDLevelData)
    /// HLTA `50 00`.
    case hlta
    /// RATS `E0 param`: FSDI (high nibble) and CID (low nibble).
    case rats(fsdi: UInt8, cid: UInt8)
    /// PPS `Dx PPS0 [PPS1]`.
    case pps(cid: UInt8, pps0: UInt8, pps1: UInt8?)

    /// The PICC's answer to a PPS: its start byte PPSS echoed (ISO/IEC 14443-4 §5.6.3); nil for
    /// other commands.
    public var ppsResponse: [UInt8]? {
        guard case .pps(let cid, _, _) = self else { return nil }
        return [ISO14443A.pps | cid & 0x0F]
    }

    /// FSDI/FSCI → frame size in bytes (ISO/IEC 14443-4 Table 1).
    public static func frameSize(forIndex index: UInt8) -> Int {
        let table = [16, 24, 32, 40, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096]
        return Int(index) < table.count ? table[Int(index)] : 4096   // 0xD…0xF: RFU, treated as 4096 (14443-4:2018)
    }

    /// Whether a reader frame starting like `bytes` is one of these commands (and not a
    /// Type 2 command or ISO-DEP block). Short frames are recognised by their bit count.
    public static func recognises(_ bytes: [UInt8], lastByteBits: UInt8) -> Bool {
        guard let first = bytes.first else { return false }
        if bytes.count == 1 && (lastByteBits == 7 || first == ISO14443A.reqa || first == ISO14443A.wupa) { return true }
        if CascadeLevel(selCode: first) != nil, bytes.count >= 2 { return true }
        if first == 0x50, bytes.count >= 2, bytes[1] == 0x00 { return true }
        return false
    }

    /// Whether the frame (as sent) ends in CRC_A: SELECT, HLTA, RATS and PPS do; short frames
    /// and ANTICOLLISION do not.
    public static func carriesCRC(_ bytes: [UInt8], lastByteBits: UInt8) -> Bool {
        guard let first = bytes.first else { return false }
        if bytes.count == 1 { return false }
        if CascadeLevel(selCode: first) != nil, bytes.count >= 2 { return NVB(bytes[1]).isSelect }
        return true
    }

    /// Where the values of the activation commands sit (ISO/IEC 14443-3 §6.5, 14443-4 §5.6).
    public enum Layout {
        /// SEL, HLTA, RATS or PPSS.
        public static let code = FieldLayout(0, 1, "command code")
        public static let nvb = FieldLayout(1, 1, "NVB")
        /// SELECT: UID CLn and BCC (`UIDLevelData.Layout` inside).
        public static let uidLevel = FieldLayout(2, 5, "UID CLn and BCC")
        public static let hltaZero = FieldLayout(1, 1, "HLTA second byte 00")
        public static let ratsParameter = FieldLayout(1, 1, "RATS parameter byte")
        public static let pps0 = FieldLayout(1, 1, "PPS0")
        public static let pps1 = FieldLayout(2, 1, "PPS1 (announced by PPS0 b5)")

        /// ANTICOLLISION: the UID bits the reader already knows follow NVB.
        public static func knownBits(_ count: Int) -> Range<Int> { nvb.end..<nvb.end + count }
    }

    /// Decodes a reader frame payload (CRC removed).
    public static func decode(_ payload: [UInt8], lastByteBits: UInt8 = 8) throws(DecodeError) -> ISO14443ACommand {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        if payload.count == 1 {
            if code == ISO14443A.reqa { return .reqa }
            if code == ISO14443A.wupa { return .wupa }
            if lastByteBits == 7 { return .shortFrame(code & 0x7F) }
        }
        if let level = CascadeLevel(selCode: code) {
            let nvb = NVB(try c.readUInt8(Layout.nvb))
            if nvb.isSelect {
                let uid = try c.readBytes(UIDLevelData.Layout.uid.width, UIDLevelData.Layout.uid.expected)
                let bcc = try c.readUInt8(UIDLevelData.Layout.bcc.expected)
                try c.expectEnd("SELECT")
                return .select(level: level, uid: UIDLevelData(bytes: uid, bcc: bcc))
            }
            guard nvb.isValid else { throw DecodeError(offset: Layout.nvb.offset, expected: "NVB 20…67", found: Hex.byte(nvb.raw)) }
            let known = c.readRest()
            return .anticollision(level: level, nvb: nvb, knownBits: known)
        }
        switch code {
        case ISO14443A.hlta:
            let b = try c.readUInt8(Layout.hltaZero)
            guard b == 0 else { throw DecodeError(offset: Layout.hltaZero.offset, expected: "00", found: Hex.byte(b)) }
            try c.expectEnd("HLTA")
            return .hlta
        case ISO14443A.rats:
            let p = try c.readUInt8(Layout.ratsParameter)
            try c.expectEnd("RATS")
            return .rats(fsdi: p >> 4, cid: p & 0x0F)
        case ISO14443A.pps...(ISO14443A.pps | 0x0F):
            let pps0 = try c.readUInt8(Layout.pps0)
            let pps1: UInt8? = pps0 & 0x10 != 0 ? try c.readUInt8(Layout.pps1) : nil
            try c.expectEnd("PPS")
            return .pps(cid: code & 0x0F, pps0: pps0, pps1: pps1)
        default:
            throw DecodeError(offset: 0, expected: "an ISO/IEC 14443-3 command", found: Hex.byte(code))
        }
    }

    /// The payload (without CRC) and the valid bits of its last byte.
    public func encode() -> (bytes: [UInt8], lastByteBits: UInt8) {
        switch self {
        case .reqa: return ([ISO14443A.reqa], 7)
        case .wupa: return ([ISO14443A.wupa], 7)
        case .shortFrame(let b): return ([b], 7)
        case .anticollision(let level, let nvb, let known): return ([level.selCode, nvb.raw] + known, 8)
        case .select(let level, let uid): return ([level.selCode, NVB.select.raw] + uid.bytes + [uid.bcc], 8)
        case .hlta: return ([ISO14443A.hlta, 0x00], 8)
        case .rats(let fsdi, let cid): return ([ISO14443A.rats, (fsdi & 0xF) << 4 | (cid & 0xF)], 8)
        case .pps(let cid, let pps0, let pps1): return ([ISO14443A.pps | (cid & 0xF), pps0] + (pps1.map { [$0] } ?? []), 8)
        }
    }

    /// The short name used in summaries, as a Proxmark3 user would expect it.
    public var name: String {
        switch self {
        case .reqa: return "REQA"
        case .wupa: return "WUPA"
        case .shortFrame(let b):
            if b == 0x35 { return "OPTIONAL TIMESLOT" }
            return "short frame \(Hex.byte(b))"
        // Literals: the names are on every activation's hot path.
        case .anticollision(let level, _, _):
            switch level {
            case .one: return "ANTICOLL"
            case .two: return "ANTICOLL-2"
            case .three: return "ANTICOLL-3"
            }
        case .select(let level, _):
            switch level {
            case .one: return "SELECT"
            case .two: return "SELECT-2"
            case .three: return "SELECT-3"
            }
        case .hlta: return "HLTA"
        case .rats: return "RATS"
        case .pps: return "PPS"
        }
    }
}
