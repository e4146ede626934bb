/// The fields of ISO 15693 (`iso15693.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields iso15693`).
public final class ISO15693Fields: FieldTable {
    public var name: String { "iso15693" }
    public var title: String { "ISO 15693" }

    public let afi = FieldSpec("iso15693.afi", "AFI", .byte)
    public let block = FieldSpec("iso15693.block", "Block", .text)
    public let blockBytes = FieldSpec("iso15693.block_bytes", "Data", .hex)
    public let blockCount = FieldSpec("iso15693.block_count", "Number of blocks", .text)
    public let blockData = FieldSpec("iso15693.block_data", "Block data", .hex)
    public let blockStatus = FieldSpec("iso15693.block_status", "Security status", .byte)
    public let blocks = FieldSpec("iso15693.blocks", "Blocks", .text)
    public let command = FieldSpec("iso15693.command", "Command", .byte, layout: ISO15693Request.Layout.command,
                                    values: FieldSpec.names(ISO15693CommandCode.self, \.name))
    public let commandList = FieldSpec("iso15693.command_list", "VICC command list", .hex)
    public let crc = FieldSpec("iso15693.crc", "CRC", .hex)
    public let csi = FieldSpec("iso15693.csi", "CSI information", .hex)
    public let data = FieldSpec("iso15693.data", "Data", .text)
    public let dsfid = FieldSpec("iso15693.dsfid", "DSFID", .byte)
    public let error = FieldSpec("iso15693.error", "Error code", .byte, layout: ISO15693Response.Layout.errorCode)
    public let flags = FieldSpec("iso15693.flags", "Request flags", .text)
    public let flagsAddress = FieldSpec("iso15693.flags.address", "b6 address", .text)
    public let flagsAfi = FieldSpec("iso15693.flags.afi", "b5 AFI", .text)
    public let flagsDataRate = FieldSpec("iso15693.flags.data_rate", "b2 data rate", .text)
    public let flagsInventory = FieldSpec("iso15693.flags.inventory", "b3 inventory", .text)
    public let flagsNbSlots = FieldSpec("iso15693.flags.nb_slots", "b6 Nb_slots", .text)
    public let flagsOption = FieldSpec("iso15693.flags.option", "b7 option", .text)
    public let flagsProtocolExtension = FieldSpec("iso15693.flags.protocol_extension", "b4 protocol extension", .text)
    public let flagsRfu = FieldSpec("iso15693.flags.rfu", "b8 RFU", .text)
    public let flagsSelect = FieldSpec("iso15693.flags.select", "b5 select", .text)
    public let flagsSubcarrier = FieldSpec("iso15693.flags.subcarrier", "b1 sub-carrier", .text)
    public let icReference = FieldSpec("iso15693.ic_reference", "IC reference", .byte)
    public let infoFlags = FieldSpec("iso15693.info_flags", "Information flags", .text, layout: ISO15693Response.Layout.infoFlags)
    public let infoRequest = FieldSpec("iso15693.info_request", "Information request", .byte, layout: ISO15693Request.Layout.infoRequest)
    public let manufacturer = FieldSpec("iso15693.manufacturer", "IC manufacturer", .byte, layout: ISO15693Request.Layout.manufacturer)
    public let mask = FieldSpec("iso15693.mask", "Mask value", .text)
    public let maskLength = FieldSpec("iso15693.mask_length", "Mask length", .text)
    public let memorySize = FieldSpec("iso15693.memory_size", "Memory size", .text)
    public let memorySizeBlockSize = FieldSpec("iso15693.memory_size.block_size", "Block size", .text)
    public let memorySizeBlocks = FieldSpec("iso15693.memory_size.blocks", "Number of blocks", .text)
    public let parameters = FieldSpec("iso15693.parameters", "Parameters", .hex)
    public let responseFlags = FieldSpec("iso15693.response_flags", "Response flags", .text, layout: ISO15693Response.Layout.flags)
    public let responseFlagsError = FieldSpec("iso15693.response_flags.error", "b1 error", .text, layout: ISO15693Response.Layout.flags)
    public let responseFlagsExtension = FieldSpec("iso15693.response_flags.extension", "b4 extension", .text, layout: ISO15693Response.Layout.flags)
    public let securityStatus = FieldSpec("iso15693.security_status", "Block security status", .hex)
    public let trailing = FieldSpec("iso15693.trailing", "Not announced by the flags", .hex)
    public let uid = FieldSpec("iso15693.uid", "UID", .hex)
    public let uidIcode = FieldSpec("iso15693.uid.icode", "ICODE type (UID hint)", .text)
    public let uidManufacturer = FieldSpec("iso15693.uid.manufacturer", "IC manufacturer", .byte)
    public let uidOnAir = FieldSpec("iso15693.uid.on_air", "On air (LSB first)", .hex)
}

extension FieldSpec {
    /// `iso15693.*`
    public static let iso15693 = ISO15693Fields()
}
