/// The fields of NFC Forum Type 2 Tag memory (`t2t.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields t2t`).
public final class Type2TagFields: FieldTable {
    public var name: String { "t2t" }
    public var title: String { "NFC Forum Type 2 Tag memory" }
    /// The TLV area (`t2t.tlv.*`).
    public let tlv = TagTLVFields(prefix: "t2t")

    public let cc = FieldSpec("t2t.cc", "Capability Container", .hex)
    public let ccAccess = FieldSpec("t2t.cc.access", "CC3 access", .text)
    public let ccMagic = FieldSpec("t2t.cc.magic", "CC0 magic", .byte)
    public let ccSize = FieldSpec("t2t.cc.size", "CC2 data area size", .byte)
    public let ccVersion = FieldSpec("t2t.cc.version", "CC1 version", .code)
    public let dataArea = FieldSpec("t2t.data_area", "Data area", .text)
    public let header = FieldSpec("t2t.header", "Header (pages 0–2)", .text, layout: Type2Memory.HeaderLayout.all)
    public let lockArea = FieldSpec("t2t.lock_area", "Lock area", .text)
    public let reservedArea = FieldSpec("t2t.reserved_area", "Reserved area", .text)
    public let uid0 = FieldSpec("t2t.uid0", "UID0–UID2", .text, layout: Type2Memory.HeaderLayout.uid0)
    public let bcc0 = FieldSpec("t2t.bcc0", "BCC0", .text, layout: Type2Memory.HeaderLayout.bcc0)
    public let uid1 = FieldSpec("t2t.uid1", "UID3–UID6", .text, layout: Type2Memory.HeaderLayout.uid1)
    public let bcc1 = FieldSpec("t2t.bcc1", "BCC1", .text, layout: Type2Memory.HeaderLayout.bcc1)
    public let `internal` = FieldSpec("t2t.internal", "Internal", .text, layout: Type2Memory.HeaderLayout.internalByte)
    public let lockStatic = FieldSpec("t2t.lock.static", "Static lock bytes", .text, layout: Type2Memory.HeaderLayout.staticLock)
}

extension FieldSpec {
    /// `t2t.*`
    public static let t2t = Type2TagFields()
}
