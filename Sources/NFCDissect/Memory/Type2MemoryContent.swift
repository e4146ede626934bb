import NFCCore

/// What the rebuilt memory of a Type 2 tag holds, decoded with the NFC Forum Type 2 mapping:
/// CC, TLVs (Lock/Memory Control areas skipped), the NDEF message and its records.
enum Type2MemoryContent {
    /// The layout of the memory the map places, or nil when the session read neither the CC nor
    /// the data area: only what the reader saw is worth decoding.
    static func decode(_ memory: TagMemoryImage, map: Type2MemoryMap) -> (layout: Type2MemoryLayout, image: TagMemoryImage)? {
        let image = memory.prefix(min(map.totalPages, TagMemoryImage.type2MaxPages) * TagMemoryImage.type2PageSize)
        let layout = Type2Memory.decode(image)
        guard layout.capabilityContainer != nil || layout.tlvs.contains(where: { $0.tag != .null }) else { return nil }
        return (layout, image)
    }
}
