/// ATQA (SENS_RES), protocols.md §1.3. Sent LSB byte first; `value` is the 16-bit number.
public struct ATQA: Sendable, Hashable {
    public enum UIDSize: Sendable, Hashable {
        case single, double, triple, rfu
        public var byteCount: Int? {
            switch self {
            case .single: return 4
            case .double: return 7
            case .triple: return 10
            case .rfu: return nil
            }
        }
    }

    public var value: UInt16

    public init(value: UInt16) { self.value = value }

    /// Sent LSB byte first: the first byte holds UID size and bit frame anticollision (b1…b8),
    /// the second the proprietary coding (b9…b12).
    public enum Layout {
        public static let all = FieldLayout(0, 2, "ATQA (2 bytes)")
        public static let anticollision = FieldLayout(0, 1, "UID size and bit frame anticollision")
        public static let proprietary = FieldLayout(1, 1, "proprietary coding")
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ATQA {
        var c = ByteCursor(payload)
        let v = try c.readUInt16LE(Layout.all.expected)
        try c.expectEnd("ATQA")
        return ATQA(value: v)
    }

    public func encode() -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// b7…b8.
    public var uidSize: UIDSize {
        switch (value >> 6) & 0x3 {
        case 0: return .single
        case 1: return .double
        case 2: return .triple
        default: return .rfu
        }
    }
    /// b1…b5: exactly one bit set for bit-frame anticollision.
    public var bitFrameAnticollision: UInt8 { UInt8(value & 0x1F) }
    public var bitFrameIsValid: Bool { bitFrameAnticollision.nonzeroBitCount == 1 }
    /// b9…b12.
    public var proprietaryCoding: UInt8 { UInt8((value >> 8) & 0x0F) }
    /// b6 and b13…b16 must be 0.
    public var rfuBitsSet: Bool { value & 0xF020 != 0 }
    /// NFC Digital Protocol: b1…b5 all zero and proprietary coding `1100` marks a Type 1 Tag.
    public var isType1Tag: Bool { bitFrameAnticollision == 0 && proprietaryCoding == 0x0C }
}

/// SAK (SEL_RES), protocols.md §1.5.
public struct SAK: Sendable, Hashable {
    public var raw: UInt8
    public init(_ raw: UInt8) { self.raw = raw }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> SAK {
        var c = ByteCursor(payload)
        let v = try c.readUInt8("SAK")
        try c.expectEnd("SAK")
        return SAK(v)
    }

    public func encode() -> [UInt8] { [raw] }

    /// One byte; every bit is a field of its own (b3, b6, b7 …).
    public static let layout = FieldLayout(0, 1, "SAK")

    /// The SAK of a cascade level before the last: `final`'s bits with b3 (UID not complete) set.
    public static func cascade(_ final: SAK) -> SAK { SAK(final.raw | Self.uidIncompleteBit) }

    static let uidIncompleteBit: UInt8 = 0x04

    /// b3: UID not complete, another cascade level follows.
    public var uidIncomplete: Bool { raw & Self.uidIncompleteBit != 0 }
    /// b6: UID complete and ISO/IEC 14443-4 supported.
    public var supportsISODEP: Bool { !uidIncomplete && raw & 0x20 != 0 }
    /// b7: NFC-DEP (ISO/IEC 18092) supported.
    public var supportsNFCDEP: Bool { !uidIncomplete && raw & 0x40 != 0 }
    /// NFC Digital Protocol: b6 and b7 zero with a complete UID = Type 2 Tag platform.
    public var isType2Platform: Bool { !uidIncomplete && raw & 0x60 == 0 && raw & 0x18 == 0 }
    /// Whether the card speaks the MIFARE Classic command set and Crypto1 (protocols-wave2.md
    /// §1.7): Classic Mini/1K/2K/4K, Plus in SL1, Infineon's 1K, and SmartMX cards emulating a
    /// Classic (`28`/`38`, until a RATS switches them to ISO-DEP).
    public var isMIFAREClassic: Bool {
        switch raw {
        case 0x08, 0x09, 0x18, 0x19, 0x88, 0x28, 0x38: return true
        default: return false
        }
    }

    /// MIFARE Classic and friends use b4/b5 (AN10833).
    public var mifareClassicHint: String? {
        guard !uidIncomplete else { return nil }
        switch raw {
        case 0x08: return "MIFARE Classic 1K"
        case 0x18: return "MIFARE Classic 4K"
        case 0x09: return "MIFARE Mini"
        case 0x19: return "MIFARE Classic 2K"
        case 0x88: return "MIFARE Classic 1K (Infineon)"
        case 0x10, 0x11: return "MIFARE Plus (SL2)"
        case 0x28: return "MIFARE Classic 1K emulation with ISO-DEP"
        case 0x38: return "MIFARE Classic 4K emulation with ISO-DEP"
        default: return nil
        }
    }
}

/// ATS (answer to RATS), ISO/IEC 14443-4 §5.2. `TL T0 [TA1] [TB1] [TC1] historical…`.
public struct ATS: Sendable, Hashable {
    public var tl: UInt8
    public var t0: UInt8?
    public var ta1: UInt8?
    public var tb1: UInt8?
    public var tc1: UInt8?
    public var historicalBytes: [UInt8]

    public init(t0: UInt8?, ta1: UInt8? = nil, tb1: UInt8? = nil, tc1: UInt8? = nil, historicalBytes: [UInt8] = []) {
        self.t0 = t0
        self.ta1 = ta1
        self.tb1 = tb1
        self.tc1 = tc1
        self.historicalBytes = historicalBytes
        self.tl = UInt8(1 + (t0 == nil ? 0 : 1) + [ta1, tb1, tc1].compactMap { $0 }.count + historicalBytes.count)
    }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ATS {
        var c = ByteCursor(payload)
        let tl = try c.readUInt8("TL")
        guard Int(tl) == payload.count else {
            throw DecodeError(offset: 0, expected: "TL equal to the ATS length \(payload.count)", found: "\(tl)")
        }
        guard tl > 1 else { return ATS(tl: tl) }
        let t0 = try c.readUInt8("T0")
        let ta1: UInt8? = t0 & 0x10 != 0 ? try c.readUInt8("TA(1) (announced by T0 b5)") : nil
        let tb1: UInt8? = t0 & 0x20 != 0 ? try c.readUInt8("TB(1) (announced by T0 b6)") : nil
        let tc1: UInt8? = t0 & 0x40 != 0 ? try c.readUInt8("TC(1) (announced by T0 b7)") : nil
        return ATS(tl: tl, t0: t0, ta1: ta1, tb1: tb1, tc1: tc1, historicalBytes: c.readRest())
    }

    private init(tl: UInt8, t0: UInt8? = nil, ta1: UInt8? = nil, tb1: UInt8? = nil, tc1: UInt8? = nil, historicalBytes: [UInt8] = []) {
        self.tl = tl
        self.t0 = t0
        self.ta1 = ta1
        self.tb1 = tb1
        self.tc1 = tc1
        self.historicalBytes = historicalBytes
    }

    /// Where each part of this ATS sits: TL first, then T0 and the interface bytes T0 announces
    /// (TA(1), TB(1), TC(1) in that order), then the historical bytes (ISO/IEC 14443-4 §5.2).
    public struct Ranges: Sendable, Hashable {
        public var tl: Range<Int>
        public var t0: Range<Int>?
        public var ta1: Range<Int>?
        public var tb1: Range<Int>?
        public var tc1: Range<Int>?
        public var historicalBytes: Range<Int>?
    }

    public var ranges: Ranges {
        var next = 0
        func take(_ present: Bool, _ count: Int = 1) -> Range<Int>? {
            guard present, count > 0 else { return nil }
            defer { next += count }
            return next..<next + count
        }
        let tl = take(true) ?? 0..<1
        return Ranges(tl: tl, t0: take(t0 != nil), ta1: take(ta1 != nil), tb1: take(tb1 != nil), tc1: take(tc1 != nil),
                      historicalBytes: take(true, historicalBytes.count))
    }

    public func encode() -> [UInt8] {
        var out: [UInt8] = [tl]
        if let t0 { out.append(t0) }
        for b in [ta1, tb1, tc1] { if let b { out.append(b) } }
        return out + historicalBytes
    }

    /// FSCI (T0 b4…b1); 2 (32 bytes) when T0 is absent.
    public var fsci: UInt8 { t0.map { $0 & 0x0F } ?? 2 }
    public var fsc: Int { ISO14443ACommand.frameSize(forIndex: fsci) }
    /// TB(1) b8…b5; 4 when absent.
    public var fwi: UInt8 { tb1.map { $0 >> 4 } ?? 4 }
    /// TB(1) b4…b1; 0 when absent.
    public var sfgi: UInt8 { tb1.map { $0 & 0x0F } ?? 0 }
    /// FWT = 256 × 16 / fc × 2^FWI, in microseconds.
    public var frameWaitingTimeMicroseconds: Double { 256.0 * 16.0 / 13.56 * Double(1 << Int(min(fwi, 14))) }
    public var nadSupported: Bool { (tc1 ?? 0) & 0x01 != 0 }
    public var cidSupported: Bool { tc1.map { $0 & 0x02 != 0 } ?? true }
    /// TA(1) divisors supported (DS = PICC→PCD, DR = PCD→PICC), in kbit/s beyond 106.
    public var bitRatesTagToReader: [Int] { Self.rates(ta1.map { ($0 >> 4) & 0x7 } ?? 0) }
    public var bitRatesReaderToTag: [Int] { Self.rates(ta1.map { $0 & 0x7 } ?? 0) }
    public var sameBitRateBothWays: Bool { (ta1 ?? 0) & 0x80 != 0 }

    static func rates(_ bits: UInt8) -> [Int] {
        var r: [Int] = []
        if bits & 1 != 0 { r.append(212) }
        if bits & 2 != 0 { r.append(424) }
        if bits & 4 != 0 { r.append(848) }
        return r
    }
}

/// ISO/IEC 14443-4 §7.1 block types, named by their PCB.
public enum ISODEPBlock: Sendable, Hashable {
    case i(chaining: Bool, cidFollows: Bool, nadFollows: Bool, blockNumber: UInt8)
    case r(nak: Bool, cidFollows: Bool, blockNumber: UInt8)
    case s(kind: SKind, cidFollows: Bool)

    public enum SKind: Sendable, Hashable {
        case deselect, wtx, parameters, rfu(UInt8)
        public var name: String {
            switch self {
            case .deselect: return "DESELECT"
            case .wtx: return "WTX"
            case .parameters: return "PARAMETERS"
            case .rfu(let b): return "RFU \(Hex.byte(b))"
            }
        }
    }

    /// Classifies a PCB. Returns nil when the byte is no valid PCB (b6 pattern wrong).
    public init?(pcb: UInt8) {
        let cid = pcb & 0x08 != 0
        switch pcb & 0xC0 {
        case 0x00:   // I-block: 00x0 xxx1 per -4:2008 (b2 = 1, b6 = 0)
            guard pcb & 0x22 == 0x02 else { return nil }
            self = .i(chaining: pcb & 0x10 != 0, cidFollows: cid, nadFollows: pcb & 0x04 != 0, blockNumber: pcb & 0x01)
        case 0x80:   // R-block: 101x x01x
            guard pcb & 0x26 == 0x22 else { return nil }
            self = .r(nak: pcb & 0x10 != 0, cidFollows: cid, blockNumber: pcb & 0x01)
        case 0xC0:   // S-block: 11xx x010
            guard pcb & 0x07 == 0x02 else { return nil }
            let kind: SKind
            switch pcb & 0x30 {
            case 0x00: kind = .deselect
            case 0x30: kind = .wtx
            case 0x10: kind = .parameters
            default: kind = .rfu(pcb)
            }
            self = .s(kind: kind, cidFollows: cid)
        default:
            return nil
        }
    }

    public var name: String {
        switch self {
        case .i(let chaining, _, _, let n): return "I-block(\(n))" + (chaining ? " chaining" : "")
        case .r(let nak, _, let n): return "R-block(\(n)) " + (nak ? "NAK" : "ACK")
        case .s(let kind, _): return "S-block " + kind.name
        }
    }

    public var cidFollows: Bool {
        switch self {
        case .i(_, let c, _, _), .r(_, let c, _), .s(_, let c): return c
        }
    }

    public var nadFollows: Bool {
        if case .i(_, _, let nad, _) = self { return nad }
        return false
    }

    /// The same block with or without a CID byte (a PICC answers with the CID the reader's block
    /// carried, ISO/IEC 14443-4 §7.1.1.2).
    public func withCID(_ follows: Bool) -> ISODEPBlock {
        switch self {
        case .i(let chaining, _, let nad, let n): return .i(chaining: chaining, cidFollows: follows, nadFollows: nad, blockNumber: n)
        case .r(let nak, _, let n): return .r(nak: nak, cidFollows: follows, blockNumber: n)
        case .s(let kind, _): return .s(kind: kind, cidFollows: follows)
        }
    }

    /// The PCB byte of this block (ISO/IEC 14443-4 §7.1.1; protocols-wave2.md §3.2).
    public var pcb: UInt8 {
        let cid: UInt8 = cidFollows ? 0x08 : 0
        switch self {
        case .i(let chaining, _, let nad, let n): return 0x02 | (chaining ? 0x10 : 0) | cid | (nad ? 0x04 : 0) | (n & 1)
        case .r(let nak, _, let n): return 0xA2 | (nak ? 0x10 : 0) | cid | (n & 1)
        case .s(let kind, _):
            switch kind {
            case .deselect: return 0xC2 | cid
            case .wtx: return 0xF2 | cid
            case .parameters: return 0xD2 | cid
            case .rfu(let b): return b
            }
        }
    }

    public var blockNumber: UInt8? {
        switch self {
        case .i(_, _, _, let n), .r(_, _, let n): return n
        case .s: return nil
        }
    }
}
