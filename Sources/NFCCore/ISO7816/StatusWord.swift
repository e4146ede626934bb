/// SW1 SW2 at the end of every response APDU (ISO/IEC 7816-4 §5.1.3; protocols-wave2.md §3.4).
public struct StatusWord: Sendable, Hashable, CustomStringConvertible {
    public var sw1: UInt8
    public var sw2: UInt8

    public init(_ sw1: UInt8, _ sw2: UInt8) {
        self.sw1 = sw1
        self.sw2 = sw2
    }

    public init(_ value: UInt16) { self.init(UInt8(value >> 8), UInt8(truncatingIfNeeded: value)) }

    public var value: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }
    public var description: String { Hex.string([sw1, sw2], separator: "") }

    public static let success = StatusWord(0x9000)
    public static let wrongLength = StatusWord(0x6700)
    public static let securityNotSatisfied = StatusWord(0x6982)
    public static let conditionsNotSatisfied = StatusWord(0x6985)
    public static let incorrectData = StatusWord(0x6A80)
    public static let functionNotSupported = StatusWord(0x6A81)
    public static let fileNotFound = StatusWord(0x6A82)
    public static let incorrectP1P2 = StatusWord(0x6A86)
    public static let wrongP1P2 = StatusWord(0x6B00)
    public static let instructionNotSupported = StatusWord(0x6D00)
    public static let classNotSupported = StatusWord(0x6E00)
    public static let commandNotAllowed = StatusWord(0x6986)
    public static let endOfFile = StatusWord(0x6282)

    public var isSuccess: Bool { sw1 == 0x90 && sw2 == 0x00 || sw1 == 0x91 && sw2 == 0x00 }
    /// `61xx`: so many more bytes wait for GET RESPONSE (`00` = 256).
    public var bytesAvailable: Int? { sw1 == 0x61 ? (sw2 == 0 ? 256 : Int(sw2)) : nil }
    /// `6Cxx`: the Le the card wants.
    public var exactLength: Int? { sw1 == 0x6C ? (sw2 == 0 ? 256 : Int(sw2)) : nil }

    static let exact: [UInt16: String] = [
        0x9000: "success",
        0x6200: "no information given (warning)", 0x6281: "part of the data may be corrupted", 0x6282: "end of file or record reached before Le bytes",
        0x6283: "selected file deactivated", 0x6284: "file control information not formatted", 0x6285: "selected file in termination state",
        0x6300: "verification failed (warning)", 0x6381: "file filled up by the last write",
        0x6400: "execution error, memory unchanged", 0x6581: "memory failure", 0x6700: "wrong length",
        0x6800: "function in CLA not supported", 0x6881: "logical channel not supported", 0x6882: "secure messaging not supported",
        0x6883: "last command of the chain expected", 0x6884: "command chaining not supported",
        0x6900: "command not allowed", 0x6981: "command incompatible with file structure", 0x6982: "security status not satisfied",
        0x6983: "authentication method blocked", 0x6984: "reference data not usable", 0x6985: "conditions of use not satisfied",
        0x6986: "command not allowed (no current EF)", 0x6987: "expected secure messaging data objects missing",
        0x6988: "incorrect secure messaging data objects",
        0x6A80: "incorrect parameters in the data field", 0x6A81: "function not supported", 0x6A82: "file or application not found",
        0x6A83: "record not found", 0x6A84: "not enough memory space in the file", 0x6A85: "Nc inconsistent with TLV structure",
        0x6A86: "incorrect parameters P1-P2", 0x6A87: "Nc inconsistent with P1-P2", 0x6A88: "referenced data or reference data not found",
        0x6A89: "file already exists", 0x6A8A: "DF name already exists",
        0x6B00: "wrong parameters P1-P2", 0x6D00: "instruction code not supported or invalid", 0x6E00: "class not supported",
        0x6F00: "no precise diagnosis",
    ]

    /// The meaning, in the standard's words; DESFire's `91xx` are named by the DESFire decoder.
    public var meaning: String {
        if let m = Self.exact[value] { return m }
        switch sw1 {
        case 0x61: return "\(bytesAvailable ?? 0) more bytes available: send GET RESPONSE"
        case 0x6C: return "wrong Le: resend with Le \(exactLength ?? 0)"
        case 0x63 where sw2 & 0xF0 == 0xC0: return "verification failed, counter \(sw2 & 0x0F) (tries left)"
        case 0x62: return "warning, memory unchanged (\(Hex.byte(sw2)))"
        case 0x63: return "warning, memory changed (\(Hex.byte(sw2)))"
        case 0x64: return "execution error, memory unchanged (\(Hex.byte(sw2)))"
        case 0x65: return "execution error, memory changed (\(Hex.byte(sw2)))"
        case 0x66: return "security-related issue (\(Hex.byte(sw2)))"
        case 0x67: return "wrong length"
        case 0x68: return "function in CLA not supported (\(Hex.byte(sw2)))"
        case 0x69: return "command not allowed (\(Hex.byte(sw2)))"
        case 0x6A: return "wrong parameters P1-P2 (\(Hex.byte(sw2)))"
        case 0x91: return "DESFire: " + DESFire.statusName(sw2)
        case 0x90: return "success with proprietary qualifier \(Hex.byte(sw2))"
        default: return "unknown status"
        }
    }
}

/// A response APDU: data, then SW1 SW2.
public struct ResponseAPDU: Sendable, Hashable {
    public var data: [UInt8]
    public var status: StatusWord

    public init(data: [UInt8] = [], status: StatusWord) {
        self.data = data
        self.status = status
    }

    public enum Layout {
        /// SW1 SW2, the last bytes of every answer.
        public static let statusCount = 2
        public static func data(count: Int) -> Range<Int> { 0..<count }
        public static func status(count: Int) -> Range<Int> { count..<count + statusCount }
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> ResponseAPDU {
        guard bytes.count >= 2 else {
            throw DecodeError(offset: bytes.count, expected: "SW1 SW2 (every response APDU ends with them)", found: "\(bytes.count) byte\(bytes.count == 1 ? "" : "s")")
        }
        let dataCount = bytes.count - Layout.statusCount
        let sw = Layout.status(count: dataCount)
        return ResponseAPDU(data: Array(bytes[Layout.data(count: dataCount)]), status: StatusWord(bytes[sw.lowerBound], bytes[sw.lowerBound + 1]))
    }

    public func encode() -> [UInt8] { data + [status.sw1, status.sw2] }
}
