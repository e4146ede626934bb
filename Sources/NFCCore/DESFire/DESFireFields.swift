/// The fields of MIFARE DESFire (`desfire.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields desfire`).
public final class DESFireFields: FieldTable {
    public var name: String { "desfire" }
    public var title: String { "MIFARE DESFire" }

    public let aid = FieldSpec("desfire.aid", "AID", .text)
    public let authData = FieldSpec("desfire.auth_data", "Data (ek(RndA ‖ RndB′) after AUTHENTICATE)", .hex)
    public let command = FieldSpec("desfire.command", "DESFire command", .code)
    public let data = FieldSpec("desfire.data", "Data (plain)", .text)
    public let file = FieldSpec("desfire.file", "File number", .text)
    public let fileSettings = FieldSpec("desfire.file_settings", "File settings", .text)
    public let fileSettingsAccess = FieldSpec("desfire.file_settings.access", "Access rights", .text)
    public let fileSettingsSize = FieldSpec("desfire.file_settings.size", "Size", .hex)
    public let framing = FieldSpec("desfire.framing", "Framing", .text)
    public let key = FieldSpec("desfire.key", "Key number", .text)
    public let length = FieldSpec("desfire.length", "Length", .text)
    public let mac = FieldSpec("desfire.mac", "MAC", .hex)
    public let offset = FieldSpec("desfire.offset", "Offset", .text)
    public let responseData = FieldSpec("desfire.response_data", "Data", .hex)
    public let status = FieldSpec("desfire.status", "Status", .code)
    public let value = FieldSpec("desfire.value", "Value", .hex)
    public let version = FieldSpec("desfire.version", "GET VERSION (3 parts joined)", .text)
    public let versionProduction = FieldSpec("desfire.version.production", "Production", .text)
    public let versionStorage = FieldSpec("desfire.version.storage", "Storage", .hex)
    public let versionUid = FieldSpec("desfire.version.uid", "UID", .hex)
}

extension FieldSpec {
    /// `desfire.*`
    public static let desfire = DESFireFields()
}
