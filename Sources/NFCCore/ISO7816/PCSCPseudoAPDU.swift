/// The class-`FF` commands a contactless PC/SC reader answers itself instead of passing them to
/// the card (PC/SC Part 3 §3.2.2; protocols-wave2.md §7.1), and ACS's escape to the reader's
/// PN532 (`FF 00 00 00 Lc D4 …`). The emulator's reader (`PCSCContactlessCard`) decodes them, the
/// PC/SC replay target encodes them: the layouts are here once.
public enum PCSCPseudoAPDU: Sendable, Hashable {
    /// GET DATA `FF CA 00 00 Le`: the UID (IDm of a FeliCa card, UID of a VICC).
    case getUID(le: Int?)
    /// GET DATA `FF CA 01 00 Le`: the ATS's historical bytes.
    case getHistoricalBytes(le: Int?)
    /// LOAD KEYS `FF 82 00 slot 06 key`, into a volatile key slot.
    case loadKey(slot: UInt8, key: [UInt8])
    /// GENERAL AUTHENTICATE `FF 86 00 00 05 01 00 block keyType slot` (keyType `60` key A, `61` key B).
    case authenticate(block: UInt8, keyType: UInt8, slot: UInt8)
    /// The PC/SC 2.01 form `FF 88 00 block 02 keyType slot`, which ACS readers still take.
    case authenticateObsolete(block: UInt8, keyType: UInt8, slot: UInt8)
    /// READ BINARY `FF B0 00 block Le`: a Type 2 page run, a Classic block, a VICC block.
    case readBinary(block: UInt8, le: Int?)
    /// UPDATE BINARY `FF D6 00 block Lc data`.
    case updateBinary(block: UInt8, data: [UInt8])
    /// ACS direct transmit `FF 00 00 00 Lc payload`: a PN532 command (`D4 …`), or a FeliCa command
    /// with its length byte on FeliCa-capable ACS readers.
    case directTransmit([UInt8])
    /// ACS `FF 00 48 00 00`: the reader's firmware string, answered without a status word.
    case readerFirmware
    /// ACS VALUE BLOCK OPERATION `FF D7 00 block 05 op value` (value most significant byte first):
    /// a MIFARE Classic value stored, or incremented/decremented and transferred to the same block.
    case valueOperation(block: UInt8, operation: ValueOperation, value: Int32)
    /// ACS RESTORE VALUE BLOCK `FF D7 00 source 02 03 target`.
    case restoreValue(source: UInt8, target: UInt8)
    /// Any other class-`FF` command (ACS's READ VALUE BLOCK `FF B1`, …).
    case other(CommandAPDU)

    /// The operation byte of ACS's VALUE BLOCK OPERATION.
    public enum ValueOperation: UInt8, Sendable, Hashable {
        case store = 0x00, increment = 0x01, decrement = 0x02
    }

    /// RESTORE VALUE BLOCK's first data byte.
    static let restoreMarker: UInt8 = 0x03

    public static let cla: UInt8 = 0xFF

    public enum Instruction {
        public static let getData: UInt8 = 0xCA
        public static let loadKeys: UInt8 = 0x82
        public static let generalAuthenticate: UInt8 = 0x86
        public static let authenticateObsolete: UInt8 = 0x88
        public static let readBinary: UInt8 = 0xB0
        public static let updateBinary: UInt8 = 0xD6
        public static let escape: UInt8 = 0x00
        /// ACS's VALUE BLOCK OPERATION and RESTORE VALUE BLOCK (`FF D7 00 block …`), READ VALUE
        /// BLOCK (`FF B1`): MIFARE Classic value blocks on ACR122U-family readers.
        public static let valueBlockOperation: UInt8 = 0xD7
        public static let readValueBlock: UInt8 = 0xB1
        /// GENERAL AUTHENTICATE's data block: version `01`, then `00`, block, key type, slot.
        public static let authenticateVersion: UInt8 = 0x01
    }

    /// Nil for an APDU of another class (one the reader passes to the card).
    public init?(_ apdu: CommandAPDU) {
        guard apdu.cla == Self.cla else { return nil }
        let d = apdu.data
        switch (apdu.ins, apdu.p1, apdu.p2) {
        case (Instruction.getData, 0x00, 0x00): self = .getUID(le: apdu.le)
        case (Instruction.getData, 0x01, 0x00): self = .getHistoricalBytes(le: apdu.le)
        case (Instruction.loadKeys, _, let slot) where d.count == 6: self = .loadKey(slot: slot, key: d)
        case (Instruction.generalAuthenticate, 0x00, 0x00) where d.count == 5 && d[0] == Instruction.authenticateVersion:
            self = .authenticate(block: d[2], keyType: d[3], slot: d[4])
        case (Instruction.authenticateObsolete, _, let block) where d.count == 2:
            self = .authenticateObsolete(block: block, keyType: d[0], slot: d[1])
        case (Instruction.readBinary, 0x00, let block) where d.isEmpty: self = .readBinary(block: block, le: apdu.le)
        case (Instruction.updateBinary, 0x00, let block) where !d.isEmpty: self = .updateBinary(block: block, data: d)
        case (Instruction.escape, PN532.acr122FirmwareP1, 0x00) where d.isEmpty: self = .readerFirmware
        case (Instruction.escape, 0x00, 0x00) where !d.isEmpty: self = .directTransmit(d)
        case (Instruction.valueBlockOperation, 0x00, let block) where d.count == 5 && ValueOperation(rawValue: d[0]) != nil:
            self = .valueOperation(block: block, operation: ValueOperation(rawValue: d[0])!, value: Int32(bitPattern: d[1...4].reduce(0) { $0 << 8 | UInt32($1) }))
        case (Instruction.valueBlockOperation, 0x00, let source) where d.count == 2 && d[0] == Self.restoreMarker:
            self = .restoreValue(source: source, target: d[1])
        default: self = .other(apdu)
        }
    }

    public var apdu: CommandAPDU {
        func ff(_ ins: UInt8, _ p1: UInt8 = 0, _ p2: UInt8 = 0, _ data: [UInt8] = [], le: Int? = nil) -> CommandAPDU {
            CommandAPDU(cla: Self.cla, ins: ins, p1: p1, p2: p2, data: data, le: le)
        }
        switch self {
        case .getUID(let le): return ff(Instruction.getData, le: le ?? 256)
        case .getHistoricalBytes(let le): return ff(Instruction.getData, 0x01, le: le ?? 256)
        case .loadKey(let slot, let key): return ff(Instruction.loadKeys, 0x00, slot, key)
        case .authenticate(let block, let type, let slot):
            return ff(Instruction.generalAuthenticate, 0, 0, [Instruction.authenticateVersion, 0x00, block, type, slot])
        case .authenticateObsolete(let block, let type, let slot): return ff(Instruction.authenticateObsolete, 0, block, [type, slot])
        case .readBinary(let block, let le): return ff(Instruction.readBinary, 0, block, le: le ?? 256)
        case .updateBinary(let block, let data): return ff(Instruction.updateBinary, 0, block, data)
        case .directTransmit(let payload): return ff(Instruction.escape, 0, 0, payload)
        case .readerFirmware: return CommandAPDU(cla: Self.cla, ins: Instruction.escape, p1: PN532.acr122FirmwareP1, p2: 0, le: 256)
        case .valueOperation(let block, let operation, let value):
            let v = UInt32(bitPattern: value)
            return ff(Instruction.valueBlockOperation, 0, block, [operation.rawValue] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) })
        case .restoreValue(let source, let target): return ff(Instruction.valueBlockOperation, 0, source, [Self.restoreMarker, target])
        case .other(let apdu): return apdu
        }
    }

    public func encode() -> [UInt8] { apdu.encode() }
}
