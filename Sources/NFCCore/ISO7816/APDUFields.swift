/// The fields of ISO 7816-4 APDUs (`apdu.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields apdu`).
public final class APDUFields: FieldTable {
    public var name: String { "apdu" }
    public var title: String { "ISO 7816-4 APDUs" }

    public let bytes = FieldSpec("apdu.bytes", "Bytes", .hex)
    public let cla = FieldSpec("apdu.cla", "CLA", .text)
    public let data = FieldSpec("apdu.data", "Data", .hex)
    public let ins = FieldSpec("apdu.ins", "INS", .code)
    public let lc = FieldSpec("apdu.lc", "Lc", .text)
    public let le = FieldSpec("apdu.le", "Le", .text)
    public let p1 = FieldSpec("apdu.p1", "P1", .text)
    public let p2 = FieldSpec("apdu.p2", "P2", .byte)
    public let reassembled = FieldSpec("apdu.reassembled", "Reassembled", .text)
    public let responseData = FieldSpec("apdu.response_data", "Data", .hex)
    public let sw = FieldSpec("apdu.sw", "Status word", .text)
    public let tlv = FieldSpec("apdu.tlv", "Tlv", .hex)
}

extension FieldSpec {
    /// `apdu.*`
    public static let apdu = APDUFields()
}
