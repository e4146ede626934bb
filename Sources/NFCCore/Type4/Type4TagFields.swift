/// The fields of NFC Forum Type 4 Tag files (`t4t.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields t4t`).
public final class Type4TagFields: FieldTable {
    public var name: String { "t4t" }
    public var title: String { "NFC Forum Type 4 Tag files" }

    public let cc = FieldSpec("t4t.cc", "Type 4 CC", .text)
    public let ccCclen = FieldSpec("t4t.cc.cclen", "CCLEN", .hex)
    public let ccFileId = FieldSpec("t4t.cc.file_id", "File id", .hex)
    public let ccMaxSize = FieldSpec("t4t.cc.max_size", "Maximum size", .text)
    public let ccMlc = FieldSpec("t4t.cc.mlc", "MLc", .text)
    public let ccMle = FieldSpec("t4t.cc.mle", "MLe", .text)
    public let ccNdefFile = FieldSpec("t4t.cc.ndef_file", "Ndef file", .text)
    public let ccReadAccess = FieldSpec("t4t.cc.read_access", "Read access", .text)
    public let ccVersion = FieldSpec("t4t.cc.version", "Mapping version", .code)
    public let ccWriteAccess = FieldSpec("t4t.cc.write_access", "Write access", .text)
    public let ndef = FieldSpec("t4t.ndef", "NDEF message", .text)
    public let ndefFile = FieldSpec("t4t.ndef_file", "NDEF file", .text)
    public let nlen = FieldSpec("t4t.nlen", "NLEN", .text)
}

extension FieldSpec {
    /// `t4t.*`
    public static let t4t = Type4TagFields()
}
