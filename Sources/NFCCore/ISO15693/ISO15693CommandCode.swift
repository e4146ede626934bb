/// ISO/IEC 15693-3 command codes with a defined layout (protocols.md §6.4). Codes outside
/// this list are RFU (`03…1F`, `2E…2F`, `3E…9F`), custom (`A0…DF`, named per IC manufacturer
/// by `ISO15693CustomCommand`) or proprietary (`E0…FF`).
public enum ISO15693CommandCode: UInt8, Sendable, CaseIterable {
    case inventory = 0x01
    case stayQuiet = 0x02
    case readSingleBlock = 0x20
    case writeSingleBlock = 0x21
    case lockBlock = 0x22
    case readMultipleBlocks = 0x23
    case writeMultipleBlocks = 0x24
    case select = 0x25
    case resetToReady = 0x26
    case writeAFI = 0x27
    case lockAFI = 0x28
    case writeDSFID = 0x29
    case lockDSFID = 0x2A
    case getSystemInformation = 0x2B
    case getMultipleBlockSecurityStatus = 0x2C
    /// Later editions (NXP phalICode `0x2D`); same layout as Read Multiple Blocks.
    case fastReadMultipleBlocks = 0x2D
    case extendedReadSingleBlock = 0x30
    case extendedWriteSingleBlock = 0x31
    case extendedLockBlock = 0x32
    case extendedReadMultipleBlocks = 0x33
    case extendedWriteMultipleBlocks = 0x34
    /// `35…3A`: ISO/IEC 29167 security commands; their payload is crypto-suite specific.
    case authenticate = 0x35
    case keyUpdate = 0x36
    case authCommCryptoFormatIndicator = 0x37
    case secureCommCryptoFormatIndicator = 0x38
    case challenge = 0x39
    case readBuffer = 0x3A
    case extendedGetSystemInformation = 0x3B
    case extendedGetMultipleBlockSecurityStatus = 0x3C
    case fastExtendedReadMultipleBlocks = 0x3D

    public var name: String {
        switch self {
        case .inventory: return "Inventory"
        case .stayQuiet: return "Stay Quiet"
        case .readSingleBlock: return "Read Single Block"
        case .writeSingleBlock: return "Write Single Block"
        case .lockBlock: return "Lock Block"
        case .readMultipleBlocks: return "Read Multiple Blocks"
        case .writeMultipleBlocks: return "Write Multiple Blocks"
        case .select: return "Select"
        case .resetToReady: return "Reset to Ready"
        case .writeAFI: return "Write AFI"
        case .lockAFI: return "Lock AFI"
        case .writeDSFID: return "Write DSFID"
        case .lockDSFID: return "Lock DSFID"
        case .getSystemInformation: return "Get System Information"
        case .getMultipleBlockSecurityStatus: return "Get Multiple Block Security Status"
        case .fastReadMultipleBlocks: return "Fast Read Multiple Blocks"
        case .extendedReadSingleBlock: return "Extended Read Single Block"
        case .extendedWriteSingleBlock: return "Extended Write Single Block"
        case .extendedLockBlock: return "Extended Lock Block"
        case .extendedReadMultipleBlocks: return "Extended Read Multiple Blocks"
        case .extendedWriteMultipleBlocks: return "Extended Write Multiple Blocks"
        case .authenticate: return "Authenticate"
        case .keyUpdate: return "Key Update"
        case .authCommCryptoFormatIndicator: return "AuthComm Crypto Format Indicator"
        case .secureCommCryptoFormatIndicator: return "SecureComm Crypto Format Indicator"
        case .challenge: return "Challenge"
        case .readBuffer: return "Read Buffer"
        case .extendedGetSystemInformation: return "Extended Get System Information"
        case .extendedGetMultipleBlockSecurityStatus: return "Extended Get Multiple Block Security Status"
        case .fastExtendedReadMultipleBlocks: return "Fast Extended Read Multiple Blocks"
        }
    }

    /// What kind of command a code is, for codes without a defined layout.
    public enum Range: Sendable, Hashable {
        case defined(ISO15693CommandCode)
        /// `03…1F` mandatory RFU, `2E…2F`/`3E…9F` optional RFU.
        case rfu
        /// `A0…DF`: the IC manufacturer code follows the command code.
        case custom
        /// `E0…FF`: IC manufacturer dependent, layout undocumented.
        case proprietary
    }

    public static func range(of code: UInt8) -> Range {
        if let c = ISO15693CommandCode(rawValue: code) { return .defined(c) }
        switch code {
        case 0xA0...0xDF: return .custom
        case 0xE0...0xFF: return .proprietary
        default: return .rfu
        }
    }
}

/// Names of custom commands (`A0…DF`) per IC manufacturer, and how sure we are of them.
public enum ISO15693CustomCommand {
    public enum Confidence: String, Sendable {
        /// Checked in two independent sources.
        case verified = "V"
        /// One source.
        case single = "S"
    }

    /// The command's name for `manufacturer`, with the confidence of the naming; nil when
    /// the code is not known for that manufacturer.
    public static func name(code: UInt8, manufacturer: UInt8) -> (name: String, confidence: Confidence)? {
        switch manufacturer {
        case 0x04: return nxp(code)
        case 0x02: return st(code).map { ($0, .single) }
        default: return nil
        }
    }

    /// NXP ICODE SLI/SLIX/SLIX2/DNA (protocols.md §6.4): PM3 `include/protocols.h` and NXP's
    /// reader library (`phalICode_Int.h`) agree on most; `A0 A1 B0 B1 BC` are PM3 only, `C0…C2`
    /// (ICODE DNA) reader library only.
    static func nxp(_ code: UInt8) -> (String, Confidence)? {
        switch code {
        case 0xA0: return ("Inventory Read", .single)
        case 0xA1: return ("Fast Inventory Read", .single)
        case 0xA2: return ("Set EAS", .verified)
        case 0xA3: return ("Reset EAS", .verified)
        case 0xA4: return ("Lock EAS", .verified)
        case 0xA5: return ("EAS Alarm", .verified)
        case 0xA6: return ("Password Protect EAS/AFI", .verified)
        case 0xA7: return ("Write EAS ID", .verified)
        case 0xA8: return ("Read EPC", .verified)
        case 0xAB: return ("Get NXP System Information", .verified)
        case 0xB0: return ("Inventory Page Read", .single)
        case 0xB1: return ("Fast Inventory Page Read", .single)
        case 0xB2: return ("Get Random Number", .verified)
        case 0xB3: return ("Set Password", .verified)
        case 0xB4: return ("Write Password", .verified)
        case 0xB5: return ("Lock Password", .verified)
        case 0xB6: return ("Protect Page", .verified)
        case 0xB7: return ("Lock Page Protection Condition", .verified)
        case 0xB8: return ("Get Multiple Block Protection Status", .verified)
        case 0xB9: return ("Destroy", .verified)
        case 0xBA: return ("Enable Privacy", .verified)
        case 0xBB: return ("64-bit Password Protection", .verified)
        case 0xBC: return ("Stay Quiet Persistent", .single)
        case 0xBD: return ("Read Signature", .verified)
        case 0xC0: return ("Read Config", .single)
        case 0xC1: return ("Write Config", .single)
        case 0xC2: return ("Pick Random ID", .single)
        default: return nil
        }
    }

    /// ST25TV/ST25DV (ST's RFAL `rfal_nfcv.h`, "ST25TV/ST25DV command set"; one source).
    static func st(_ code: UInt8) -> String? {
        switch code {
        case 0xA0: return "Read Configuration"
        case 0xA1: return "Write Configuration"
        case 0xA2: return "Set EAS"
        case 0xA3: return "Reset EAS"
        case 0xA4: return "Lock EAS"
        case 0xA5: return "Enable EAS"
        case 0xA6: return "Kill"
        case 0xA7: return "Write EAS ID"
        case 0xA8: return "Write EAS Config"
        case 0xA9: return "Manage GPO"
        case 0xAA: return "Write Message"
        case 0xAB: return "Read Message Length"
        case 0xAC: return "Read Message"
        case 0xAD: return "Read Dynamic Configuration"
        case 0xAE: return "Write Dynamic Configuration"
        case 0xB1: return "Write Password"
        case 0xB2: return "Lock Kill"
        case 0xB3: return "Present Password"
        case 0xB4: return "Get Random Number"
        case 0xC0: return "Fast Read Single Block"
        case 0xC3: return "Fast Read Multiple Blocks"
        case 0xC4: return "Fast Extended Read Single Block"
        case 0xC5: return "Fast Extended Read Multiple Blocks"
        case 0xCA: return "Fast Write Message"
        case 0xCB: return "Fast Read Message Length"
        case 0xCC: return "Fast Read Message"
        case 0xCD: return "Fast Read Dynamic Configuration"
        case 0xCE: return "Fast Write Dynamic Configuration"
        default: return nil
        }
    }
}

/// Error codes of ISO/IEC 15693 answers with the error flag set (protocols.md §6.2).
public struct ISO15693ErrorCode: Sendable, Hashable, RawRepresentable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let commandNotSupported = ISO15693ErrorCode(rawValue: 0x01)
    public static let commandNotRecognised = ISO15693ErrorCode(rawValue: 0x02)
    public static let optionNotSupported = ISO15693ErrorCode(rawValue: 0x03)
    public static let unknownError = ISO15693ErrorCode(rawValue: 0x0F)
    public static let blockNotAvailable = ISO15693ErrorCode(rawValue: 0x10)
    public static let blockAlreadyLocked = ISO15693ErrorCode(rawValue: 0x11)
    public static let blockLocked = ISO15693ErrorCode(rawValue: 0x12)
    public static let blockProgrammingFailed = ISO15693ErrorCode(rawValue: 0x13)
    public static let blockLockFailed = ISO15693ErrorCode(rawValue: 0x14)

    public var meaning: String {
        switch rawValue {
        case 0x01: return "command not supported: the request code is not recognised"
        case 0x02: return "command not recognised: format error"
        case 0x03: return "option not supported"
        case 0x0F: return "unknown error"
        case 0x10: return "block not available: it does not exist"
        case 0x11: return "block already locked, cannot be locked again"
        case 0x12: return "block locked, its content cannot be changed"
        case 0x13: return "block programming failed"
        case 0x14: return "block lock failed"
        case 0xA0...0xDF: return "custom error code of the IC manufacturer"
        default: return "RFU error code"
        }
    }
}
