import NFCCore

/// What the rebuilt memory of a Type 2 tag holds: CC, TLVs, NDEF.
/// (Interim: the CC only, until the NDEF/TLV decoders land.)
enum Type2MemoryContent {
    static func describe(_ memory: Type2MemoryImage, map: Type2MemoryMap, detail: DissectionDetail) -> (fields: [Field], notes: [String]) {
        guard let cc = memory.page(3) else { return ([], []) }
        let text = "CC \(Hex.string(cc))"
        return ([Field("t2t.cc", "CC", Hex.string(cc))], [text])
    }
}
