import NFCCore

/// How a VICC reports an error.
public enum ISO15693ErrorStyle: String, Sendable, Hashable {
    /// The ISO/IEC 15693-3 error codes (`01` not supported, `02` format error, `03` option not
    /// supported, `10`…`14` block errors; ISO/IEC 15693-3:2009 7.4.2, Table 7), in every mode in
    /// which the VICC answers.
    case detailed
    /// `0F` ("error with no information given") for every error in addressed and selected mode,
    /// silence in non-addressed mode: NXP ICODE SLI-S datasheet §8.4 "Error handling"; the
    /// Flipper Zero listener also answers `0F` to every failure.
    case unspecified
}

/// What kind of ISO 15693 VICC is emulated: memory geometry, the commands it knows, what Get
/// System Information reports, how it answers errors. The tag's content is in `ISO15693TagMemory`.
public struct ISO15693TagConfiguration: Sendable, Hashable {
    /// `ICODE SLIX2`, `ST25DV04K`, `generic ISO 15693 tag`.
    public var name: String
    /// 1…65536 blocks (more than 256 need the extended commands `30…3C`).
    public var blockCount: Int
    /// 1…32 bytes per block (ISO/IEC 15693-3: the block size is sent as 5 bits, size − 1).
    public var blockSize: Int
    /// IC reference reported by Get System Information.
    public var icReference: UInt8
    /// Information flags of the Get System Information answer: which of DSFID (`01`), AFI
    /// (`02`), memory size (`04`) and IC reference (`08`) the VICC reports. The memory size is
    /// left out when the block count does not fit one byte.
    public var systemInformationFlags: UInt8
    /// Write Multiple Blocks (`24`, `34`); ICODE SLIX chips do not have it.
    public var writeMultipleBlocks: Bool
    /// The extended commands `30`–`34`, `3B`, `3C` (2-byte block numbers).
    public var extendedCommands: Bool
    /// Whether write-alike commands accept the option flag (answer after the reader's EOF);
    /// ST tags refuse it (protocols.md §6.5, neard's TI/ST quirk), answering `03`.
    public var optionFlagOnWrites: Bool
    public var errorStyle: ISO15693ErrorStyle
    /// GET RANDOM NUMBER (`B2`), READ SIGNATURE (`BD`), GET NXP SYSTEM INFORMATION (`AB`) for
    /// IC manufacturer `04`.
    public var nxpCustomCommands: Bool

    public init(name: String, blockCount: Int, blockSize: Int, icReference: UInt8 = 0x00, systemInformationFlags: UInt8 = 0x0F,
                writeMultipleBlocks: Bool = true, extendedCommands: Bool? = nil, optionFlagOnWrites: Bool = true,
                errorStyle: ISO15693ErrorStyle = .detailed, nxpCustomCommands: Bool = false) {
        self.name = name
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.icReference = icReference
        self.systemInformationFlags = systemInformationFlags & 0x0F
        self.writeMultipleBlocks = writeMultipleBlocks
        self.extendedCommands = extendedCommands ?? (blockCount > 256)
        self.optionFlagOnWrites = optionFlagOnWrites
        self.errorStyle = errorStyle
        self.nxpCustomCommands = nxpCustomCommands
    }

    /// A VICC with the geometry and IC reference the caller chooses and every ISO/IEC 15693-3
    /// command; the extended commands when more than 256 blocks need them.
    public static func generic(blockCount: Int, blockSize: Int, icReference: UInt8 = 0x00,
                               name: String = "generic ISO 15693 tag") -> ISO15693TagConfiguration {
        ISO15693TagConfiguration(name: name, blockCount: blockCount, blockSize: blockSize, icReference: icReference)
    }

    /// NXP ICODE SLIX2 (SL2S2602): 80 blocks of 4 bytes, IC reference `01` (Get System
    /// Information in Traces/iso15693-errors.nfctrace and the Flipper SLIX dumps), no Write
    /// Multiple Blocks (Flipper's SLIX listener: "no mention of this command in SLIX docs";
    /// AndroidCrypto's ICODE SLIX command overview: "not natively supported by tag"), NXP custom
    /// commands. ISO error codes: see docs/iso15693.md "Emulator" for NXP's own error handling.
    public static let slix2 = ISO15693TagConfiguration(
        name: "ICODE SLIX2", blockCount: 80, blockSize: 4, icReference: 0x01, writeMultipleBlocks: false,
        nxpCustomCommands: true)

    /// The tag of Traces/iso15693-format-and-write.nfctrace: STMicroelectronics ST25DV04K-like,
    /// 128 blocks of 4 bytes, IC reference `24`; ST's custom commands are not emulated.
    public static let st25dv04k = ISO15693TagConfiguration(
        name: "ST25DV04K", blockCount: 128, blockSize: 4, icReference: 0x24, optionFlagOnWrites: false)

    /// Whether the geometry is one ISO/IEC 15693-3 can describe.
    public var isValid: Bool { (1...65536).contains(blockCount) && (1...32).contains(blockSize) }

    /// Whether this VICC knows `command` (ISO/IEC 15693-3 10.1: Inventory and Stay Quiet are
    /// mandatory, the others optional). Custom commands are decided by their code and manufacturer.
    public func supports(_ command: ISO15693Command) -> Bool {
        switch command {
        case .inventory, .stayQuiet, .readSingleBlock, .writeSingleBlock, .lockBlock, .readMultipleBlocks, .select, .resetToReady,
             .writeAFI, .lockAFI, .writeDSFID, .lockDSFID, .getSystemInformation, .getMultipleBlockSecurityStatus:
            return true
        case .writeMultipleBlocks:
            return writeMultipleBlocks
        case .extendedReadSingleBlock, .extendedWriteSingleBlock, .extendedLockBlock, .extendedReadMultipleBlocks,
             .extendedGetSystemInformation, .extendedGetMultipleBlockSecurityStatus:
            return extendedCommands
        case .extendedWriteMultipleBlocks:
            return extendedCommands && writeMultipleBlocks
        case .custom(let code, let manufacturer, _):
            return nxpCustomCommands && manufacturer == 0x04 && ISO15693NXPCustomCommand(rawValue: code) != nil
        case .fastReadMultipleBlocks, .fastExtendedReadMultipleBlocks, .security, .proprietary, .rfu:
            return false
        }
    }

    /// Whether the option flag has a meaning for `command` here: the security status in read
    /// answers; the EOF-timed answer of write-alike commands. Commands whose description in
    /// ISO/IEC 15693-3 does not define it ("shall be set to 0") answer `03`.
    public func acceptsOptionFlag(_ command: ISO15693Command) -> Bool {
        switch command {
        case .readSingleBlock, .readMultipleBlocks, .extendedReadSingleBlock, .extendedReadMultipleBlocks:
            return true
        case .writeSingleBlock, .writeMultipleBlocks, .lockBlock, .writeAFI, .lockAFI, .writeDSFID, .lockDSFID,
             .extendedWriteSingleBlock, .extendedWriteMultipleBlocks, .extendedLockBlock:
            return optionFlagOnWrites
        case .custom:
            return true   // vendor defined; the NXP commands emulated here ignore it
        default:
            return false
        }
    }
}

/// The NXP custom commands (manufacturer `04`) the emulator answers (protocols.md §6.4).
public enum ISO15693NXPCustomCommand: UInt8, Sendable, CaseIterable {
    /// Answer: 2 random bytes (PM3 `get_rnd_15693_Slix` reads them after the flags byte).
    case getRandomNumber = 0xB2
    /// Answer: the 32-byte originality signature (ICODE SLIX2 datasheet 9.5.3.20).
    case readSignature = 0xBD
    /// Answer: `ISO15693NXPSystemInformation` (Flipper's layout, confidence S).
    case getNXPSystemInformation = 0xAB
}
