/// The fields of HID iClass / PicoPass (`iclass.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields iclass`).
public final class IClassFields: FieldTable {
    public var name: String { "iclass" }
    public var title: String { "HID iClass / PicoPass" }

    public let anticollisionCsn = FieldSpec("iclass.anticollision_csn", "Anticollision CSN", .hex)
    public let block = FieldSpec("iclass.block", "Block", .text)
    public let command = FieldSpec("iclass.command", "Command", .text)
    public let configAppLimit = FieldSpec("iclass.config.app_limit", "Application limit", .text)
    public let configCard = FieldSpec("iclass.config.card", "Card", .text)
    public let configCrypt = FieldSpec("iclass.config.crypt", "Security", .text)
    public let crc = FieldSpec("iclass.crc", "CRC", .hex)
    public let csn = FieldSpec("iclass.csn", "CSN", .hex)
    public let data = FieldSpec("iclass.data", "Data", .hex)
    public let epurse = FieldSpec("iclass.epurse", "E-purse (card challenge)", .hex)
    public let key = FieldSpec("iclass.key", "Key", .text)
    public let keyIdentified = FieldSpec("iclass.key_identified", "Key", .text)
    public let mac = FieldSpec("iclass.mac", "Reader MAC", .hex)
    public let nr = FieldSpec("iclass.nr", "Reader nonce NR", .hex)
    public let page = FieldSpec("iclass.page", "Page", .text)
}

extension FieldSpec {
    /// `iclass.*`
    public static let iclass = IClassFields()
}
