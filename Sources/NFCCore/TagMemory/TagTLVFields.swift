/// The fields of a TLV area (NFC Forum Type 2/5 Tag, MIFARE Classic NDEF sectors): the same
/// kinds under each tag type's prefix (`t2t.tlv.ndef.length`, `t5t.tlv.terminator` …).
public final class TagTLVFields: FieldTable {
    public let name: String
    public var title: String { "TLV blocks of \(name)" }

    /// The fields of one TLV kind with a length and a value.
    public final class TLV: FieldTable {
        public let name: String
        public var title: String { name }
        public let base: FieldSpec
        public let type: FieldSpec
        public let length: FieldSpec
        public let value: FieldSpec
        /// The value's bytes, when nothing more is decoded from them.
        public let bytes: FieldSpec
        /// Lock and Memory Control TLVs: where the area is and how it is counted.
        public let position: FieldSpec?
        public let size: FieldSpec?
        public let bytesLockedPerBit: FieldSpec?
        public let bytesPerPage: FieldSpec?

        init(_ base: String, _ label: String, control: Bool = false, lock: Bool = false) {
            name = base
            self.base = FieldSpec(base, label, .text)
            type = FieldSpec(base + ".type", "T", .byte)
            length = FieldSpec(base + ".length", "L", .text)
            value = FieldSpec(base + ".value", "V", .text)
            bytes = FieldSpec(base + ".bytes", "Bytes", .hex)
            position = control ? FieldSpec(base + ".position", "Position", .text) : nil
            size = control ? FieldSpec(base + ".size", "Size", .text) : nil
            bytesLockedPerBit = lock ? FieldSpec(base + ".bytes_locked_per_bit", "Bytes locked per bit", .text) : nil
            bytesPerPage = control ? FieldSpec(base + ".bytes_per_page", "Bytes per page", .text) : nil
        }
    }

    /// NULL and Terminator TLVs are a lone T byte: one field each.
    public let null: FieldSpec
    public let lockControl: TLV
    public let memoryControl: TLV
    public let ndef: TLV
    public let proprietary: TLV
    public let terminator: FieldSpec
    public let rfu: TLV

    /// `prefix`: the tag type's key prefix (`t2t`).
    public init(prefix: String) {
        name = prefix
        let p = prefix + ".tlv."
        null = FieldSpec(p + "null", "NULL TLV", .text)
        lockControl = TLV(p + "lock_control", "Lock Control TLV", control: true, lock: true)
        memoryControl = TLV(p + "memory_control", "Memory Control TLV", control: true)
        ndef = TLV(p + "ndef", "NDEF Message TLV")
        proprietary = TLV(p + "proprietary", "Proprietary TLV")
        terminator = FieldSpec(p + "terminator", "Terminator TLV", .text)
        rfu = TLV(p + "rfu", "RFU TLV")
    }
}
