/// HID iClass / PicoPass reader commands on the ISO 15693 air interface (no flags byte, no UID
/// field): the opcode's low nibble is the command, bit 4 picks the credit key for READCHECK and
/// bit 7 makes the byte's parity even. Reader frames of 4 or 12 bytes end in an iClass CRC over
/// everything after the opcode; answers of 10 or 34 bytes end in one over all their data
/// (`IClass.crcStart`). Names as the Proxmark3 gives them (`annotateIclass`).
public enum IClassCommand: Sendable, Hashable {
    case actall
    case identify
    /// `81 CSN(8)`: the anticollision CSN (or the real CSN to wake a halted card).
    case select(csn: [UInt8])
    case read(block: UInt8)
    case read4(block: UInt8)
    /// `88 blk` (debit key Kd) or `18 blk` (credit key Kc): the e-purse, to start authentication.
    case readCheck(block: UInt8, creditKey: Bool)
    /// `05 NR(4) MAC(4)`: the reader's challenge answer.
    case check(nr: [UInt8], mac: [UInt8])
    /// `87 blk data(8)` then a CRC (non-secured page) or a 4-byte MAC (secured page).
    case update(block: UInt8, data: [UInt8], mac: [UInt8]?)
    case pageSelect(page: UInt8)
    case halt
    case detect
    case act

    public enum Code: UInt8, Sendable {
        case actall = 0x0A, identifyOrRead = 0x0C, select = 0x81, read4 = 0x06, readCheckDebit = 0x88, readCheckCredit = 0x18
        case check = 0x05, update = 0x87, pageSelect = 0x84, halt = 0x00, detect = 0x0F, act = 0x8E
    }

    public enum Layout {
        public static let code = FieldLayout(0, 1, "opcode")
        public static let block = FieldLayout(1, 1, "block number")
        public static let page = FieldLayout(1, 1, "page number")
        public static let csn = FieldLayout(1, 8, "CSN (8 bytes)")
        public static let nr = FieldLayout(1, 4, "reader nonce NR (4 bytes)")
        public static let readerMAC = FieldLayout(5, 4, "reader MAC (4 bytes)")
        public static let data = FieldLayout(2, 8, "block data (8 bytes)")
        public static let updateMAC = FieldLayout(10, 4, "MAC (4 bytes)")
    }

    /// Decodes a reader frame without its CRC (`IClass.payload(ofReaderFrame:)` takes it off).
    /// `hadCRC` tells READ from IDENTIFY (the same opcode; only READ carries a block and a CRC).
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> IClassCommand {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        let command: IClassCommand
        switch code {
        case Code.actall.rawValue: command = .actall
        case Code.identifyOrRead.rawValue: command = c.isAtEnd ? .identify : .read(block: try c.readUInt8(Layout.block))
        case Code.select.rawValue: command = .select(csn: try c.readBytes(Layout.csn))
        case Code.read4.rawValue: command = .read4(block: try c.readUInt8(Layout.block))
        case Code.readCheckDebit.rawValue, Code.readCheckCredit.rawValue:
            command = .readCheck(block: try c.readUInt8(Layout.block), creditKey: code == Code.readCheckCredit.rawValue)
        case Code.check.rawValue:
            let nr = try c.readBytes(Layout.nr)
            command = .check(nr: nr, mac: try c.readBytes(Layout.readerMAC))
        case Code.update.rawValue:
            let block = try c.readUInt8(Layout.block)
            let data = try c.readBytes(Layout.data)
            command = .update(block: block, data: data, mac: c.isAtEnd ? nil : try c.readBytes(Layout.updateMAC))
        case Code.pageSelect.rawValue: command = .pageSelect(page: try c.readUInt8(Layout.page))
        case Code.halt.rawValue: command = .halt
        case Code.detect.rawValue: command = .detect
        case Code.act.rawValue: command = .act
        default: throw c.error("an iClass opcode (0A, 0C, 81, 06, 88, 18, 05, 87, 84, 00, 0F, 8E)", found: Hex.byte(code))
        }
        try c.expectEnd(command.name)
        return command
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .actall: w.put(Code.actall.rawValue, Layout.code)
        case .identify: w.put(Code.identifyOrRead.rawValue, Layout.code)
        case .select(let csn): w.put(Code.select.rawValue, Layout.code); w.put(csn, Layout.csn)
        case .read(let b): w.put(Code.identifyOrRead.rawValue, Layout.code); w.put(b, Layout.block)
        case .read4(let b): w.put(Code.read4.rawValue, Layout.code); w.put(b, Layout.block)
        case .readCheck(let b, let credit):
            w.put(credit ? Code.readCheckCredit.rawValue : Code.readCheckDebit.rawValue, Layout.code); w.put(b, Layout.block)
        case .check(let nr, let mac): w.put(Code.check.rawValue, Layout.code); w.put(nr, Layout.nr); w.put(mac, Layout.readerMAC)
        case .update(let b, let data, let mac):
            w.put(Code.update.rawValue, Layout.code); w.put(b, Layout.block); w.put(data, Layout.data)
            if let mac { w.put(mac, Layout.updateMAC) }
        case .pageSelect(let p): w.put(Code.pageSelect.rawValue, Layout.code); w.put(p, Layout.page)
        case .halt: w.put(Code.halt.rawValue, Layout.code)
        case .detect: w.put(Code.detect.rawValue, Layout.code)
        case .act: w.put(Code.act.rawValue, Layout.code)
        }
        return w.bytes
    }

    /// Whether the frame on air ends in a CRC: READ, READ4, PAGESEL and an UPDATE without MAC.
    public var carriesCRC: Bool {
        switch self {
        case .read, .read4, .pageSelect: return true
        case .update(_, _, let mac): return mac == nil
        default: return false
        }
    }

    public var name: String {
        switch self {
        case .actall: return "ACTALL"
        case .identify: return "IDENTIFY"
        case .select: return "SELECT"
        case .read(let b): return "READ(\(b))"
        case .read4(let b): return "READ4(\(b))"
        case .readCheck(let b, let credit): return "READCHECK[\(credit ? "Kc" : "Kd")](\(b))"
        case .check: return "CHECK"
        case .update(let b, _, _): return "UPDATE(\(b))"
        case .pageSelect(let p): return "PAGESEL(\(p))"
        case .halt: return "HALT"
        case .detect: return "DETECT"
        case .act: return "ACT"
        }
    }

    /// The answer's length without its CRC, whether it carries one, or nil for SOF only.
    public var answer: (length: Int, crc: Bool)? {
        switch self {
        case .identify, .select, .read, .update, .pageSelect: return (8, true)
        case .read4: return (32, true)
        case .readCheck: return (8, false)
        case .check: return (4, false)
        case .actall, .halt, .detect, .act: return nil
        }
    }
}

public enum IClass {
    /// Whether a reader frame of this length ends in a CRC: READ, READ4 and PAGESEL (opcode,
    /// one byte, CRC) and UPDATE without MAC (opcode, block, 8 bytes, CRC); the others carry none.
    public static func readerFrameCarriesCRC(length: Int) -> Bool {
        length == IClassCommand.Layout.block.end + 2 || length == IClassCommand.Layout.data.end + 2
    }

    /// Where the CRC's coverage starts: after the opcode in reader frames, at 0 in answers.
    public static func crcStart(fromReader: Bool) -> Int { fromReader ? 1 : 0 }

    /// The reader frame's bytes with a CRC appended over all but the opcode (READ, READ4,
    /// PAGESEL, UPDATE without MAC), as they go on air.
    public static func frame(_ command: IClassCommand) -> [UInt8] {
        let bytes = command.encode()
        return command.carriesCRC ? CRCBytes(payload: bytes, kind: .iclass, coveringFrom: crcStart(fromReader: true)).bytes : bytes
    }

    /// The anticollision CSN that IDENTIFY returns: the CSN rotated right by 3 bits across its 8 bytes.
    public static func anticollisionCSN(_ csn: [UInt8]) -> [UInt8] {
        guard csn.count == 8 else { return csn }
        return (0..<8).map { i in csn[i] >> 3 | csn[(i + 1) % 8] << 5 }
    }

    public static let csnBlock: UInt8 = 0, configurationBlock: UInt8 = 1, epurseBlock: UInt8 = 2
    public static let debitKeyBlock: UInt8 = 3, creditKeyBlock: UInt8 = 4, issuerBlock: UInt8 = 5

    /// Block 1, the configuration block (Proxmark3 `picopass_hdr_t`, Flipper's picopass): one
    /// layout table that decode, encode and the dissector's byte ranges read.
    public struct Configuration: Sendable, Hashable {
        public var applicationLimit: UInt8
        /// Little-endian.
        public var otp: UInt16
        public var writeLock: UInt8
        public var chip: UInt8
        public var memory: UInt8
        public var eas: UInt8
        public var fuses: UInt8

        public enum Layout {
            public static let applicationLimit = FieldLayout(0, 1, "application limit")
            public static let otp = FieldLayout(1, 2, "OTP (2 bytes, LSB first)")
            public static let writeLock = FieldLayout(3, 1, "block write lock")
            public static let chip = FieldLayout(4, 1, "chip configuration")
            public static let memory = FieldLayout(5, 1, "memory configuration")
            public static let eas = FieldLayout(6, 1, "EAS")
            public static let fuses = FieldLayout(7, 1, "fuses")
            /// The two bytes `cardType` reads.
            public static let cardType = FieldLayout(4, 2, "chip and memory configuration")
        }

        public init(applicationLimit: UInt8, otp: UInt16, writeLock: UInt8, chip: UInt8, memory: UInt8, eas: UInt8, fuses: UInt8) {
            self.applicationLimit = applicationLimit
            self.otp = otp
            self.writeLock = writeLock
            self.chip = chip
            self.memory = memory
            self.eas = eas
            self.fuses = fuses
        }

        /// Reads the 8 bytes of block 1.
        public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> Configuration {
            var c = ByteCursor(bytes)
            let limit = try c.readUInt8(Layout.applicationLimit)
            let otp = try c.readUInt16LE(Layout.otp)
            let config = Configuration(applicationLimit: limit, otp: otp, writeLock: try c.readUInt8(Layout.writeLock),
                                       chip: try c.readUInt8(Layout.chip), memory: try c.readUInt8(Layout.memory),
                                       eas: try c.readUInt8(Layout.eas), fuses: try c.readUInt8(Layout.fuses))
            try c.expectEnd("the 8-byte configuration block")
            return config
        }

        public func encode() -> [UInt8] {
            var w = PayloadWriter()
            w.put(applicationLimit, Layout.applicationLimit)
            w.putLE(UInt32(otp), Layout.otp)
            w.put(writeLock, Layout.writeLock)
            w.put(chip, Layout.chip)
            w.put(memory, Layout.memory)
            w.put(eas, Layout.eas)
            w.put(fuses, Layout.fuses)
            return w.bytes
        }

        /// Fuses b4…b5: 0 no authentication, 1 non-secured page, 2 secured (keys locked), 3 secured.
        public var cryptMode: UInt8 { (fuses >> 3) & 0x03 }
        public var personalisationMode: Bool { fuses & 0x80 != 0 }
        public var readAccess: Bool { fuses & 0x01 != 0 }
        /// From the chip and memory bytes (Proxmark3's card type table).
        public var cardType: String {
            switch (chip & 0x10) >> 2 | (memory & 0x80) >> 6 | (memory & 0x20) >> 5 {
            case 0b000: return "PicoPass 16K / 16 pages"
            case 0b001: return "PicoPass 32K, current book 16K / 16"
            case 0b100: return "PicoPass 2K"
            case 0b110: return "PicoPass 16K / 2"
            case 0b111: return "PicoPass 32K, current book 16K / 2"
            default: return "unknown memory configuration"
            }
        }
    }
}
