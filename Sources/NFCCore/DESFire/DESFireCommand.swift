/// MIFARE DESFire (EV1/EV2/EV3) native commands and statuses (protocols-wave2.md §5), in the
/// ISO-wrapped form `90 CMD 00 00 [Lc data] 00` → `data 91 STATUS` most readers send. Each code
/// and each parameter layout is written once here; the dissector names and decodes through it.
public enum DESFire {
    /// The CLA of ISO-wrapped native commands.
    public static let wrappedClass: UInt8 = 0x90
    /// SW1 of a wrapped answer: SW2 is the native status.
    public static let statusSW1: UInt8 = 0x91
    public static let additionalFrame: UInt8 = 0xAF

    public static let commandNames: [UInt8: String] = [
        0x0A: "AUTHENTICATE (legacy DES/2K3DES)", 0x1A: "AUTHENTICATE ISO (3DES/3K3DES)", 0xAA: "AUTHENTICATE AES",
        0x71: "AUTHENTICATE EV2 FIRST", 0x77: "AUTHENTICATE EV2 NON-FIRST",
        0x5A: "SELECT APPLICATION", 0x6A: "GET APPLICATION IDS", 0x6D: "GET DF NAMES", 0xCA: "CREATE APPLICATION", 0xDA: "DELETE APPLICATION",
        0x45: "GET KEY SETTINGS", 0x54: "CHANGE KEY SETTINGS", 0x64: "GET KEY VERSION", 0xC4: "CHANGE KEY", 0xC6: "CHANGE KEY EV2",
        0x6F: "GET FILE IDS", 0x61: "GET ISO FILE IDS", 0xF5: "GET FILE SETTINGS", 0x5F: "CHANGE FILE SETTINGS",
        0xCD: "CREATE STD DATA FILE", 0xCB: "CREATE BACKUP DATA FILE", 0xCC: "CREATE VALUE FILE", 0xC1: "CREATE LINEAR RECORD FILE",
        0xC0: "CREATE CYCLIC RECORD FILE", 0xCE: "CREATE TRANSACTION MAC FILE", 0xDF: "DELETE FILE",
        0xBD: "READ DATA", 0xAD: "READ DATA (EV2 chaining)", 0x3D: "WRITE DATA", 0x8D: "WRITE DATA (EV2 chaining)",
        0x6C: "GET VALUE", 0x0C: "CREDIT", 0xDC: "DEBIT", 0x1C: "LIMITED CREDIT",
        0x3B: "WRITE RECORD", 0x8B: "WRITE RECORD (EV2 chaining)", 0xBB: "READ RECORDS", 0xAB: "READ RECORDS (EV2 chaining)",
        0xDB: "UPDATE RECORD", 0xBA: "UPDATE RECORD (EV2 chaining)", 0xEB: "CLEAR RECORD FILE",
        0xC7: "COMMIT TRANSACTION", 0xA7: "ABORT TRANSACTION", 0x60: "GET VERSION", 0x51: "GET CARD UID", 0x6E: "GET FREE MEMORY",
        0x3C: "READ SIGNATURE", 0x5C: "SET CONFIGURATION", 0xFC: "FORMAT PICC", 0xF0: "PREPARE PROXIMITY CHECK", 0xF2: "PROXIMITY CHECK",
        0xFD: "VERIFY PROXIMITY CHECK", 0xEE: "NOTIFY TRANSACTION SUCCESS", 0xAF: "ADDITIONAL FRAME",
    ]

    public static let statusNames: [UInt8: String] = [
        0x00: "operation OK", 0x0C: "no changes", 0x0E: "out of EEPROM", 0x1C: "illegal command code", 0x1E: "integrity error (CRC/MAC/padding)",
        0x40: "no such key", 0x7E: "length error", 0x9D: "permission denied", 0x9E: "parameter error", 0xA0: "application not found",
        0xA1: "application integrity error", 0xAE: "authentication error", 0xAF: "additional frame", 0xBE: "boundary error",
        0xC1: "PICC integrity error", 0xCA: "command aborted", 0xCD: "PICC disabled", 0xCE: "count error", 0xDE: "duplicate error",
        0xEE: "EEPROM error", 0xF0: "file not found", 0xF1: "file integrity error",
    ]

    /// The CMAC an EV1-authenticated card appends to a plain answer (AN12343 §5.3): 8 bytes.
    public static let macLength = 8

    public static func name(_ code: UInt8) -> String { commandNames[code] ?? "command \(Hex.byte(code))" }
    public static func statusName(_ status: UInt8) -> String { statusNames[status] ?? "status \(Hex.byte(status))" }

    /// Where the parameters of a command sit in its data (after the wrapping).
    public enum Layout {
        public static let aid = FieldLayout(0, 3, "3-byte AID, LSB first")
        public static let keyNumber = FieldLayout(0, 1, "key number")
        public static let fileNumber = FieldLayout(0, 1, "file number")
        public static let offset = FieldLayout(1, 3, "3-byte offset, LSB first")
        public static let length = FieldLayout(4, 3, "3-byte length, LSB first (0: all)")
        public static let value = FieldLayout(1, 4, "4-byte value, LSB first")
        public static let firstRecord = FieldLayout(1, 3, "3-byte first record, LSB first")
        public static let recordCount = FieldLayout(4, 3, "3-byte record count, LSB first (0: all)")
    }

    public static func littleEndian(_ b: ArraySlice<UInt8>) -> Int { b.reversed().reduce(0) { $0 << 8 | Int($1) } }

    /// `value` as `count` bytes, least significant first: how DESFire sends AIDs, offsets, lengths, values.
    public static func littleEndian(_ value: Int, count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// An AID as people write it (most significant byte first): `5A 4F 49 D3` selects `D3494F`.
    public static func aid(_ data: [UInt8]) -> UInt32? {
        guard data.count >= Layout.aid.end else { return nil }
        return UInt32(littleEndian(data[Layout.aid.range]))
    }

    /// `SELECT APPLICATION D3494F`, `READ DATA file 15, offset 0, 5 bytes`, `AUTHENTICATE AES key 1`.
    public static func summary(code: UInt8, data: [UInt8]) -> String {
        var s = name(code)
        func at(_ f: FieldLayout) -> Int? { data.count >= f.end ? littleEndian(data[f.range]) : nil }
        switch code {
        case 0x5A, 0xCA, 0xDA:
            if let a = aid(data) { s += " \(Hex.value(a, digits: 6))" + (knownApplications[a].map { " (\($0))" } ?? "") }
        case 0x0A, 0x1A, 0xAA, 0x71, 0x77, 0x64, 0xC4, 0xC6:
            if let k = data.first { s += " key \(k)" }
        case 0xF5, 0x5F, 0xDF, 0x6C, 0xEB, 0xCD, 0xCB, 0xCC, 0xC1, 0xC0:
            if let f = data.first { s += " file \(f)" }
        case 0xBD, 0xAD, 0x3D, 0x8D:
            if let f = data.first, let o = at(Layout.offset), let n = at(Layout.length) { s += " file \(f), offset \(o), " + (n == 0 ? "all bytes" : "\(n) bytes") }
        case 0x0C, 0xDC, 0x1C:
            if let f = data.first, let v = at(Layout.value) { s += " file \(f), \(v)" }
        case 0xBB, 0xAB, 0x3B, 0x8B, 0xDB, 0xBA:
            if let f = data.first, let o = at(Layout.firstRecord), let n = at(Layout.recordCount) { s += " file \(f), from \(o), " + (n == 0 ? "all" : "\(n)") }
        default:
            break
        }
        return s
    }

    /// Public application ids (PM3 `aid_desfire.json`, libfreefare).
    public static let knownApplications: [UInt32: String] = [
        0x000000: "PICC level", 0xD3494F: "HID SIO", 0x000001: "NFC Forum Type 4 (libfreefare)", 0xEEEE10: "NFC Forum Type 4 v1 (libfreefare)",
    ]

    /// GET VERSION's three parts joined (28 bytes): hardware and software version, UID, batch,
    /// production week and year (§5.4).
    public struct Version: Sendable, Hashable {
        public var bytes: [UInt8]
        public init?(_ bytes: [UInt8]) {
            guard bytes.count >= 28 else { return nil }
            self.bytes = Array(bytes.prefix(28))
        }
        public var hardwareMajor: UInt8 { bytes[3] }
        public var hardwareMinor: UInt8 { bytes[4] }
        public var storageSize: UInt8 { bytes[5] }
        public var uid: [UInt8] { Array(bytes[14..<21]) }
        public var productionWeek: UInt8 { bytes[26] }
        public var productionYear: UInt8 { bytes[27] }

        /// EV1, EV2 … from the hardware major/minor (PM3 `getCardType`).
        public var generation: String {
            switch (bytes[1], hardwareMajor, hardwareMinor) {
            case (0x01, 0x00, 0x02): return "MIFARE DESFire (MF3ICD40, EV0)"
            case (0x01, 0x01, 0x00): return "MIFARE DESFire EV1"
            case (0x01, 0x12, 0x00): return "MIFARE DESFire EV2"
            case (0x01, 0x22, 0x00): return "MIFARE DESFire EV2 XL"
            case (0x01, 0x33, 0x00): return "MIFARE DESFire EV3"
            case (0x01, 0xA0, 0x00): return "MIFARE DESFire DUOX"
            case (0x08, 0x30, 0x00): return "MIFARE DESFire Light"
            default: return "DESFire type \(Hex.byte(bytes[1])), version \(hardwareMajor).\(hardwareMinor)"
            }
        }

        /// `4096 bytes`, or `between 4096 and 8192 bytes`.
        public var storageText: String {
            let n = Int(storageSize >> 1)
            guard n < 31 else { return "storage byte \(Hex.byte(storageSize))" }
            return storageSize & 1 == 0 ? "\(1 << n) bytes" : "between \(1 << n) and \(1 << (n + 1)) bytes"
        }
    }

    /// GET FILE SETTINGS (§5.4): type, communication mode, access rights, then the type's sizes.
    public struct FileSettings: Sendable, Hashable {
        public var fileType: UInt8
        public var communication: UInt8
        public var accessRights: UInt16
        public var size: Int?

        public init?(_ data: [UInt8]) {
            guard data.count >= 4 else { return nil }
            fileType = data[0]
            communication = data[1]
            accessRights = UInt16(data[2]) | UInt16(data[3]) << 8
            size = (fileType <= 1 && data.count >= 7) ? littleEndian(data[4..<7]) : nil
        }

        static let typeNames = ["standard data", "backup data", "value", "linear record", "cyclic record", "transaction MAC"]

        public var typeName: String {
            Self.typeNames.indices.contains(Int(fileType)) ? Self.typeNames[Int(fileType)] : "type \(Hex.byte(fileType))"
        }

        public var communicationName: String {
            switch communication & 0x03 {
            case 0x00, 0x02: return "plain"
            case 0x01: return "MACed"
            default: return "fully enciphered"
            }
        }

        /// `read key 1, write key 2, read&write key 0, change key 3`.
        public var accessText: String {
            func key(_ n: UInt16) -> String { n == 0xE ? "free" : n == 0xF ? "never" : "key \(n)" }
            return "read \(key(accessRights >> 12 & 0xF)), write \(key(accessRights >> 8 & 0xF)), read&write \(key(accessRights >> 4 & 0xF)), change \(key(accessRights & 0xF))"
        }
    }
}
