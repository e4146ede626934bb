/// The fields of NFC Forum Type 5 Tag memory (`t5t.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields t5t`).
public final class Type5TagFields: FieldTable {
    public var name: String { "t5t" }
    public var title: String { "NFC Forum Type 5 Tag memory" }
    /// The TLV area (`t5t.tlv.*`).
    public let tlv = TagTLVFields(prefix: "t5t")

    public let cc = FieldSpec("t5t.cc", "Capability Container", .hex)
    public let ccFeatures = FieldSpec("t5t.cc.features", "CC3 features", .text, layout: Type5CapabilityContainer.Layout.features)
    public let ccMagic = FieldSpec("t5t.cc.magic", "CC0 magic", .byte, layout: Type5CapabilityContainer.Layout.magic)
    public let ccMlen = FieldSpec("t5t.cc.mlen", "MLEN", .byte)
    public let ccReadAccess = FieldSpec("t5t.cc.read_access", "CC1 read access", .text, layout: Type5CapabilityContainer.Layout.versionAndAccess)
    public let ccRfu = FieldSpec("t5t.cc.rfu", "RFU", .hex, layout: Type5CapabilityContainer.Layout.rfu)
    public let ccVersion = FieldSpec("t5t.cc.version", "CC1 version", .text, layout: Type5CapabilityContainer.Layout.versionAndAccess)
    public let ccWriteAccess = FieldSpec("t5t.cc.write_access", "CC1 write access", .text, layout: Type5CapabilityContainer.Layout.versionAndAccess)
    public let dataArea = FieldSpec("t5t.data_area", "Data area", .text)
}

extension FieldSpec {
    /// `t5t.*`
    public static let t5t = Type5TagFields()
}
