/// The fields of ISO-DEP (ISO 14443-4) (`isodep.*`): their keys are JSON keys, replay rules and filters name them
/// (docs/json-output.md, `nfctrace dissect --list-fields isodep`).
public final class ISODEPFields: FieldTable {
    public var name: String { "isodep" }
    public var title: String { "ISO-DEP (ISO 14443-4)" }

    public let cid = FieldSpec("isodep.cid", "CID", .text)
    public let crc = FieldSpec("isodep.crc", "CRC", .hex)
    public let data = FieldSpec("isodep.data", "Data", .hex)
    public let fragment = FieldSpec("isodep.fragment", "Fragment", .hex)
    public let inf = FieldSpec("isodep.inf", "INF (repeated)", .hex)
    public let nad = FieldSpec("isodep.nad", "NAD", .byte)
    public let pcb = FieldSpec("isodep.pcb", "PCB", .byte)
    public let pcbAck = FieldSpec("isodep.pcb.ack", "ACK/NAK", .text)
    public let pcbBlockNumber = FieldSpec("isodep.pcb.block_number", "Block number", .text)
    public let pcbChaining = FieldSpec("isodep.pcb.chaining", "Chaining", .text)
    public let pcbType = FieldSpec("isodep.pcb.type", "Block type", .text)
    public let wtxm = FieldSpec("isodep.wtxm", "WTXM", .text)
}

extension FieldSpec {
    /// `isodep.*`
    public static let isodep = ISODEPFields()
}
