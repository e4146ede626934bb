/// The fields of Xerox memory chips (14443-B) (`xerox.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields xerox`).
public final class XeroxFields: FieldTable {
    public var name: String { "xerox" }
    public var title: String { "Xerox memory chips (14443-B)" }

    public let attribParameters = FieldSpec("xerox.attrib_parameters", "Parameters", .hex)
    public let block = FieldSpec("xerox.block", "Block", .text)
    public let command = FieldSpec("xerox.command", "Command", .text)
    public let crc = FieldSpec("xerox.crc", "CRC", .hex)
    public let data = FieldSpec("xerox.data", "Data", .hex)
    public let info = FieldSpec("xerox.info", "Chip information", .hex)
    public let password = FieldSpec("xerox.password", "Password data", .hex)
    public let slot = FieldSpec("xerox.slot", "Slot", .text)
    public let status = FieldSpec("xerox.status", "Status", .text)
    public let uid = FieldSpec("xerox.uid", "UID", .hex)
    public let wakeupParameters = FieldSpec("xerox.wakeup_parameters", "Parameters", .hex)
}

extension FieldSpec {
    /// `xerox.*`
    public static let xerox = XeroxFields()
}
