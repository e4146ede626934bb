/// Commands of NXP NTAG21x, MIFARE Ultralight EV1/C/AES and related Type 2 tags
/// (protocols.md §2.1). Payloads exclude CRC_A.
public enum Type2Command: Sendable, Hashable {
    case getVersion
    case read(page: UInt8)
    case fastRead(start: UInt8, end: UInt8)
    case write(page: UInt8, data: [UInt8])
    /// COMPATIBILITY_WRITE part 1; the 16 data bytes follow as a separate frame after the ACK.
    case compatibilityWrite(page: UInt8)
    /// COMPATIBILITY_WRITE part 2 (only meaningful right after an ACKed part 1).
    case compatibilityWriteData([UInt8])
    case readCounter(counter: UInt8)
    /// INCR_CNT: 24-bit increment, LSB first; the fourth byte is ignored by the tag.
    case incrementCounter(counter: UInt8, increment: UInt32, ignored: UInt8)
    case pwdAuth(password: [UInt8])
    case readSignature(address: UInt8)
    case writeSignature(block: UInt8, data: [UInt8])
    case lockSignature(argument: UInt8)
    case checkTearingEvent(counter: UInt8)
    case vcsl(installationIdentifier: [UInt8], pcdCapabilities: [UInt8])
    /// SECTOR_SELECT packet 1 (`C2 FF`).
    case sectorSelect
    /// SECTOR_SELECT packet 2 (sector number and three RFU bytes).
    case sectorSelectSector(sector: UInt8, rfu: [UInt8])
    /// Ultralight C / AES AUTHENTICATE part 1 (`1A 00` / `1A keyNo`).
    case authenticate(keyNumber: UInt8)
    /// AUTHENTICATE part 2: `AF` + ek(RndA ‖ RndB'), 16 bytes (Ultralight C) or 32 (AES).
    case authenticateContinue([UInt8])

    /// Command codes, named as in the NXP datasheets.
    public enum Code: UInt8, Sendable, CaseIterable {
        case getVersion = 0x60
        case read = 0x30
        case fastRead = 0x3A
        case write = 0xA2
        case compatibilityWrite = 0xA0
        case readCounter = 0x39
        case incrementCounter = 0xA5
        case pwdAuth = 0x1B
        case readSignature = 0x3C
        case writeSignature = 0xA9
        case lockSignature = 0xAC
        case checkTearingEvent = 0x3E
        case vcsl = 0x4B
        case sectorSelect = 0xC2
        case authenticate = 0x1A
        case authenticateContinue = 0xAF

        public var name: String {
            switch self {
            case .getVersion: return "GET_VERSION"
            case .read: return "READ"
            case .fastRead: return "FAST_READ"
            case .write: return "WRITE"
            case .compatibilityWrite: return "COMPATIBILITY_WRITE"
            case .readCounter: return "READ_CNT"
            case .incrementCounter: return "INCR_CNT"
            case .pwdAuth: return "PWD_AUTH"
            case .readSignature: return "READ_SIG"
            case .writeSignature: return "WRITE_SIG"
            case .lockSignature: return "LOCK_SIG"
            case .checkTearingEvent: return "CHECK_TEARING_EVENT"
            case .vcsl: return "VCSL"
            case .sectorSelect: return "SECTOR_SELECT"
            case .authenticate: return "AUTHENTICATE"
            case .authenticateContinue: return "AUTHENTICATE part 2"
            }
        }

        /// Payload length (without CRC) the command must have, from its rows; nil when it varies.
        public var payloadLength: Int? { rows.map { $0.last?.end ?? Layout.code.end } }

        /// The command's parameters after the code byte, in payload order (NTAG213/215/216
        /// datasheet §10, MF0ULx1 §8): the one table decode reads, encode writes and
        /// `payloadLength` sums. Nil for AUTHENTICATE part 2, whose one row depends on the
        /// payload's length (`Layout.authenticationData(payloadCount:)`).
        public var rows: [FieldLayout]? { Self.rowTable[Int(rawValue)] }

        private static let rowTable: [[FieldLayout]?] = {
            var table = [[FieldLayout]?](repeating: nil, count: 256)
            for code in allCases { table[Int(code.rawValue)] = code.tableRows }
            return table
        }()

        private var tableRows: [FieldLayout]? {
            switch self {
            case .getVersion: return []
            case .read, .compatibilityWrite: return [Layout.page]
            case .fastRead: return [Layout.startPage, Layout.endPage]
            case .write: return [Layout.page, Layout.writeData]
            case .readCounter, .checkTearingEvent: return [Layout.counter]
            case .incrementCounter: return [Layout.counter, Layout.increment, Layout.ignored]
            case .pwdAuth: return [Layout.password]
            case .readSignature: return [Layout.signatureAddress]
            case .writeSignature: return [Layout.signatureBlock, Layout.signatureData]
            case .lockSignature: return [Layout.lockArgument]
            case .vcsl: return [Layout.installationIdentifier, Layout.pcdCapabilities]
            case .sectorSelect: return [Layout.sectorSelectMarker]
            case .authenticate: return [Layout.keyNumber]
            case .authenticateContinue: return nil
            }
        }
    }

    public var code: Code {
        switch self {
        case .getVersion: return .getVersion
        case .read: return .read
        case .fastRead: return .fastRead
        case .write: return .write
        case .compatibilityWrite, .compatibilityWriteData: return .compatibilityWrite
        case .readCounter: return .readCounter
        case .incrementCounter: return .incrementCounter
        case .pwdAuth: return .pwdAuth
        case .readSignature: return .readSignature
        case .writeSignature: return .writeSignature
        case .lockSignature: return .lockSignature
        case .checkTearingEvent: return .checkTearingEvent
        case .vcsl: return .vcsl
        case .sectorSelect, .sectorSelectSector: return .sectorSelect
        case .authenticate: return .authenticate
        case .authenticateContinue: return .authenticateContinue
        }
    }

    /// What the reader is waiting for after this command, to decode the answer in context.
    public enum Continuation: Sendable, Hashable {
        case none
        /// After an ACKed COMPATIBILITY_WRITE part 1, the next reader frame is 16 data bytes.
        case compatibilityWriteData(page: UInt8)
        /// After an ACKed SECTOR_SELECT packet 1, the next reader frame is the sector packet.
        case sectorSelectSector

        /// The second packet's rows (it has no command code); nil for `.none`.
        public var rows: [FieldLayout]? {
            switch self {
            case .none: return nil
            case .compatibilityWriteData: return [Layout.compatibilityBlock]
            case .sectorSelectSector: return [Layout.sector, Layout.sectorRFU]
            }
        }
    }

    /// Where each parameter sits in a command's payload (NTAG213/215/216 datasheet §10,
    /// MF0ULx1 §8; byte 0 is the command code). Decode reads through these, encode writes
    /// through them, and the dissector takes its byte ranges from them.
    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        public static let page = FieldLayout(1, 1, "page address")
        public static let startPage = FieldLayout(1, 1, "start page")
        public static let endPage = FieldLayout(2, 1, "end page")
        public static let writeData = FieldLayout(2, 4, "4 data bytes")
        public static let counter = FieldLayout(1, 1, "counter number")
        public static let increment = FieldLayout(2, 3, "24-bit increment")
        public static let ignored = FieldLayout(5, 1, "ignored fourth byte")
        public static let password = FieldLayout(1, 4, "4-byte password")
        public static let signatureAddress = FieldLayout(1, 1, "address")
        public static let signatureBlock = FieldLayout(1, 1, "signature block")
        public static let signatureData = FieldLayout(2, 4, "4 data bytes")
        public static let lockArgument = FieldLayout(1, 1, "lock argument")
        public static let installationIdentifier = FieldLayout(1, 16, "16-byte installation identifier")
        public static let pcdCapabilities = FieldLayout(17, 4, "4-byte PCD capabilities")
        /// SECTOR_SELECT packet 1: `C2 FF`.
        public static let sectorSelectMarker = FieldLayout(1, 1, "FF")
        public static let keyNumber = FieldLayout(1, 1, "key number")
        public static let authenticationData = FieldLayout(1, 16, "16 bytes ek(RndA ‖ RndB') (Ultralight C)")
        public static let authenticationDataAES = FieldLayout(1, 32, "32 bytes ek(RndA ‖ RndB') (Ultralight AES)")

        /// The part 2 layout a payload of `count` bytes (code included) has; nil for neither.
        public static func authenticationData(payloadCount count: Int) -> FieldLayout? {
            switch count {
            case authenticationData.end: return authenticationData
            case authenticationDataAES.end: return authenticationDataAES
            default: return nil
            }
        }
        /// COMPATIBILITY_WRITE part 2 (no command code): 16 bytes, of which the tag writes 4.
        public static let compatibilityData = FieldLayout(0, 4, "16 data bytes of COMPATIBILITY_WRITE part 2")
        public static let compatibilityPadding = FieldLayout(4, 12, "16 data bytes of COMPATIBILITY_WRITE part 2")
        /// The whole part 2 as the command carries it.
        public static let compatibilityBlock = FieldLayout(0, 16, "16 data bytes of COMPATIBILITY_WRITE part 2")
        /// SECTOR_SELECT packet 2 (no command code).
        public static let sector = FieldLayout(0, 1, "sector number")
        public static let sectorRFU = FieldLayout(1, 3, "3 RFU bytes of SECTOR_SELECT packet 2")
    }

    /// Decodes a reader frame payload. `continuation` says whether the previous exchange
    /// announced a second packet (COMPATIBILITY_WRITE and SECTOR_SELECT have two).
    /// MIFARE Ultralight AES secure messaging (CFG0 SEC_MSG_ACT set): after AUTHENTICATE every
    /// command and every answer ends in an 8-byte CMAC (the odd bytes of an AES-CMAC under the
    /// session key, over a command counter and the bytes before it); a WRITE's ACK becomes the
    /// CMAC alone. As StuStaPay's and the Flipper's Ultralight AES code send it (NXP's datasheet
    /// is not public): the layout only, nfctrace does not check the CMAC.
    public static let cmacLength = 8

    /// The CMAC at the end of a secure-messaging frame of `count` payload bytes.
    public static func cmacLayout(payloadCount count: Int) -> FieldLayout {
        FieldLayout(count - cmacLength, cmacLength, "8-byte CMAC (secure messaging)")
    }

    /// A fixed-length command followed by a CMAC (secure messaging), or nil when `payload` is
    /// no such thing.
    public static func decodeWithCMAC(_ payload: [UInt8]) -> Type2Command? {
        guard let first = payload.first, let code = Code(rawValue: first), let n = code.payloadLength,
              payload.count == n + cmacLength, code != .authenticate else { return nil }
        return try? decode(Array(payload.prefix(n)))
    }

    /// Names of the Ultralight AES keys (AUTHENTICATE's key number; MF0AES(H)20 as the
    /// Proxmark3 and SpringCard name them).
    public static func aesKeyName(_ number: UInt8) -> String? {
        switch number {
        case 0: return "DataProtKey"
        case 1: return "UIDRetrKey"
        case 2: return "OriginalityKey"
        default: return nil
        }
    }

    public static func decode(_ payload: [UInt8], continuation: Continuation = .none) throws(DecodeError) -> Type2Command {
        var c = ByteCursor(payload)
        if let rows = continuation.rows {
            // Part 2 of COMPATIBILITY_WRITE is all or nothing: 16 bytes, or not part 2.
            if case .compatibilityWriteData = continuation, payload.count != Layout.compatibilityBlock.end {
                throw DecodeError(offset: 0, expected: Layout.compatibilityBlock.expected, found: "\(payload.count) bytes")
            }
            let values = try read(rows, &c)
            try c.expectEnd("SECTOR_SELECT packet 2")
            switch continuation {
            case .compatibilityWriteData: return .compatibilityWriteData(values.bytes(0))
            case .sectorSelectSector, .none: return .sectorSelectSector(sector: values.byte(0), rfu: values.bytes(1))
            }
        }
        let raw = try c.readUInt8(Layout.code)
        guard let code = Code(rawValue: raw) else {
            throw DecodeError(offset: 0, expected: "a Type 2 / NTAG command code", found: Hex.byte(raw))
        }
        let rows: [FieldLayout]
        if let fixed = code.rows {
            rows = fixed
        } else if let layout = Layout.authenticationData(payloadCount: payload.count) {
            rows = [layout]
        } else {
            throw DecodeError(offset: min(payload.count, Layout.authenticationData.end), expected: "AUTHENTICATE part 2 of 17 or 33 bytes (without CRC)",
                              found: "\(payload.count) bytes")
        }
        let n = rows.last?.end ?? Layout.code.end
        guard payload.count == n else {
            throw DecodeError(offset: min(payload.count, n), expected: "\(code.name) of \(n) byte\(n == 1 ? "" : "s") (without CRC)",
                              found: "\(payload.count) bytes")
        }
        let v = try read(rows, &c)
        switch code {
        case .getVersion: return .getVersion
        case .read: return .read(page: v.byte(0))
        case .fastRead: return .fastRead(start: v.byte(0), end: v.byte(1))
        case .write: return .write(page: v.byte(0), data: v.bytes(1))
        case .compatibilityWrite: return .compatibilityWrite(page: v.byte(0))
        case .readCounter: return .readCounter(counter: v.byte(0))
        case .incrementCounter: return .incrementCounter(counter: v.byte(0), increment: v.littleEndian(1), ignored: v.byte(2))
        case .pwdAuth: return .pwdAuth(password: v.bytes(0))
        case .readSignature: return .readSignature(address: v.byte(0))
        case .writeSignature: return .writeSignature(block: v.byte(0), data: v.bytes(1))
        case .lockSignature: return .lockSignature(argument: v.byte(0))
        case .checkTearingEvent: return .checkTearingEvent(counter: v.byte(0))
        case .vcsl: return .vcsl(installationIdentifier: v.bytes(0), pcdCapabilities: v.bytes(1))
        case .sectorSelect:
            guard v.byte(0) == Self.sectorSelectMarker else {
                throw DecodeError(offset: Layout.sectorSelectMarker.offset, expected: Layout.sectorSelectMarker.expected, found: Hex.byte(v.byte(0)))
            }
            return .sectorSelect
        case .authenticate: return .authenticate(keyNumber: v.byte(0))
        case .authenticateContinue: return .authenticateContinue(v.bytes(0))
        }
    }

    /// The values of a command's rows, read in table order: slices of the payload (no copies
    /// for the one-byte parameters of the hot READ/WRITE path).
    struct RowValues {
        let slices: [ArraySlice<UInt8>]
        func bytes(_ i: Int) -> [UInt8] { i < slices.count ? Array(slices[i]) : [] }
        func byte(_ i: Int) -> UInt8 { i < slices.count ? slices[i].first ?? 0 : 0 }
        /// A little-endian number (INCR_CNT's 24-bit increment).
        func littleEndian(_ i: Int) -> UInt32 {
            guard i < slices.count else { return 0 }
            return slices[i].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
    }

    private static func read(_ rows: [FieldLayout], _ c: inout ByteCursor) throws(DecodeError) -> RowValues {
        var slices: [ArraySlice<UInt8>] = []
        slices.reserveCapacity(rows.count)
        for row in rows {
            guard c.offset == row.offset else { throw c.error(row.expected, found: "a layout table out of order at byte \(c.offset)") }
            slices.append(c.bytes[try c.readRange(row.width, row.expected)])
        }
        return RowValues(slices: slices)
    }

    /// The second byte of SECTOR_SELECT packet 1.
    static let sectorSelectMarker: UInt8 = 0xFF

    /// The value of each row, in the order of `code.rows` (or the continuation's rows).
    private enum RowValue {
        case byte(UInt8)
        case bytes([UInt8])
        case littleEndian(UInt32)
    }

    private var rowValues: (rows: [FieldLayout], values: [RowValue]) {
        switch self {
        case .compatibilityWriteData(let d): return ([Layout.compatibilityBlock], [.bytes(d)])
        case .sectorSelectSector(let s, let rfu): return ([Layout.sector, Layout.sectorRFU], [.byte(s), .bytes(rfu)])
        case .authenticateContinue(let d):
            return ([Layout.code, Layout.authenticationData(payloadCount: d.count + 1) ?? Layout.authenticationData], [.byte(code.rawValue), .bytes(d)])
        default: break
        }
        let values: [RowValue]
        switch self {
        case .getVersion, .compatibilityWriteData, .sectorSelectSector, .authenticateContinue: values = []
        case .read(let p), .compatibilityWrite(let p): values = [.byte(p)]
        case .fastRead(let s, let e): values = [.byte(s), .byte(e)]
        case .write(let p, let d): values = [.byte(p), .bytes(d)]
        case .readCounter(let n), .checkTearingEvent(let n): values = [.byte(n)]
        case .incrementCounter(let n, let v, let x): values = [.byte(n), .littleEndian(v), .byte(x)]
        case .pwdAuth(let p): values = [.bytes(p)]
        case .readSignature(let a): values = [.byte(a)]
        case .writeSignature(let b, let d): values = [.byte(b), .bytes(d)]
        case .lockSignature(let a): values = [.byte(a)]
        case .vcsl(let iid, let caps): values = [.bytes(iid), .bytes(caps)]
        case .sectorSelect: values = [.byte(Self.sectorSelectMarker)]
        case .authenticate(let k): values = [.byte(k)]
        }
        return ([Layout.code] + (code.rows ?? []), [.byte(code.rawValue)] + values)
    }

    /// The payload (without CRC), written through the same rows decode reads.
    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        let (rows, values) = rowValues
        for (row, value) in zip(rows, values) {
            switch value {
            case .byte(let b): w.put(b, row)
            case .bytes(let d): w.put(d, row)
            case .littleEndian(let v): w.putLE(v, row)
            }
        }
        return w.bytes
    }

    /// A dense one-line description: `READ page 0x04`, `PWD_AUTH pwd 12 34 56 78`.
    public var summary: String {
        switch self {
        case .getVersion: return "GET_VERSION"
        case .read(let p): return "READ page " + Hex.byte(p)
        case .fastRead(let s, let e): return "FAST_READ pages " + Hex.byte(s) + "…" + Hex.byte(e)
        case .write(let p, let d): return "WRITE page \(Hex.byte(p)): \(Hex.string(d))"
        case .compatibilityWrite(let p): return "COMPATIBILITY_WRITE page \(Hex.byte(p)) (part 1)"
        case .compatibilityWriteData(let d): return "COMPATIBILITY_WRITE data \(Hex.string(d.prefix(4))) (part 2)"
        case .readCounter(let n): return "READ_CNT counter \(n)"
        case .incrementCounter(let n, let v, _): return "INCR_CNT counter \(n) by \(v)"
        case .pwdAuth(let p): return "PWD_AUTH pwd " + Hex.string(p)
        case .readSignature: return "READ_SIG"
        case .writeSignature(let b, let d): return "WRITE_SIG block \(b): \(Hex.string(d))"
        case .lockSignature(let a):
            switch a {
            case 0x00: return "LOCK_SIG unlock"
            case 0x01: return "LOCK_SIG lock"
            case 0x02: return "LOCK_SIG lock permanently"
            default: return "LOCK_SIG \(Hex.byte(a))"
            }
        case .checkTearingEvent(let n): return "CHECK_TEARING_EVENT counter \(n)"
        case .vcsl: return "VCSL"
        case .sectorSelect: return "SECTOR_SELECT (packet 1)"
        case .sectorSelectSector(let s, _): return "SECTOR_SELECT sector \(s) (packet 2)"
        case .authenticate(let k): return "AUTHENTICATE key \(k) (part 1)"
        case .authenticateContinue: return "AUTHENTICATE part 2"
        }
    }
}
