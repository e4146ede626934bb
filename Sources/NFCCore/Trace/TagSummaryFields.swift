/// The fields of the tag of a session summary (`tag.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields tag`).
public final class TagSummaryFields: FieldTable {
    public var name: String { "tag" }
    public var title: String { "the tag of a session summary" }

    public let afi = FieldSpec("tag.afi", "AFI", .byte)
    public let applicationLimit = FieldSpec("tag.application_limit", "Application area 1", .text)
    public let atqa = FieldSpec("tag.atqa", "ATQA", .hex)
    public let atqb = FieldSpec("tag.atqb", "ATQB", .hex)
    public let ats = FieldSpec("tag.ats", "ATS", .hex)
    public let authentication = FieldSpec("tag.authentication", "Authentication", .text)
    public let card = FieldSpec("tag.card", "Card", .text)
    public let chipId = FieldSpec("tag.chip_id", "Chip_ID", .byte)
    public let csn = FieldSpec("tag.csn", "CSN", .hex)
    public let dsfid = FieldSpec("tag.dsfid", "DSFID", .byte)
    public let icReference = FieldSpec("tag.ic_reference", "IC reference", .byte)
    public let idm = FieldSpec("tag.idm", "IDm", .hex)
    public let inventoried = FieldSpec("tag.inventoried", "Other VICCs inventoried", .text)
    public let keyVersion = FieldSpec("tag.key_version", "Key version", .hex)
    public let keyVersions = FieldSpec("tag.key_versions", "Key versions", .text)
    public let manufacturer = FieldSpec("tag.manufacturer", "IC manufacturer", .hex)
    public let memorySize = FieldSpec("tag.memory_size", "Memory size", .text)
    public let mode = FieldSpec("tag.mode", "Mode at end", .text)
    public let model = FieldSpec("tag.model", "Model", .text)
    public let pmm = FieldSpec("tag.pmm", "PMm", .hex)
    public let `protocol` = FieldSpec("tag.protocol", "Protocol", .text)
    public let pupi = FieldSpec("tag.pupi", "PUPI", .hex)
    public let refusal = FieldSpec("tag.refusal", "Refusal", .text)
    public let refused = FieldSpec("tag.refused", "Refused commands", .text)
    public let sak = FieldSpec("tag.sak", "SAK", .byte)
    public let security = FieldSpec("tag.security", "Security", .text)
    public let state = FieldSpec("tag.state", "State at end", .text)
    public let system = FieldSpec("tag.system", "System", .hex)
    public let systemCodes = FieldSpec("tag.system_codes", "Request System Code", .hex)
    public let systemSwitch = FieldSpec("tag.system_switch", "System switch", .hex)
    public let systems = FieldSpec("tag.systems", "Systems seen", .text)
    public let uid = FieldSpec("tag.uid", "UID", .hex)
    public let unanswered = FieldSpec("tag.unanswered", "Unanswered commands", .text)
    public let unansweredCommand = FieldSpec("tag.unanswered_command", "Unanswered command", .text)
}

extension FieldSpec {
    /// `tag.*`
    public static let tag = TagSummaryFields()
}
