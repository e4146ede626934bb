/// Commands of NFC Forum Type 1 tags (Innovision/Broadcom Jewel and Topaz): NFC Forum Type 1
/// Tag Operation specification §5 (static memory: RID, RALL, READ, WRITE-E, WRITE-NE; dynamic
/// memory: RSEG, READ8, WRITE-E8, WRITE-NE8). Payloads exclude the CRC, which is CRC_B although
/// the frames are ISO 14443-A (T1T Operation §5.3.4; nfcpy's pn533 driver adds and checks
/// `crc_b` for Type 1 in `send_cmd_recv_rsp`). The command byte goes on air as a 7-bit
/// short frame and each following byte as a frame of its own; captures merge them.
public enum Type1Command: Sendable, Hashable {
    /// RID: header ROM and UID0–3 (the UID field is ignored: `78 00 00 00 00 00 00`).
    case readIdentification
    /// RALL: header ROM and the 120 bytes of blocks 0–E.
    case readAll(uid: [UInt8])
    /// READ: one byte of static memory; `address` is block << 3 | byte.
    case read(address: UInt8, uid: [UInt8])
    /// WRITE-E: erase then write one byte.
    case writeErase(address: UInt8, data: UInt8, uid: [UInt8])
    /// WRITE-NE: write one byte without erasing (bits are only set, OTP and lock bits).
    case writeNoErase(address: UInt8, data: UInt8, uid: [UInt8])
    /// RSEG: one 128-byte segment; `segment` is the upper nibble of ADDS.
    case readSegment(segment: UInt8, uid: [UInt8])
    /// READ8: one 8-byte block.
    case read8(block: UInt8, uid: [UInt8])
    /// WRITE-E8: erase then write one 8-byte block.
    case writeErase8(block: UInt8, data: [UInt8], uid: [UInt8])
    /// WRITE-NE8: write one 8-byte block without erasing.
    case writeNoErase8(block: UInt8, data: [UInt8], uid: [UInt8])

    /// Command codes, as the NFC Forum Type 1 Tag Operation specification names them.
    public enum Code: UInt8, Sendable, CaseIterable {
        case rid = 0x78
        case rall = 0x00
        case read = 0x01
        case writeErase = 0x53
        case writeNoErase = 0x1A
        case rseg = 0x10
        case read8 = 0x02
        case writeErase8 = 0x54
        case writeNoErase8 = 0x1B

        public var name: String {
            switch self {
            case .rid: return "RID"
            case .rall: return "RALL"
            case .read: return "READ"
            case .writeErase: return "WRITE-E"
            case .writeNoErase: return "WRITE-NE"
            case .rseg: return "RSEG"
            case .read8: return "READ8"
            case .writeErase8: return "WRITE-E8"
            case .writeNoErase8: return "WRITE-NE8"
            }
        }

        /// Static-memory commands are 7 bytes (CMD ADD DATA UID0–3), dynamic-memory ones 14
        /// (CMD ADD8 DATA×8 UID0–3), T1T Operation §5.
        public var isEightByte: Bool {
            switch self {
            case .rseg, .read8, .writeErase8, .writeNoErase8: return true
            case .rid, .rall, .read, .writeErase, .writeNoErase: return false
            }
        }

        public var payloadLength: Int { isEightByte ? Layout.Long.uid.end : Layout.Short.uid.end }
    }

    public var code: Code {
        switch self {
        case .readIdentification: return .rid
        case .readAll: return .rall
        case .read: return .read
        case .writeErase: return .writeErase
        case .writeNoErase: return .writeNoErase
        case .readSegment: return .rseg
        case .read8: return .read8
        case .writeErase8: return .writeErase8
        case .writeNoErase8: return .writeNoErase8
        }
    }

    /// The UID0–3 a command addresses (RID's is all zero).
    public var uid: [UInt8] {
        switch self {
        case .readIdentification: return [0, 0, 0, 0]
        case .readAll(let u), .read(_, let u), .writeErase(_, _, let u), .writeNoErase(_, _, let u),
             .readSegment(_, let u), .read8(_, let u), .writeErase8(_, _, let u), .writeNoErase8(_, _, let u):
            return u
        }
    }

    /// Where each parameter sits (T1T Operation §5.1, table "command format"); byte 0 is the code.
    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        /// CMD ADD DATA UID0–3.
        public enum Short {
            public static let address = FieldLayout(1, 1, "ADD (block and byte)")
            public static let data = FieldLayout(2, 1, "data byte")
            public static let uid = FieldLayout(3, 4, "UID0–UID3")
        }
        /// CMD ADD8/ADDS DATA×8 UID0–3.
        public enum Long {
            public static let address = FieldLayout(1, 1, "ADD8 (block) or ADDS (segment)")
            public static let data = FieldLayout(2, 8, "8 data bytes")
            public static let uid = FieldLayout(10, 4, "UID0–UID3")
        }
    }

    /// ADD: block number in b6…b3, byte number in b2…b0 (T1T Operation §5.1).
    public static func block(ofAddress address: UInt8) -> UInt8 { (address >> 3) & 0x0F }
    public static func byte(ofAddress address: UInt8) -> UInt8 { address & 0x07 }
    /// The byte offset in memory an ADD names (static memory has 128 addressable bytes).
    public static func offset(ofAddress address: UInt8) -> Int { Int(address & 0x7F) }

    /// Decodes a reader frame payload (without CRC).
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> Type1Command {
        var c = ByteCursor(payload)
        let raw = try c.readUInt8(Layout.code)
        guard let code = Code(rawValue: raw) else {
            throw DecodeError(offset: 0, expected: "a Type 1 command code", found: Hex.byte(raw))
        }
        guard payload.count == code.payloadLength else {
            throw DecodeError(offset: min(payload.count, code.payloadLength),
                              expected: "\(code.name) of \(code.payloadLength) bytes (without CRC)", found: "\(payload.count) bytes")
        }
        if code.isEightByte {
            let address = try c.readUInt8(Layout.Long.address)
            let data = try c.readBytes(Layout.Long.data)
            let uid = try c.readBytes(Layout.Long.uid)
            switch code {
            case .rseg: return .readSegment(segment: address >> 4, uid: uid)
            case .read8: return .read8(block: address, uid: uid)
            case .writeErase8: return .writeErase8(block: address, data: data, uid: uid)
            default: return .writeNoErase8(block: address, data: data, uid: uid)
            }
        }
        let address = try c.readUInt8(Layout.Short.address)
        let data = try c.readUInt8(Layout.Short.data)
        let uid = try c.readBytes(Layout.Short.uid)
        switch code {
        case .rid: return .readIdentification
        case .rall: return .readAll(uid: uid)
        case .read: return .read(address: address, uid: uid)
        case .writeErase: return .writeErase(address: address, data: data, uid: uid)
        default: return .writeNoErase(address: address, data: data, uid: uid)
        }
    }

    /// The payload (without CRC), written through `Layout`. Parameters a command does not use
    /// are zero (RID's UID, RALL's ADD and DATA, READ8's data), as nfcpy sends them.
    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        w.put(code.rawValue, Layout.code)
        switch self {
        case .readIdentification:
            w.put(0, Layout.Short.address)
            w.put(0, Layout.Short.data)
            w.put(uid, Layout.Short.uid)
        case .readAll(let u):
            w.put(0, Layout.Short.address)
            w.put(0, Layout.Short.data)
            w.put(u, Layout.Short.uid)
        case .read(let a, let u):
            w.put(a, Layout.Short.address)
            w.put(0, Layout.Short.data)
            w.put(u, Layout.Short.uid)
        case .writeErase(let a, let d, let u), .writeNoErase(let a, let d, let u):
            w.put(a, Layout.Short.address)
            w.put(d, Layout.Short.data)
            w.put(u, Layout.Short.uid)
        case .readSegment(let s, let u):
            w.put(s << 4, Layout.Long.address)
            w.put([UInt8](repeating: 0, count: Layout.Long.data.width), Layout.Long.data)
            w.put(u, Layout.Long.uid)
        case .read8(let b, let u):
            w.put(b, Layout.Long.address)
            w.put([UInt8](repeating: 0, count: Layout.Long.data.width), Layout.Long.data)
            w.put(u, Layout.Long.uid)
        case .writeErase8(let b, let d, let u), .writeNoErase8(let b, let d, let u):
            w.put(b, Layout.Long.address)
            w.put(d, Layout.Long.data)
            w.put(u, Layout.Long.uid)
        }
        return w.bytes
    }

    /// `READ block 0x1 byte 2`, `WRITE-E8 block 0x02: 03 0C D1 …`.
    public var summary: String {
        switch self {
        case .readIdentification: return "RID"
        case .readAll: return "RALL"
        case .read(let a, _): return "READ " + Self.addressText(a)
        case .writeErase(let a, let d, _): return "WRITE-E \(Self.addressText(a)): \(Hex.byte(d))"
        case .writeNoErase(let a, let d, _): return "WRITE-NE \(Self.addressText(a)): \(Hex.byte(d))"
        case .readSegment(let s, _): return "RSEG segment \(s)"
        case .read8(let b, _): return "READ8 block " + Hex.byte(b)
        case .writeErase8(let b, let d, _): return "WRITE-E8 block \(Hex.byte(b)): \(Hex.string(d))"
        case .writeNoErase8(let b, let d, _): return "WRITE-NE8 block \(Hex.byte(b)): \(Hex.string(d))"
        }
    }

    /// `block 0x1 byte 2 (0x0A)`.
    public static func addressText(_ address: UInt8) -> String {
        "block \(Hex.value(block(ofAddress: address), digits: 1)) byte \(byte(ofAddress: address)) (\(Hex.byte(address)))"
    }
}
