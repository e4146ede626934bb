/// A FeliCa command or response code: the byte after LEN. Commands are even, their responses
/// are the command + 1 (protocols.md §5.3). Unknown codes stay representable.
public struct FeliCaCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let polling = FeliCaCode(0x00)
    public static let requestService = FeliCaCode(0x02)
    public static let requestResponse = FeliCaCode(0x04)
    public static let readWithoutEncryption = FeliCaCode(0x06)
    public static let writeWithoutEncryption = FeliCaCode(0x08)
    public static let searchServiceCode = FeliCaCode(0x0A)
    public static let requestSystemCode = FeliCaCode(0x0C)
    public static let requestSpecificationVersion = FeliCaCode(0x3C)
    public static let getSystemStatus = FeliCaCode(0x38)
    public static let resetMode = FeliCaCode(0x3E)

    /// Odd codes are responses (NFC-DEP `D5` and the phone codes `C3`/`C9`/`CD` too); Echo `F0` is
    /// answered with the same even code.
    public var isResponse: Bool { rawValue & 1 == 1 }
    /// The command this code belongs to (itself for a command).
    public var command: FeliCaCode { FeliCaCode(rawValue & 0xFE) }
    /// The response code a card sends back: command + 1.
    public var response: FeliCaCode { FeliCaCode(rawValue | 1) }

    /// Name of the command (for a response code: of the command it answers), or nil when unknown.
    public var commandName: String? { Self.names(command.rawValue)?.name }

    /// `Read Without Encryption`, `Read Without Encryption response`, `unknown code 0x5A`.
    public var name: String {
        guard let n = commandName else { return "unknown code \(Hex.byte(rawValue))" }
        return isResponse ? n + " response" : n
    }

    public var description: String { name }

    /// Whether the frame carries an IDm right after the code (most FeliCa OS commands and their
    /// answers do; Polling, the container commands and the two-byte phone codes do not).
    /// Nil for unknown codes.
    public var carriesIDm: Bool? {
        guard let entry = Self.names(command.rawValue) else { return nil }
        return isResponse ? entry.responseIDm : entry.requestIDm
    }

    /// Whether the code is one of the few with a public parameter layout that `FeliCaCommand` decodes
    /// field by field; the others are named and sized.
    public var hasPublicLayout: Bool {
        switch command {
        case .polling, .requestService, .requestResponse, .readWithoutEncryption, .writeWithoutEncryption,
             .searchServiceCode, .requestSystemCode, .requestSpecificationVersion, .getSystemStatus, .resetMode:
            return true
        default:
            return false
        }
    }

    /// The code table of protocols.md §5.3 (names as in Sony's FeliCa and PM3's `protocols.h`).
    /// `requestIDm`/`responseIDm`: whether an IDm follows the code.
    static func names(_ command: UInt8) -> (name: String, requestIDm: Bool, responseIDm: Bool)? {
        switch command {
        case 0x00: return ("Polling", false, true)
        case 0x02: return ("Request Service", true, true)
        case 0x04: return ("Request Response", true, true)
        case 0x06: return ("Read Without Encryption", true, true)
        case 0x08: return ("Write Without Encryption", true, true)
        case 0x0A: return ("Search Service Code", true, true)
        case 0x0C: return ("Request System Code", true, true)
        case 0x0E: return ("Request Block Information", true, true)
        case 0x10: return ("Authentication1", true, true)
        // PM3 iso18.h: the Authentication2 answer is code, IDtc, IDi, PMi (encrypted), no plain IDm.
        case 0x12: return ("Authentication2", true, false)
        case 0x14: return ("Read (authenticated)", true, true)
        case 0x16: return ("Write (authenticated)", true, true)
        case 0x1A: return ("Request Code List", true, true)
        case 0x1E: return ("Request Block Information Ex", true, true)
        case 0x20: return ("Set Parameter", true, true)
        case 0x22: return ("Get Container Issue Information", true, true)
        case 0x24: return ("Get Area Information", true, true)
        case 0x28: return ("Get Node Property", true, true)
        // PM3 iso18.h: Get Container Property and Get Container ID carry no IDm either way.
        case 0x2E: return ("Get Container Property", false, false)
        case 0x32: return ("Request Service v2", true, true)
        case 0x34: return ("Internal Authenticate and Read", true, true)
        case 0x36: return ("External Authenticate and Write", true, true)
        case 0x38: return ("Get System Status", true, true)
        case 0x3A: return ("Request Product Information", true, true)
        case 0x3C: return ("Request Specification Version", true, true)
        case 0x3E: return ("Reset Mode", true, true)
        case 0x40: return ("Authentication1 v2 (AES)", true, true)
        case 0x42: return ("Authentication2 v2 (AES)", true, true)
        case 0x44: return ("Read Secure v2", true, true)
        case 0x46: return ("Write Secure v2", true, true)
        case 0x48: return ("Delete Key", true, true)
        case 0x4C: return ("Update Random ID", true, true)
        case 0x52: return ("Register Area v2", true, true)
        case 0x54: return ("Register Service v2", true, true)
        case 0x56: return ("Register Issue ID Ex v2", true, true)
        case 0x58: return ("Separate System v2", true, true)
        case 0x5C: return ("Delete Node", true, true)
        case 0x5E: return ("Change System Block v2", true, true)
        case 0x70: return ("Get Container ID", false, false)
        case 0x78: return ("Set Node Property", true, true)
        case 0x80: return ("Register Issue ID", true, true)
        case 0x82: return ("Register Area", true, true)
        case 0x84: return ("Register Service", true, true)
        case 0x86: return ("Register Issue ID Ex", true, true)
        case 0x88: return ("Separate System", true, true)
        case 0x8E: return ("Change System Block", true, true)
        case 0x90: return ("Register Manufacture ID", true, true)
        case 0x92: return ("Self Diagnosis", true, true)
        case 0xA4: return ("Change Active Interface", true, true)
        case 0xA8: return ("Reset Interface", true, true)
        case 0xAA: return ("Propose Ad-hoc", true, true)
        case 0xAC: return ("Start Ad-hoc", true, true)
        case 0xB0: return ("Push", true, true)
        // Two-byte codes seen on phones (protocols.md §5.3): the second byte is a sub-code.
        case 0xC2: return ("DCK encapsulation", false, false)
        case 0xC8: return ("secure session", false, false)
        case 0xCC: return ("phone command CCxx", false, false)
        case 0xD4: return ("NFC-DEP", false, false)
        case 0xF0: return ("Echo", false, false)
        default: return nil
        }
    }

    /// NFC-DEP (ISO/IEC 18092) request/response names for the byte after `D4`/`D5`.
    public static func nfcDEPName(_ subcode: UInt8) -> String? {
        switch subcode {
        case 0x00: return "ATR_REQ"
        case 0x01: return "ATR_RES"
        case 0x02: return "WUP_REQ"
        case 0x03: return "WUP_RES"
        case 0x04: return "PSL_REQ"
        case 0x05: return "PSL_RES"
        case 0x06: return "DEP_REQ"
        case 0x07: return "DEP_RES"
        case 0x08: return "DSL_REQ"
        case 0x09: return "DSL_RES"
        case 0x0A: return "RLS_REQ"
        case 0x0B: return "RLS_RES"
        default: return nil
        }
    }
}
