/// The header ROM: HR0 says the memory structure (upper nibble 1 = NFC Forum Type 1, lower
/// nibble 1 = static memory only, 2 = dynamic memory), HR1 is fixed (T1T Operation §2.3).
/// Topaz 96 (BCM20203T96) answers `11 48`, Topaz 512 (BCM20203T512) `12 4C` (Broadcom
/// datasheets; nfcpy `tt1_broadcom.activate` tells them apart the same way).
public struct Type1HeaderROM: Sendable, Hashable {
    public var hr0: UInt8
    public var hr1: UInt8

    public init(hr0: UInt8, hr1: UInt8) {
        self.hr0 = hr0
        self.hr1 = hr1
    }

    public static let topaz96 = Type1HeaderROM(hr0: 0x11, hr1: 0x48)
    public static let topaz512 = Type1HeaderROM(hr0: 0x12, hr1: 0x4C)

    public var bytes: [UInt8] { [hr0, hr1] }
    /// HR0's upper nibble 1: the tag follows the NFC Forum Type 1 memory structure.
    public var isNFCForum: Bool { hr0 >> 4 == 1 }
    /// HR0's lower nibble 1: static memory (120 bytes readable with RALL) only.
    public var isStaticOnly: Bool { hr0 & 0x0F == 1 }

    /// The product the header ROM names, when it is a known one.
    public var productName: String? {
        switch self {
        case .topaz96: return "Topaz 96 (BCM20203T96)"
        case .topaz512: return "Topaz 512 (BCM20203T512)"
        default: return nil
        }
    }
}

/// The answer of a Type 1 tag to one command (T1T Operation §5), decoded against the command.
/// Payloads exclude the CRC_B.
public enum Type1Response: Sendable, Hashable {
    /// RID: HR0 HR1 UID0–3.
    case identification(header: Type1HeaderROM, uid: [UInt8])
    /// RALL: HR0 HR1 and blocks 0–E.
    case all(header: Type1HeaderROM, memory: [UInt8])
    /// READ, WRITE-E, WRITE-NE: the address and the byte now stored there.
    case byte(address: UInt8, data: UInt8)
    /// RSEG: ADDS and 128 bytes.
    case segment(address: UInt8, data: [UInt8])
    /// READ8, WRITE-E8, WRITE-NE8: ADD8 and the 8 bytes now stored there.
    case block(address: UInt8, data: [UInt8])

    /// Where each part of an answer sits.
    public enum Layout {
        public static let hr0 = FieldLayout(0, 1, "HR0")
        public static let hr1 = FieldLayout(1, 1, "HR1")
        public static let ridUID = FieldLayout(2, 4, "UID0–UID3")
        /// Blocks 0–E after the header ROM.
        public static let rallMemory = FieldLayout(2, Type1Memory.staticSize, "120 bytes of blocks 0–E")
        public static let address = FieldLayout(0, 1, "address")
        public static let byteData = FieldLayout(1, 1, "data byte")
        public static let blockData = FieldLayout(1, Type1Memory.blockSize, "8 data bytes")
        public static let segmentData = FieldLayout(1, Type1Memory.segmentSize, "128 bytes of one segment")
    }

    public static func decode(_ payload: [UInt8], to command: Type1Command) throws(DecodeError) -> Type1Response {
        var c = ByteCursor(payload)
        let result: Type1Response
        switch command.code {
        case .rid:
            let header = Type1HeaderROM(hr0: try c.readUInt8(Layout.hr0), hr1: try c.readUInt8(Layout.hr1))
            result = .identification(header: header, uid: try c.readBytes(Layout.ridUID))
        case .rall:
            let header = Type1HeaderROM(hr0: try c.readUInt8(Layout.hr0), hr1: try c.readUInt8(Layout.hr1))
            result = .all(header: header, memory: try c.readBytes(Layout.rallMemory))
        case .read, .writeErase, .writeNoErase:
            result = .byte(address: try c.readUInt8(Layout.address), data: try c.readUInt8(Layout.byteData))
        case .rseg:
            result = .segment(address: try c.readUInt8(Layout.address), data: try c.readBytes(Layout.segmentData))
        case .read8, .writeErase8, .writeNoErase8:
            result = .block(address: try c.readUInt8(Layout.address), data: try c.readBytes(Layout.blockData))
        }
        try c.expectEnd("the end of the \(command.code.name) answer")
        return result
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .identification(let h, let u):
            w.put(h.hr0, Layout.hr0)
            w.put(h.hr1, Layout.hr1)
            w.put(u, Layout.ridUID)
        case .all(let h, let m):
            w.put(h.hr0, Layout.hr0)
            w.put(h.hr1, Layout.hr1)
            w.put(m, Layout.rallMemory)
        case .byte(let a, let d):
            w.put(a, Layout.address)
            w.put(d, Layout.byteData)
        case .segment(let a, let d):
            w.put(a, Layout.address)
            w.put(d, Layout.segmentData)
        case .block(let a, let d):
            w.put(a, Layout.address)
            w.put(d, Layout.blockData)
        }
        return w.bytes
    }

    /// Where the data of this answer lies in tag memory, with the bytes (nil for RID).
    public var memoryContent: (offset: Int, bytes: [UInt8])? {
        switch self {
        case .identification: return nil
        case .all(_, let m): return (0, m)
        case .byte(let a, let d): return (Type1Command.offset(ofAddress: a), [d])
        case .segment(let a, let d): return (Int(a >> 4) * Type1Memory.segmentSize, d)
        case .block(let a, let d): return (Int(a) * Type1Memory.blockSize, d)
        }
    }
}
