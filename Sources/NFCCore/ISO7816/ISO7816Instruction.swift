/// ISO/IEC 7816-4 instruction bytes and what their P1/P2 mean for the common ones
/// (protocols-wave2.md §3.4). Each code is written once, here.
public enum ISO7816Instruction {
    public static let select: UInt8 = 0xA4
    public static let readBinary: UInt8 = 0xB0
    public static let readBinaryOddINS: UInt8 = 0xB1
    public static let updateBinary: UInt8 = 0xD6
    public static let writeBinary: UInt8 = 0xD0
    public static let readRecord: UInt8 = 0xB2
    public static let updateRecord: UInt8 = 0xDC
    public static let appendRecord: UInt8 = 0xE2
    public static let getResponse: UInt8 = 0xC0
    public static let getData: UInt8 = 0xCA
    public static let getDataOdd: UInt8 = 0xCB
    public static let putData: UInt8 = 0xDA
    public static let verify: UInt8 = 0x20
    public static let changeReferenceData: UInt8 = 0x24
    public static let resetRetryCounter: UInt8 = 0x2C
    public static let internalAuthenticate: UInt8 = 0x88
    public static let externalAuthenticate: UInt8 = 0x82
    public static let getChallenge: UInt8 = 0x84
    public static let generalAuthenticate: UInt8 = 0x86
    public static let generalAuthenticateOdd: UInt8 = 0x87
    public static let putDataOdd: UInt8 = 0xDB
    public static let manageSecurityEnvironment: UInt8 = 0x22
    public static let performSecurityOperation: UInt8 = 0x2A
    public static let manageChannel: UInt8 = 0x70
    public static let envelope: UInt8 = 0xC2

    static let names: [UInt8: String] = [
        select: "SELECT", readBinary: "READ BINARY", readBinaryOddINS: "READ BINARY (odd INS)", updateBinary: "UPDATE BINARY",
        writeBinary: "WRITE BINARY", readRecord: "READ RECORD", updateRecord: "UPDATE RECORD", appendRecord: "APPEND RECORD",
        getResponse: "GET RESPONSE", getData: "GET DATA", getDataOdd: "GET DATA (odd INS)", putData: "PUT DATA", verify: "VERIFY",
        changeReferenceData: "CHANGE REFERENCE DATA", resetRetryCounter: "RESET RETRY COUNTER",
        internalAuthenticate: "INTERNAL AUTHENTICATE", externalAuthenticate: "EXTERNAL AUTHENTICATE", getChallenge: "GET CHALLENGE",
        generalAuthenticate: "GENERAL AUTHENTICATE", generalAuthenticateOdd: "GENERAL AUTHENTICATE (odd INS)", putDataOdd: "PUT DATA (odd INS)",
        manageSecurityEnvironment: "MANAGE SECURITY ENVIRONMENT",
        performSecurityOperation: "PERFORM SECURITY OPERATION", manageChannel: "MANAGE CHANNEL", envelope: "ENVELOPE",
    ]

    /// The instruction's name; proprietary classes (CLA b8 set) get theirs where known, else
    /// `INS xx` with the class.
    public static func name(_ ins: UInt8, cla: UInt8) -> String {
        if cla & 0x80 == 0, let n = names[ins] { return n }
        if cla == 0xFF, ins == getData { return "GET DATA (PC/SC)" }
        if cla == 0x80 || cla == 0x84, let n = EMV.instructionNames[ins] { return n }
        if let n = names[ins], cla & 0xE0 == 0x00 || cla == 0x80 && ins == getData { return n }
        // MIFARE DESFire's native commands wrapped in APDUs (protocols-wave2.md §5.1).
        if cla == DESFire.wrappedClass, let n = DESFire.commandNames[ins] { return n + " (DESFire)" }
        return "INS \(Hex.byte(ins))" + (cla & 0x80 != 0 ? " (proprietary class \(Hex.byte(cla)))" : "")
    }

    /// SELECT P1 (ISO/IEC 7816-4 Table 39).
    public static func selectTarget(p1: UInt8) -> String {
        switch p1 {
        case 0x00: return "by file id"
        case 0x01: return "child DF"
        case 0x02: return "EF under the current DF"
        case 0x03: return "parent DF"
        case 0x04: return "by DF name"
        case 0x08: return "by path from the MF"
        case 0x09: return "by path from the current DF"
        default: return "P1 \(Hex.byte(p1))"
        }
    }

    /// SELECT P2 (ISO/IEC 7816-4 Table 40): which occurrence, and what to answer with.
    public static func selectOptions(p2: UInt8) -> String {
        let occurrence: String
        switch p2 & 0x03 {
        case 0x00: occurrence = "first or only occurrence"
        case 0x01: occurrence = "last occurrence"
        case 0x02: occurrence = "next occurrence"
        default: occurrence = "previous occurrence"
        }
        let answer: String
        switch p2 & 0x0C {
        case 0x00: answer = "return FCI"
        case 0x04: answer = "return FCP"
        case 0x08: answer = "return FMD"
        default: answer = "no response data"
        }
        return "\(occurrence), \(answer)"
    }

    /// READ/UPDATE BINARY: with P1 b8 set, P1 b5…b1 name a short EF and P2 is the offset;
    /// otherwise P1P2 is a 15-bit offset. Nil for the odd-INS forms (offset in the data).
    public static func binaryOffset(p1: UInt8, p2: UInt8) -> (sfi: UInt8?, offset: Int)? {
        if p1 & 0x80 != 0 { return (p1 & 0x1F, Int(p2)) }
        return (nil, Int(p1) << 8 | Int(p2))
    }
}
