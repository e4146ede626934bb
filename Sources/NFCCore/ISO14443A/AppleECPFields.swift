/// The fields of Apple Enhanced Contactless Polling (`ecp.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields ecp`).
public final class AppleECPFields: FieldTable {
    public var name: String { "ecp" }
    public var title: String { "Apple Enhanced Contactless Polling" }

    public let config = FieldSpec("ecp.config", "Configuration", .text)
    public let crc = FieldSpec("ecp.crc", "CRC", .hex)
    public let data = FieldSpec("ecp.data", "TCI and terminal data", .hex)
    public let header = FieldSpec("ecp.header", "Header", .byte)
    public let tci = FieldSpec("ecp.tci", "TCI", .hex)
    public let terminalSubtype = FieldSpec("ecp.terminal_subtype", "Terminal subtype", .byte)
    public let terminalType = FieldSpec("ecp.terminal_type", "Terminal type", .text)
    public let version = FieldSpec("ecp.version", "Version", .text)
}

extension FieldSpec {
    /// `ecp.*`
    public static let ecp = AppleECPFields()
}
