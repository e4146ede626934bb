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

        /// Payload length (without CRC) the command must have; nil when it varies.
        public var payloadLength: Int? {
            switch self {
            case .getVersion: return 1
            case .read, .readCounter, .readSignature, .checkTearingEvent, .lockSignature, .sectorSelect, .authenticate, .compatibilityWrite: return 2
            case .fastRead: return 3
            case .pwdAuth: return 5
            case .write, .writeSignature, .incrementCounter: return 6
            case .vcsl: return 21
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
        switch continuation {
        case .compatibilityWriteData:
            guard payload.count == Layout.compatibilityPadding.end else {
                throw DecodeError(offset: 0, expected: Layout.compatibilityData.expected, found: "\(payload.count) bytes")
            }
            return .compatibilityWriteData(payload)
        case .sectorSelectSector:
            let sector = try c.readUInt8(Layout.sector)
            let rfu = try c.readBytes(Layout.sectorRFU)
            try c.expectEnd("SECTOR_SELECT packet 2")
            return .sectorSelectSector(sector: sector, rfu: rfu)
        case .none:
            break
        }
        let raw = try c.readUInt8(Layout.code)
        guard let code = Code(rawValue: raw) else {
            throw DecodeError(offset: 0, expected: "a Type 2 / NTAG command code", found: Hex.byte(raw))
        }
        if let n = code.payloadLength, payload.count != n {
            throw DecodeError(
                offset: min(payload.count, n), expected: "\(code.name) of \(n) byte\(n == 1 ? "" : "s") (without CRC)",
                found: "\(payload.count) bytes")
        }
        switch code {
        case .getVersion: return .getVersion
        case .read: return .read(page: try c.readUInt8(Layout.page))
        case .fastRead: return .fastRead(start: try c.readUInt8(Layout.startPage), end: try c.readUInt8(Layout.endPage))
        case .write: return .write(page: try c.readUInt8(Layout.page), data: try c.readBytes(Layout.writeData))
        case .compatibilityWrite: return .compatibilityWrite(page: try c.readUInt8(Layout.page))
        case .readCounter: return .readCounter(counter: try c.readUInt8(Layout.counter))
        case .incrementCounter:
            let n = try c.readUInt8(Layout.counter)
            let v = try c.readUInt24LE(Layout.increment)
            return .incrementCounter(counter: n, increment: v, ignored: try c.readUInt8(Layout.ignored))
        case .pwdAuth: return .pwdAuth(password: try c.readBytes(Layout.password))
        case .readSignature: return .readSignature(address: try c.readUInt8(Layout.signatureAddress))
        case .writeSignature: return .writeSignature(block: try c.readUInt8(Layout.signatureBlock), data: try c.readBytes(Layout.signatureData))
        case .lockSignature: return .lockSignature(argument: try c.readUInt8(Layout.lockArgument))
        case .checkTearingEvent: return .checkTearingEvent(counter: try c.readUInt8(Layout.counter))
        case .vcsl:
            return .vcsl(installationIdentifier: try c.readBytes(Layout.installationIdentifier),
                         pcdCapabilities: try c.readBytes(Layout.pcdCapabilities))
        case .sectorSelect:
            let b = try c.readUInt8(Layout.sectorSelectMarker)
            guard b == Self.sectorSelectMarker else { throw DecodeError(offset: Layout.sectorSelectMarker.offset, expected: Layout.sectorSelectMarker.expected, found: Hex.byte(b)) }
            return .sectorSelect
        case .authenticate: return .authenticate(keyNumber: try c.readUInt8(Layout.keyNumber))
        case .authenticateContinue:
            guard let layout = Layout.authenticationData(payloadCount: payload.count) else {
                throw DecodeError(offset: min(payload.count, Layout.authenticationData.end), expected: "AUTHENTICATE part 2 of 17 or 33 bytes (without CRC)",
                                  found: "\(payload.count) bytes")
            }
            return .authenticateContinue(try c.readBytes(layout))
        }
    }

    /// The second byte of SECTOR_SELECT packet 1.
    static let sectorSelectMarker: UInt8 = 0xFF

    /// The payload (without CRC), written through `Layout`; the code byte is `code.rawValue`.
    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        switch self {
        case .compatibilityWriteData(let d): return d
        case .sectorSelectSector(let s, let rfu):
            w.put(s, Layout.sector)
            w.put(rfu, Layout.sectorRFU)
            return w.bytes
        default:
            w.put(code.rawValue, Layout.code)
        }
        switch self {
        case .getVersion, .compatibilityWriteData, .sectorSelectSector: break
        case .read(let p), .compatibilityWrite(let p): w.put(p, Layout.page)
        case .fastRead(let s, let e):
            w.put(s, Layout.startPage)
            w.put(e, Layout.endPage)
        case .write(let p, let d):
            w.put(p, Layout.page)
            w.put(d, Layout.writeData)
        case .readCounter(let n), .checkTearingEvent(let n): w.put(n, Layout.counter)
        case .incrementCounter(let n, let v, let x):
            w.put(n, Layout.counter)
            w.putLE(v, Layout.increment)
            w.put(x, Layout.ignored)
        case .pwdAuth(let p): w.put(p, Layout.password)
        case .readSignature(let a): w.put(a, Layout.signatureAddress)
        case .writeSignature(let b, let d):
            w.put(b, Layout.signatureBlock)
            w.put(d, Layout.signatureData)
        case .lockSignature(let a): w.put(a, Layout.lockArgument)
        case .vcsl(let iid, let caps):
            w.put(iid, Layout.installationIdentifier)
            w.put(caps, Layout.pcdCapabilities)
        case .sectorSelect: w.put(Self.sectorSelectMarker, Layout.sectorSelectMarker)
        case .authenticate(let k): w.put(k, Layout.keyNumber)
        case .authenticateContinue(let d): w.put(d, Layout.authenticationData(payloadCount: d.count + 1) ?? Layout.authenticationData)
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
