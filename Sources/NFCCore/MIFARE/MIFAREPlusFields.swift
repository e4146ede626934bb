/// The fields of MIFARE Plus (`mfp.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields mfp`).
public final class MIFAREPlusFields: FieldTable {
    public var name: String { "mfp" }
    public var title: String { "MIFARE Plus" }

    public let block = FieldSpec("mfp.block", "Block number", .text)
    public let command = FieldSpec("mfp.command", "Command", .code)
    public let count = FieldSpec("mfp.count", "Blocks", .text)
    public let data = FieldSpec("mfp.data", "Data", .text)
    public let destination = FieldSpec("mfp.destination", "Destination", .text)
    public let lencap = FieldSpec("mfp.lencap", "LenCap", .text)
    public let mac = FieldSpec("mfp.mac", "MAC", .text)
    public let pcdcap2 = FieldSpec("mfp.pcdcap2", "PCDcap2", .hex)
    public let responseData = FieldSpec("mfp.response_data", "Data", .text)
    public let status = FieldSpec("mfp.status", "Status", .code)
}

extension FieldSpec {
    /// `mfp.*`
    public static let mfp = MIFAREPlusFields()
}
