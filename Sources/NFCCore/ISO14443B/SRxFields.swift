/// The fields of ST SRx (SRI512, SRIX4K …) (`srx.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields srx`).
public final class SRxFields: FieldTable {
    public var name: String { "srx" }
    public var title: String { "ST SRx (SRI512, SRIX4K …)" }

    public let block = FieldSpec("srx.block", "Block", .text)
    public let chipId = FieldSpec("srx.chip_id", "Chip_ID", .byte)
    public let command = FieldSpec("srx.command", "Command", .text)
    public let counter = FieldSpec("srx.counter", "Counter", .hex)
    public let data = FieldSpec("srx.data", "Data", .hex)
    public let model = FieldSpec("srx.model", "Model", .text)
    public let random = FieldSpec("srx.random", "Random", .hex)
    public let signature = FieldSpec("srx.signature", "Signature", .hex)
    public let uid = FieldSpec("srx.uid", "UID", .hex)
}

extension FieldSpec {
    /// `srx.*`
    public static let srx = SRxFields()
}
