/// The NXP PN532's host commands (UM0701-02; protocols-wave2.md §7.3 and §8): what libnfc's
/// drivers and an ACR122's direct transmit (`FF 00 00 00 Lc D4 …`) send, and the chip's answers
/// (`D5 code+1 …`). Codes and status bytes are written once, here.
public enum PN532 {
    /// TFI of a frame from the host and from the chip.
    public static let hostToChip: UInt8 = 0xD4
    public static let chipToHost: UInt8 = 0xD5

    public enum Command: UInt8, Sendable, CaseIterable {
        case diagnose = 0x00
        case getFirmwareVersion = 0x02
        case readRegister = 0x06
        case writeRegister = 0x08
        case setParameters = 0x12
        case samConfiguration = 0x14
        case powerDown = 0x16
        case rfConfiguration = 0x32
        case inDataExchange = 0x40
        case inCommunicateThru = 0x42
        case inDeselect = 0x44
        case inListPassiveTarget = 0x4A
        case inAutoPoll = 0x60
        case inRelease = 0x52
        case inSelect = 0x54

        /// The answer's code: the command's plus one.
        public var answerCode: UInt8 { rawValue &+ 1 }
    }

    /// InListPassiveTarget's BrTy.
    public enum Modulation: UInt8, Sendable {
        case typeA106 = 0x00, felica212 = 0x01, felica424 = 0x02, typeB106 = 0x03, jewel106 = 0x04
    }

    /// The status byte of InDataExchange/InCommunicateThru answers (b6…b1; libnfc's
    /// `pn53x-internal.h`).
    public enum Status: UInt8, Sendable {
        case ok = 0x00, timeout = 0x01, crc = 0x02, parity = 0x03, invalidParameter = 0x10
        case mifareAuthenticationError = 0x14, wrongContext = 0x27
    }

    /// GetFirmwareVersion's answer of a PN532 v1.6 supporting ISO 14443-A, -B and ISO 18092.
    public static let firmwareVersion: [UInt8] = [0x32, 0x01, 0x06, 0x07]

    /// ACR122 escape `FF 00 00 00 Lc` around a PN532 frame, and `FF 00 48 00 00` asking for the
    /// reader's firmware string (answered without a status word, as ACS's manual shows).
    public static let acr122FirmwareP1: UInt8 = 0x48
    /// Status words after direct transmit (ACS ACR122 manuals): PN532 did not answer, wrong command.
    public static let acr122NoResponse = StatusWord(0x6301)
    public static let acr122WrongCommand = StatusWord(0x637F)
}
