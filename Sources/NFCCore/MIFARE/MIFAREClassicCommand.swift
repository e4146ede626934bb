/// Commands of MIFARE Classic (Mini, 1K, 2K, 4K, Plus in SL1; protocols-wave2.md §1.1, NXP
/// MF1S50 §10–11). Payloads exclude CRC_A; inside an authenticated session they are the
/// decrypted bytes.
public enum MIFAREClassicCommand: Sendable, Hashable {
    public enum KeyType: String, Sendable, Hashable, CaseIterable {
        case a = "A", b = "B"
    }

    case authenticate(KeyType, block: UInt8)
    case read(block: UInt8)
    /// WRITE part 1; the 16 data bytes follow after the ACK.
    case write(block: UInt8)
    /// WRITE part 2.
    case writeData([UInt8])
    case decrement(block: UInt8)
    case increment(block: UInt8)
    case restore(block: UInt8)
    /// Part 2 of DECREMENT, INCREMENT and RESTORE: a 32-bit operand, LSB first (a dummy for RESTORE).
    case valueOperand(Int32)
    case transfer(block: UInt8)
    case halt
    /// Personalize UID Usage (Classic EV1, after authenticating to sector 0).
    case personalizeUIDUsage(option: UInt8)
    /// SET_MOD_TYPE (Classic EV1): `00` normal, `01` strong load modulation.
    case setModType(UInt8)

    /// Command codes, named as the NXP datasheet does.
    public enum Code: UInt8, Sendable, CaseIterable {
        case authenticateA = 0x60
        case authenticateB = 0x61
        case read = 0x30
        case write = 0xA0
        case decrement = 0xC0
        case increment = 0xC1
        case restore = 0xC2
        case transfer = 0xB0
        case halt = 0x50
        case personalizeUIDUsage = 0x40
        case setModType = 0x43

        public var name: String {
            switch self {
            case .authenticateA: return "AUTH-A"
            case .authenticateB: return "AUTH-B"
            case .read: return "READ"
            case .write: return "WRITE"
            case .decrement: return "DECREMENT"
            case .increment: return "INCREMENT"
            case .restore: return "RESTORE"
            case .transfer: return "TRANSFER"
            case .halt: return "HALT"
            case .personalizeUIDUsage: return "PERSONALIZE_UID_USAGE"
            case .setModType: return "SET_MOD_TYPE"
            }
        }
    }

    /// What the reader sends after the tag's ACK to this command.
    public enum Continuation: Sendable, Hashable {
        case none
        /// After an ACKed WRITE part 1: 16 data bytes.
        case writeData(block: UInt8)
        /// After an ACKed DECREMENT/INCREMENT/RESTORE part 1: the 4-byte operand.
        case valueOperand(Code, block: UInt8)
    }

    /// Where each parameter sits (byte 0 is the command code).
    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        public static let block = FieldLayout(1, 1, "block number")
        /// HALT's second byte, `00`.
        public static let haltZero = FieldLayout(1, 1, "00")
        public static let option = FieldLayout(1, 1, "option byte")
        /// WRITE part 2 (no command code).
        public static let data = FieldLayout(0, 16, "16 data bytes")
        /// Value operation part 2 (no command code).
        public static let operand = FieldLayout(0, 4, "4-byte operand")
        /// A Gen1a backdoor command: one byte, no CRC.
        public static let magic = FieldLayout(0, 1, "magic command")
    }

    public var code: Code? {
        switch self {
        case .authenticate(.a, _): return .authenticateA
        case .authenticate(.b, _): return .authenticateB
        case .read: return .read
        case .write: return .write
        case .decrement: return .decrement
        case .increment: return .increment
        case .restore: return .restore
        case .transfer: return .transfer
        case .halt: return .halt
        case .personalizeUIDUsage: return .personalizeUIDUsage
        case .setModType: return .setModType
        case .writeData, .valueOperand: return nil
        }
    }

    public var name: String {
        switch self {
        case .writeData: return "WRITE data"
        case .valueOperand: return "value operand"
        default: return code?.name ?? "?"
        }
    }

    /// The block a command names, if any.
    public var block: UInt8? {
        switch self {
        case .authenticate(_, let b), .read(let b), .write(let b), .decrement(let b), .increment(let b), .restore(let b), .transfer(let b): return b
        default: return nil
        }
    }

    public static func decode(_ payload: [UInt8], continuation: Continuation = .none) throws(DecodeError) -> MIFAREClassicCommand {
        var c = ByteCursor(payload)
        switch continuation {
        case .writeData:
            let data = try c.readBytes(Layout.data)
            try c.expectEnd("WRITE part 2")
            return .writeData(data)
        case .valueOperand:
            let b = try c.readBytes(Layout.operand)
            try c.expectEnd("value operand")
            return .valueOperand(Int32(bitPattern: UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24))
        case .none:
            break
        }
        let raw = try c.readUInt8(Layout.code)
        guard let code = Code(rawValue: raw) else {
            throw DecodeError(offset: 0, expected: "a MIFARE Classic command code", found: Hex.byte(raw))
        }
        let command: MIFAREClassicCommand
        switch code {
        case .authenticateA: command = .authenticate(.a, block: try c.readUInt8(Layout.block))
        case .authenticateB: command = .authenticate(.b, block: try c.readUInt8(Layout.block))
        case .read: command = .read(block: try c.readUInt8(Layout.block))
        case .write: command = .write(block: try c.readUInt8(Layout.block))
        case .decrement: command = .decrement(block: try c.readUInt8(Layout.block))
        case .increment: command = .increment(block: try c.readUInt8(Layout.block))
        case .restore: command = .restore(block: try c.readUInt8(Layout.block))
        case .transfer: command = .transfer(block: try c.readUInt8(Layout.block))
        case .halt:
            let z = try c.readUInt8(Layout.haltZero)
            guard z == 0 else { throw DecodeError(offset: Layout.haltZero.offset, expected: Layout.haltZero.expected, found: Hex.byte(z)) }
            command = .halt
        case .personalizeUIDUsage: command = .personalizeUIDUsage(option: try c.readUInt8(Layout.option))
        case .setModType: command = .setModType(try c.readUInt8(Layout.option))
        }
        try c.expectEnd("\(code.name) (2 bytes without CRC)")
        return command
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .writeData(let data): w.put(data, Layout.data)
        case .valueOperand(let v): w.putLE(UInt32(bitPattern: v), Layout.operand)
        case .halt:
            w.put(Code.halt.rawValue, Layout.code)
            w.put(0, Layout.haltZero)
        case .personalizeUIDUsage(let o), .setModType(let o):
            w.put(code!.rawValue, Layout.code)
            w.put(o, Layout.option)
        default:
            w.put(code!.rawValue, Layout.code)
            w.put(block ?? 0, Layout.block)
        }
        return w.bytes
    }

    /// What follows this command once the tag ACKs it.
    public var continuation: Continuation {
        switch self {
        case .write(let b): return .writeData(block: b)
        case .decrement(let b): return .valueOperand(.decrement, block: b)
        case .increment(let b): return .valueOperand(.increment, block: b)
        case .restore(let b): return .valueOperand(.restore, block: b)
        default: return .none
        }
    }
}

/// The 4-bit answers of a Classic card (MF1S50 Table 10; protocols-wave2.md §1.2). Names of the
/// NAKs follow NXP; the Proxmark3 names differ (noted in `description`), the values agree.
public enum MIFAREClassicAcknowledgement: Sendable, Hashable, CustomStringConvertible {
    case ack
    case nak(UInt8)

    /// The answer: the low 4 bits of a 4-bit frame.
    public static let layout = FieldLayout(0, 1, "4-bit ACK/NAK")

    public init(_ nibble: UInt8) {
        self = nibble & 0x0F == 0x0A ? .ack : .nak(nibble & 0x0F)
    }

    public var value: UInt8 {
        switch self {
        case .ack: return 0x0A
        case .nak(let v): return v
        }
    }

    public var description: String {
        switch self {
        case .ack: return "ACK"
        case .nak(0x0): return "NAK 0: invalid operation, transfer buffer valid"
        case .nak(0x1): return "NAK 1: parity or CRC error, transfer buffer valid"
        case .nak(0x4): return "NAK 4: invalid operation, transfer buffer invalid"
        case .nak(0x5): return "NAK 5: parity or CRC error, transfer buffer invalid"
        case .nak(0x7): return "NAK 7: EEPROM write error (Proxmark3 name; not in the NXP table)"
        case .nak(let v): return "NAK \(Hex.value(v, digits: 1)) (undefined)"
        }
    }
}

/// Memory geometry of the Classic family (§1.3): sectors of 4 blocks, and on 4K sectors 32–39
/// of 16.
public enum MIFAREClassicLayout {
    /// Every block is 16 bytes (a READ answers one, a WRITE's second part carries one).
    public static let blockSize = 16
    public static func sector(ofBlock block: Int) -> Int { block < 128 ? block / 4 : 32 + (block - 128) / 16 }
    public static func firstBlock(ofSector sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }
    public static func blockCount(ofSector sector: Int) -> Int { sector < 32 ? 4 : 16 }
    public static func trailer(ofSector sector: Int) -> Int { firstBlock(ofSector: sector) + blockCount(ofSector: sector) - 1 }
    public static func isTrailer(_ block: Int) -> Bool { block == trailer(ofSector: sector(ofBlock: block)) }

    /// Which of the trailer's four access conditions governs `block`: 0–2 for data blocks (on
    /// the 16-block sectors of a 4K, blocks 0–4, 5–9, 10–14), 3 for the trailer (§1.4).
    public static func accessGroup(ofBlock block: Int) -> Int {
        let sector = sector(ofBlock: block)
        let offset = block - firstBlock(ofSector: sector)
        if isTrailer(block) { return 3 }
        return blockCount(ofSector: sector) == 16 ? min(offset / 5, 2) : offset
    }
}
