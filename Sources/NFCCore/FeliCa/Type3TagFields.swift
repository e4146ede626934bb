/// The fields of NFC Forum Type 3 Tag memory (`t3t.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields t3t`).
public final class Type3TagFields: FieldTable {
    public var name: String { "t3t" }
    public var title: String { "NFC Forum Type 3 Tag memory" }

    public let aib = FieldSpec("t3t.aib", "Attribute Information Block", .text, layout: Type3AttributeInformationBlock.Layout.all)
    public let aibChecksum = FieldSpec("t3t.aib.checksum", "Checksum", .hex, layout: Type3AttributeInformationBlock.Layout.checksum)
    public let aibLn = FieldSpec("t3t.aib.ln", "Ln", .hex, layout: Type3AttributeInformationBlock.Layout.ln)
    public let aibNbr = FieldSpec("t3t.aib.nbr", "Nbr", .text, layout: Type3AttributeInformationBlock.Layout.nbr)
    public let aibNbw = FieldSpec("t3t.aib.nbw", "Nbw", .text, layout: Type3AttributeInformationBlock.Layout.nbw)
    public let aibNmaxb = FieldSpec("t3t.aib.nmaxb", "Nmaxb", .hex, layout: Type3AttributeInformationBlock.Layout.nmaxb)
    public let aibReserved = FieldSpec("t3t.aib.reserved", "Reserved", .hex, layout: Type3AttributeInformationBlock.Layout.reserved)
    public let aibRwflag = FieldSpec("t3t.aib.rwflag", "RWFlag", .byte, layout: Type3AttributeInformationBlock.Layout.rwFlag)
    public let aibVersion = FieldSpec("t3t.aib.version", "Ver", .code, layout: Type3AttributeInformationBlock.Layout.version)
    public let aibWritef = FieldSpec("t3t.aib.writef", "WriteF", .byte, layout: Type3AttributeInformationBlock.Layout.writeF)
    public let ndef = FieldSpec("t3t.ndef", "NDEF data", .hex)
}

extension FieldSpec {
    /// `t3t.*`
    public static let t3t = Type3TagFields()
}
