/// The fields of capture records (`capture.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields capture`).
public final class CaptureFields: FieldTable {
    public var name: String { "capture" }
    public var title: String { "capture records" }

    public let record = FieldSpec("capture.record", "Record", .hex)
}

extension FieldSpec {
    /// `capture.*`
    public static let capture = CaptureFields()
}
