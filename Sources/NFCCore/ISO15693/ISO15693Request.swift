/// One ISO/IEC 15693 request: `flags cmd [mfg | info flags] [UID] parameters` (CRC excluded).
public struct ISO15693Request: Sendable, Hashable {
    public var flags: ISO15693RequestFlags
    public var command: ISO15693Command
    /// The VICC this request is addressed to (the address flag is set).
    public var uid: ISO15693UID?

    /// A UID sets the address flag, so that the request encodes and decodes the same way.
    public init(flags: ISO15693RequestFlags, command: ISO15693Command, uid: ISO15693UID? = nil) {
        var f = flags
        if uid != nil, command.takesUID {
            f.rawValue = (f.rawValue | ISO15693RequestFlags.b6Mask) & ~ISO15693RequestFlags.inventoryMask
        }
        self.flags = f
        self.command = command
        self.uid = command.takesUID ? uid : nil
    }

    /// 2 for the extended commands, and for block commands `20…2D` sent with the protocol
    /// extension flag (protocols.md §6.1; the NXP code in Microsoft's NFC class extension,
    /// `phFriNfc_ISO15693Format`, sends the high byte after the low one for large ST tags).
    /// 1 otherwise (confidence U for the protocol extension case).
    public var blockNumberWidth: Int {
        switch command.code {
        case 0x30...0x3D: return 2
        case 0x20...0x24, 0x2C, 0x2D: return flags.protocolExtension ? 2 : 1
        default: return 1
        }
    }

    /// Where the parts of a request sit (ISO/IEC 15693-3 §7.3): flags, command code, for custom
    /// commands the manufacturer code and for Extended Get System Information its flags, then
    /// the UID of an addressed request, then the command's parameters.
    public enum Layout {
        public static let flags = FieldLayout(0, 1, "request flags")
        public static let command = FieldLayout(1, 1, "command code")
        public static let manufacturer = FieldLayout(2, 1, "IC manufacturer code (custom command)")
        public static let infoRequest = FieldLayout(2, 1, "information request flags")
    }

    /// Where this request's UID sits, when it is addressed.
    public var uidRange: Range<Int>? {
        uid.map { _ in ISO15693UID.Layout.all.range(at: afterHeader) }
    }

    /// Where this request's parameters start.
    public var parametersOffset: Int { afterHeader + (uid == nil ? 0 : ISO15693UID.Layout.all.width) }

    /// The offset after flags, command and (custom, Extended Get System Information) the byte after the code.
    private var afterHeader: Int {
        switch command {
        case .custom: return Layout.manufacturer.end
        case .extendedGetSystemInformation: return Layout.infoRequest.end
        default: return Layout.command.end
        }
    }

    /// Decodes a request payload (CRC removed).
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ISO15693Request {
        var c = ByteCursor(payload)
        let flags = ISO15693RequestFlags(rawValue: try c.readUInt8(Layout.flags))
        let code = try c.readUInt8(Layout.command)
        var r = ParameterReader(cursor: c, flags: flags, code: code)
        switch ISO15693CommandCode.range(of: code) {
        case .rfu:
            return ISO15693Request(flags: flags, command: .rfu(code: code, parameters: r.c.readRest()))
        case .proprietary:
            return ISO15693Request(flags: flags, command: .proprietary(code: code, parameters: r.c.readRest()))
        case .custom:
            let mfg = try r.c.readUInt8(Layout.manufacturer)
            let uid = try r.uid()
            return ISO15693Request(flags: flags, command: .custom(code: code, manufacturer: mfg, parameters: r.c.readRest()), uid: uid)
        case .defined(let known):
            let command: ISO15693Command
            var uid: ISO15693UID? = nil
            switch known {
            case .inventory:
                let afi: UInt8? = flags.afi ? try r.c.readUInt8("AFI (the AFI flag is set)") : nil
                let length = try r.c.readUInt8("mask length (bits)")
                let n = (Int(length) + 7) / 8
                command = .inventory(afi: afi, maskLength: length, mask: try r.c.readBytes(n, "mask value (\(n) bytes for \(length) bits)"))
            case .extendedGetSystemInformation:
                let info = try r.c.readUInt8(Layout.infoRequest)
                uid = try r.uid()
                command = .extendedGetSystemInformation(infoRequest: info)
            case .authenticate, .keyUpdate, .authCommCryptoFormatIndicator, .secureCommCryptoFormatIndicator, .challenge, .readBuffer:
                uid = try r.uid()
                return ISO15693Request(flags: flags, command: .security(known, parameters: r.c.readRest()), uid: uid)
            default:
                uid = try r.uid()
                command = try r.parameters(known)
            }
            try r.c.expectEnd(known.name)
            return ISO15693Request(flags: flags, command: command, uid: uid)
        }
    }

    /// The payload (without CRC). Numbers that do not fit their field are truncated.
    public func encode() -> [UInt8] {
        var out: [UInt8] = [flags.rawValue, command.code]
        switch command {
        case .custom(_, let mfg, _): out.append(mfg)
        case .extendedGetSystemInformation(let info): out.append(info)
        default: break
        }
        if let uid, command.takesUID { out += uid.onAir }
        let wide = blockNumberWidth == 2
        func block(_ b: UInt16) -> [UInt8] { wide ? [UInt8(truncatingIfNeeded: b), UInt8(b >> 8)] : [UInt8(truncatingIfNeeded: b)] }
        func count(_ n: Int) -> [UInt8] {
            let v = n - 1
            return command.code >= 0x30 ? [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] : [UInt8(truncatingIfNeeded: v)]
        }
        switch command {
        case .inventory(let afi, let length, let mask):
            if let afi { out.append(afi) }
            out.append(length)
            out += mask
        case .stayQuiet, .select, .resetToReady, .lockAFI, .lockDSFID, .getSystemInformation, .extendedGetSystemInformation:
            break
        case .readSingleBlock(let b), .lockBlock(let b), .extendedReadSingleBlock(let b), .extendedLockBlock(let b):
            out += block(b)
        case .writeSingleBlock(let b, let d), .extendedWriteSingleBlock(let b, let d):
            out += block(b) + d
        case .readMultipleBlocks(let f, let n), .fastReadMultipleBlocks(let f, let n), .getMultipleBlockSecurityStatus(let f, let n),
             .extendedReadMultipleBlocks(let f, let n), .extendedGetMultipleBlockSecurityStatus(let f, let n),
             .fastExtendedReadMultipleBlocks(let f, let n):
            out += block(f) + count(n)
        case .writeMultipleBlocks(let f, let n, let d), .extendedWriteMultipleBlocks(let f, let n, let d):
            out += block(f) + count(n) + d
        case .writeAFI(let v), .writeDSFID(let v):
            out.append(v)
        case .security(_, let p), .custom(_, _, let p), .proprietary(_, let p), .rfu(_, let p):
            out += p
        }
        return out
    }

    /// The request as sent: payload and CRC (ISO/IEC 13239, low byte first).
    public func frame() -> [UInt8] { CRCBytes(payload: encode(), kind: .b).bytes }

    /// A dense one-line description: `Read Multiple Blocks 0–4`, `Write Single Block 0: E1 40 30 01`.
    public var summary: String {
        switch command {
        case .inventory(let afi, let length, let mask):
            var s = "Inventory, \(flags.oneSlot ? "1 slot" : "16 slots")"
            if let afi { s += ", AFI \(Hex.byte(afi))" }
            s += length == 0 ? ", no mask" : ", mask \(length) bits \(Hex.string(mask))"
            return s
        case .readSingleBlock(let b), .lockBlock(let b), .extendedReadSingleBlock(let b), .extendedLockBlock(let b):
            return "\(command.name) \(b)"
        case .writeSingleBlock(let b, let d), .extendedWriteSingleBlock(let b, let d):
            return "\(command.name) \(b): \(Hex.string(d))"
        case .readMultipleBlocks(let f, let n), .fastReadMultipleBlocks(let f, let n), .getMultipleBlockSecurityStatus(let f, let n),
             .extendedReadMultipleBlocks(let f, let n), .extendedGetMultipleBlockSecurityStatus(let f, let n),
             .fastExtendedReadMultipleBlocks(let f, let n), .writeMultipleBlocks(let f, let n, _),
             .extendedWriteMultipleBlocks(let f, let n, _):
            return n == 1 ? "\(command.name) \(f)" : "\(command.name) \(f)–\(Int(f) + n - 1)"
        case .writeAFI(let v): return "Write AFI \(Hex.byte(v))"
        case .writeDSFID(let v): return "Write DSFID \(Hex.byte(v))"
        case .extendedGetSystemInformation(let info): return "Extended Get System Information, request \(Hex.byte(info))"
        case .custom(let code, let mfg, _):
            let maker = ISO15693UID.manufacturerName(mfg) ?? "manufacturer \(Hex.byte(mfg))"
            if ISO15693CustomCommand.name(code: code, manufacturer: mfg) == nil { return "custom command \(Hex.byte(code)) for \(maker)" }
            return "\(command.name) (\(maker) custom \(Hex.byte(code)))"
        default:
            return command.name
        }
    }
}

/// Reads the fields after the command code, with the block-number width the command and flags
/// call for.
private struct ParameterReader {
    var c: ByteCursor
    let flags: ISO15693RequestFlags
    /// 2-byte block numbers.
    let wide: Bool
    /// 2-byte block counts (extended commands only).
    let wideCount: Bool

    init(cursor: ByteCursor, flags: ISO15693RequestFlags, code: UInt8) {
        c = cursor
        self.flags = flags
        switch code {
        case 0x30...0x3D: wide = true
        case 0x20...0x24, 0x2C, 0x2D: wide = flags.protocolExtension
        default: wide = false
        }
        wideCount = code >= 0x30 && code <= 0x3D
    }

    mutating func uid() throws(DecodeError) -> ISO15693UID? {
        guard flags.carriesUID else { return nil }
        return ISO15693UID(onAir: try c.readBytes(8, "UID (8 bytes, LSB first: the address flag is set)"))
    }

    mutating func block(_ what: String = "block number") throws(DecodeError) -> UInt16 {
        wide ? try c.readUInt16LE("\(what) (2 bytes, LSB first)") : UInt16(try c.readUInt8(what))
    }

    mutating func count() throws(DecodeError) -> Int {
        wideCount ? Int(try c.readUInt16LE("number of blocks − 1 (2 bytes, LSB first)")) + 1
            : Int(try c.readUInt8("number of blocks − 1")) + 1
    }

    /// The rest of the frame as `n` blocks of equal, non-zero size.
    mutating func blockData(blocks n: Int) throws(DecodeError) -> [UInt8] {
        let at = c.offset
        let data = c.readRest()
        guard !data.isEmpty, data.count % n == 0 else {
            throw DecodeError(offset: at, expected: "data of \(n) block\(n == 1 ? "" : "s") (a non-empty multiple of \(n) bytes)",
                              found: "\(data.count) bytes")
        }
        return data
    }

    mutating func parameters(_ known: ISO15693CommandCode) throws(DecodeError) -> ISO15693Command {
        switch known {
        case .stayQuiet: return .stayQuiet
        case .select: return .select
        case .resetToReady: return .resetToReady
        case .lockAFI: return .lockAFI
        case .lockDSFID: return .lockDSFID
        case .getSystemInformation: return .getSystemInformation
        case .writeAFI: return .writeAFI(try c.readUInt8("AFI"))
        case .writeDSFID: return .writeDSFID(try c.readUInt8("DSFID"))
        case .readSingleBlock: return .readSingleBlock(block: try block())
        case .extendedReadSingleBlock: return .extendedReadSingleBlock(block: try block())
        case .lockBlock: return .lockBlock(block: try block())
        case .extendedLockBlock: return .extendedLockBlock(block: try block())
        case .writeSingleBlock:
            let b = try block()
            return .writeSingleBlock(block: b, data: try blockData(blocks: 1))
        case .extendedWriteSingleBlock:
            let b = try block()
            return .extendedWriteSingleBlock(block: b, data: try blockData(blocks: 1))
        case .readMultipleBlocks:
            let f = try block("first block number")
            return .readMultipleBlocks(first: f, count: try count())
        case .fastReadMultipleBlocks:
            let f = try block("first block number")
            return .fastReadMultipleBlocks(first: f, count: try count())
        case .getMultipleBlockSecurityStatus:
            let f = try block("first block number")
            return .getMultipleBlockSecurityStatus(first: f, count: try count())
        case .extendedReadMultipleBlocks:
            let f = try block("first block number")
            return .extendedReadMultipleBlocks(first: f, count: try count())
        case .extendedGetMultipleBlockSecurityStatus:
            let f = try block("first block number")
            return .extendedGetMultipleBlockSecurityStatus(first: f, count: try count())
        case .fastExtendedReadMultipleBlocks:
            let f = try block("first block number")
            return .fastExtendedReadMultipleBlocks(first: f, count: try count())
        case .writeMultipleBlocks:
            let f = try block("first block number")
            let n = try count()
            return .writeMultipleBlocks(first: f, count: n, data: try blockData(blocks: n))
        case .extendedWriteMultipleBlocks:
            let f = try block("first block number")
            let n = try count()
            return .extendedWriteMultipleBlocks(first: f, count: n, data: try blockData(blocks: n))
        case .inventory, .extendedGetSystemInformation, .authenticate, .keyUpdate, .authCommCryptoFormatIndicator,
             .secureCommCryptoFormatIndicator, .challenge, .readBuffer:
            // These do not follow the `[UID] parameters` pattern; `decode` reads them itself.
            throw c.error("a command with standard parameters", found: Hex.byte(known.rawValue))
        }
    }
}
