/// The fields of MIFARE Classic (`mfc.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields mfc`).
public final class MIFAREClassicFields: FieldTable {
    public var name: String { "mfc" }
    public var title: String { "MIFARE Classic" }
    /// The TLV area (`mfc.tlv.*`).
    public let tlv = TagTLVFields(prefix: "mfc")

    public let accessData = FieldSpec("mfc.access.data", "Data", .text)
    public let accessTrailer = FieldSpec("mfc.access.trailer", "Trailer", .text)
    public let ack = FieldSpec("mfc.ack", "Answer", .byte)
    public let authAr = FieldSpec("mfc.auth.ar", "{aR} (encrypted reader answer)", .hex)
    public let authArPlain = FieldSpec("mfc.auth.ar.plain", "aR", .hex)
    public let authAt = FieldSpec("mfc.auth.at", "{aT} (encrypted tag answer)", .hex, layout: MIFAREClassicAuthentication.Layout.tagAnswer)
    public let authAtPlain = FieldSpec("mfc.auth.at.plain", "aT", .hex, layout: MIFAREClassicAuthentication.Layout.tagAnswer)
    public let authKey = FieldSpec("mfc.auth.key", "Key", .hex)
    public let authNr = FieldSpec("mfc.auth.nr", "{nR} (encrypted reader nonce)", .hex)
    public let authNrPlain = FieldSpec("mfc.auth.nr.plain", "nR", .hex)
    public let authNt = FieldSpec("mfc.auth.nt", "nT (tag nonce)", .hex, layout: MIFAREClassicAuthentication.Layout.tagNonce)
    public let authNtPlain = FieldSpec("mfc.auth.nt.plain", "nT (decrypted tag nonce)", .hex)
    public let authNtEncrypted = FieldSpec("mfc.auth.nt_encrypted", "{nT} (encrypted tag nonce)", .hex, layout: MIFAREClassicAuthentication.Layout.tagNonce)
    public let authReaderKey = FieldSpec("mfc.auth.reader_key", "Reader's key", .text)
    public let block = FieldSpec("mfc.block", "Block", .byte, layout: MIFAREClassicCommand.Layout.block)
    public let command = FieldSpec("mfc.command", "Command", .code, layout: MIFAREClassicCommand.Layout.code,
                                    values: FieldSpec.names(MIFAREClassicCommand.Code.self, \.name))
    public let crc = FieldSpec("mfc.crc", "CRC", .hex)
    public let data = FieldSpec("mfc.data", "Data", .hex)
    public let encrypted = FieldSpec("mfc.encrypted", "Encrypted", .hex)
    public let failedAuth = FieldSpec("mfc.failed_auth", "Failed authentication", .text)
    public let key = FieldSpec("mfc.key", "Key", .hex)
    public let mad = FieldSpec("mfc.mad", "Mad", .text)
    public let madAid = FieldSpec("mfc.mad.aid", "Aid", .hex)
    public let madCrc = FieldSpec("mfc.mad.crc", "CRC-8", .byte)
    public let madInfo = FieldSpec("mfc.mad.info", "Info byte", .byte)
    public let magic = FieldSpec("mfc.magic", "Magic command", .byte, layout: MIFAREClassicCommand.Layout.magic)
    public let manufacturerBcc = FieldSpec("mfc.manufacturer.bcc", "BCC", .byte, layout: MIFAREClassicManufacturerBlock.Layout.bcc)
    public let manufacturerData = FieldSpec("mfc.manufacturer.data", "Manufacturer data", .hex, layout: MIFAREClassicManufacturerBlock.Layout.manufacturerData)
    public let manufacturerUid = FieldSpec("mfc.manufacturer.uid", "UID", .hex, layout: MIFAREClassicManufacturerBlock.Layout.uid)
    public let memoryBlock = FieldSpec("mfc.memory.block", "Block", .hex)
    public let memorySector = FieldSpec("mfc.memory.sector", "Sector", .text)
    public let ndef = FieldSpec("mfc.ndef", "Ndef", .text)
    public let operand = FieldSpec("mfc.operand", "Operand", .text, layout: MIFAREClassicCommand.Layout.operand)
    public let option = FieldSpec("mfc.option", "Option", .byte, layout: MIFAREClassicCommand.Layout.option)
    public let trailerAccess = FieldSpec("mfc.trailer.access", "Access bits", .hex)
    public let trailerGpb = FieldSpec("mfc.trailer.gpb", "General purpose byte", .byte)
    public let trailerKeyA = FieldSpec("mfc.trailer.key_a", "Key A", .hex)
    public let trailerKeyB = FieldSpec("mfc.trailer.key_b", "Key b", .hex)
    public let value = FieldSpec("mfc.value", "Value", .text, layout: MIFAREClassicValueBlock.Layout.value)
    public let valueAddress = FieldSpec("mfc.value.address", "Address", .byte, layout: MIFAREClassicValueBlock.Layout.address)
    public let valueNote = FieldSpec("mfc.value.note", "Note", .text)
}

extension FieldSpec {
    /// `mfc.*`
    public static let mfc = MIFAREClassicFields()
}
