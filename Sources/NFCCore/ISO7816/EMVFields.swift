/// The fields of EMV payment applications (`emv.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields emv`).
public final class EMVFields: FieldTable {
    public var name: String { "emv" }
    public var title: String { "EMV payment applications" }

    public let dolValue = FieldSpec("emv.dol_value", "Dol value", .hex)
    public let dolValues = FieldSpec("emv.dol_values", "Values", .text)
    public let generateAcP1 = FieldSpec("emv.generate_ac.p1", "Cryptogram requested", .text)
}

extension FieldSpec {
    /// `emv.*`
    public static let emv = EMVFields()
}
