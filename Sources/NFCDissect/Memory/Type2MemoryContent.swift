import NFCCore

/// What the rebuilt memory of a Type 2 tag holds, decoded with the NFC Forum Type 2 mapping:
/// CC, TLVs (Lock/Memory Control areas skipped), the NDEF message and its records.
enum Type2MemoryContent {
    static func describe(_ memory: TagMemoryImage, map: Type2MemoryMap, detail: DissectionDetail)
        -> (fields: [Field], notes: [String], diagnostics: [Diagnostic]) {
        let image = memory.prefix(min(map.totalPages, TagMemoryImage.type2MaxPages) * TagMemoryImage.type2PageSize)
        let layout = Type2Memory.decode(image)
        // Only what the reader saw is worth a line: a session that never read the CC or the
        // data area has nothing to decode.
        guard layout.capabilityContainer != nil || layout.tlvs.contains(where: { $0.tag != .null }) else { return ([], [], []) }
        let diagnostics = layout.issues.map(Diagnostic.init)
        if detail == .full {
            return (TagMemoryDescriber.describe(layout, image: image).fields, [], diagnostics)
        }
        var notes: [String] = []
        if let cc = layout.capabilityContainer {
            if cc.isNDEF {
                notes.append("CC \(Hex.string(cc.bytes)): NDEF mapping \(cc.versionText), \(cc.dataAreaSize)-byte data area, read \(cc.readAccess.name), write \(cc.writeAccess.name)")
            } else {
                notes.append("CC \(Hex.string(cc.bytes)): magic \(Hex.byte(cc.magic)), not NDEF formatted")
            }
        }
        if let area = layout.tlvArea, !area.tlvs.isEmpty {
            notes.append("TLVs from byte \(Type2Memory.dataAreaStart):")
            notes.append(contentsOf: TagTLVLines.lines(area).map { "  " + $0 })
        }
        return ([], notes, diagnostics)
    }
}
