/// What an ISO/IEC 15693 request asks, with its typed parameters (protocols.md §6.4).
/// Block numbers are `UInt16` because the extended commands (`30…3D`) and the protocol
/// extension flag use 2-byte block numbers; counts are block counts (the frame carries count − 1).
public enum ISO15693Command: Sendable, Hashable {
    /// AFI present when the AFI flag is set; `mask` holds ⌈maskLength / 8⌉ bytes, LSB first.
    case inventory(afi: UInt8?, maskLength: UInt8, mask: [UInt8])
    case stayQuiet
    case readSingleBlock(block: UInt16)
    /// `data` is one block; its size is not in the frame.
    case writeSingleBlock(block: UInt16, data: [UInt8])
    case lockBlock(block: UInt16)
    case readMultipleBlocks(first: UInt16, count: Int)
    /// `data` holds `count` blocks of `data.count / count` bytes.
    case writeMultipleBlocks(first: UInt16, count: Int, data: [UInt8])
    case select
    case resetToReady
    case writeAFI(UInt8)
    case lockAFI
    case writeDSFID(UInt8)
    case lockDSFID
    case getSystemInformation
    case getMultipleBlockSecurityStatus(first: UInt16, count: Int)
    case fastReadMultipleBlocks(first: UInt16, count: Int)
    case extendedReadSingleBlock(block: UInt16)
    case extendedWriteSingleBlock(block: UInt16, data: [UInt8])
    case extendedLockBlock(block: UInt16)
    case extendedReadMultipleBlocks(first: UInt16, count: Int)
    case extendedWriteMultipleBlocks(first: UInt16, count: Int, data: [UInt8])
    /// `35…3A` (ISO/IEC 29167 crypto suites): parameters after the optional UID, kept raw.
    case security(ISO15693CommandCode, parameters: [UInt8])
    /// The information-request flags byte comes **before** the optional UID.
    case extendedGetSystemInformation(infoRequest: UInt8)
    case extendedGetMultipleBlockSecurityStatus(first: UInt16, count: Int)
    case fastExtendedReadMultipleBlocks(first: UInt16, count: Int)
    /// `A0…DF`: IC manufacturer code, then the optional UID, then vendor parameters.
    case custom(code: UInt8, manufacturer: UInt8, parameters: [UInt8])
    /// `E0…FF`: layout undocumented, everything after the code kept raw.
    case proprietary(code: UInt8, parameters: [UInt8])
    /// RFU codes: everything after the code kept raw.
    case rfu(code: UInt8, parameters: [UInt8])

    public var code: UInt8 {
        switch self {
        case .inventory: return 0x01
        case .stayQuiet: return 0x02
        case .readSingleBlock: return 0x20
        case .writeSingleBlock: return 0x21
        case .lockBlock: return 0x22
        case .readMultipleBlocks: return 0x23
        case .writeMultipleBlocks: return 0x24
        case .select: return 0x25
        case .resetToReady: return 0x26
        case .writeAFI: return 0x27
        case .lockAFI: return 0x28
        case .writeDSFID: return 0x29
        case .lockDSFID: return 0x2A
        case .getSystemInformation: return 0x2B
        case .getMultipleBlockSecurityStatus: return 0x2C
        case .fastReadMultipleBlocks: return 0x2D
        case .extendedReadSingleBlock: return 0x30
        case .extendedWriteSingleBlock: return 0x31
        case .extendedLockBlock: return 0x32
        case .extendedReadMultipleBlocks: return 0x33
        case .extendedWriteMultipleBlocks: return 0x34
        case .security(let c, _): return c.rawValue
        case .extendedGetSystemInformation: return 0x3B
        case .extendedGetMultipleBlockSecurityStatus: return 0x3C
        case .fastExtendedReadMultipleBlocks: return 0x3D
        case .custom(let c, _, _), .proprietary(let c, _), .rfu(let c, _): return c
        }
    }

    /// The command's name; custom commands are named after their IC manufacturer when known.
    public var name: String {
        switch self {
        case .custom(let code, let mfg, _):
            if let known = ISO15693CustomCommand.name(code: code, manufacturer: mfg) { return known.name }
            return "custom command \(Hex.byte(code))"
        case .proprietary(let code, _): return "proprietary command \(Hex.byte(code))"
        case .rfu(let code, _): return "RFU command \(Hex.byte(code))"
        default: return ISO15693CommandCode(rawValue: code)?.name ?? Hex.byte(code)
        }
    }

    /// Whether the address flag puts a UID into this command (Inventory never has one; RFU
    /// and proprietary layouts are unknown, so their bytes stay raw).
    public var takesUID: Bool {
        switch self {
        case .inventory, .proprietary, .rfu: return false
        default: return true
        }
    }

    /// First block and block count of commands that touch a block range.
    public var blockRange: (first: Int, count: Int)? {
        switch self {
        case .readSingleBlock(let b), .writeSingleBlock(let b, _), .lockBlock(let b),
             .extendedReadSingleBlock(let b), .extendedWriteSingleBlock(let b, _), .extendedLockBlock(let b):
            return (Int(b), 1)
        case .readMultipleBlocks(let f, let n), .writeMultipleBlocks(let f, let n, _),
             .getMultipleBlockSecurityStatus(let f, let n), .fastReadMultipleBlocks(let f, let n),
             .extendedReadMultipleBlocks(let f, let n), .extendedWriteMultipleBlocks(let f, let n, _),
             .extendedGetMultipleBlockSecurityStatus(let f, let n), .fastExtendedReadMultipleBlocks(let f, let n):
            return (Int(f), n)
        default:
            return nil
        }
    }

    /// Whether the answer carries block data (`([security status] data) × count`).
    public var readsBlocks: Bool {
        switch self {
        case .readSingleBlock, .readMultipleBlocks, .fastReadMultipleBlocks, .extendedReadSingleBlock,
             .extendedReadMultipleBlocks, .fastExtendedReadMultipleBlocks:
            return true
        default:
            return false
        }
    }

    /// The blocks a write carries: (first block, bytes of each block).
    public var writtenBlocks: (first: Int, blocks: [ArraySlice<UInt8>])? {
        switch self {
        case .writeSingleBlock(let b, let d), .extendedWriteSingleBlock(let b, let d):
            return (Int(b), [d[...]])
        case .writeMultipleBlocks(let f, let n, let d), .extendedWriteMultipleBlocks(let f, let n, let d):
            guard n > 0, d.count % n == 0, !d.isEmpty else { return nil }
            let size = d.count / n
            return (Int(f), (0..<n).map { d[$0 * size..<($0 + 1) * size] })
        default:
            return nil
        }
    }
}
