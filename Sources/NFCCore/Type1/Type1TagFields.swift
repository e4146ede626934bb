/// The fields of NFC Forum Type 1 Tag (Topaz) (`type1.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields type1`).
public final class Type1TagFields: FieldTable {
    public var name: String { "type1" }
    public var title: String { "NFC Forum Type 1 Tag (Topaz)" }

    public let add = FieldSpec("type1.add", "ADD", .byte)
    public let add8 = FieldSpec("type1.add8", "ADD8", .byte)
    public let adds = FieldSpec("type1.adds", "ADDS", .text)
    public let cc = FieldSpec("type1.cc", "Capability Container", .hex)
    public let ccAccess = FieldSpec("type1.cc.access", "CC3 access", .byte)
    public let ccMagic = FieldSpec("type1.cc.magic", "CC0 magic", .byte)
    public let ccSize = FieldSpec("type1.cc.size", "CC2 memory size", .byte)
    public let ccVersion = FieldSpec("type1.cc.version", "CC1 version", .code)
    public let command = FieldSpec("type1.command", "Command", .code)
    public let data = FieldSpec("type1.data", "Data", .byte)
    public let dataArea = FieldSpec("type1.data_area", "Data area", .text)
    public let hr0 = FieldSpec("type1.hr0", "HR0", .byte)
    public let hr1 = FieldSpec("type1.hr1", "HR1", .byte)
    public let memory = FieldSpec("type1.memory", "Blocks 0–E", .hex)
    public let uid = FieldSpec("type1.uid", "UID0–UID3", .text)
    public let block = FieldSpec("type1.block", "Block", .hex)
    public let crc = FieldSpec("type1.crc", "CRC", .hex)
    /// The TLV area (`type1.tlv.*`).
    public let tlv = TagTLVFields(prefix: "type1")
}

extension FieldSpec {
    /// `type1.*`
    public static let type1 = Type1TagFields()
}
