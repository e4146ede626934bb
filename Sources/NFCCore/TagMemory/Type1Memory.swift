/// A Type 1 tag's memory as the NFC Forum mapping lays it out (T1T Operation §2): block 0 holds
/// UID0–6, block 1 starts with the CC, the data area runs from byte 12 to the end of block C,
/// blocks D and E are reserved and lock/OTP, and a dynamic-memory tag (HR0 lower nibble not 1)
/// continues after block F. Blocks are 8 bytes, segments 128.
public enum Type1Memory {
    public static let blockSize = 8
    public static let segmentSize = 128
    /// Blocks 0–E, what RALL answers.
    public static let staticSize = 120
    public static let capabilityContainerRange = 8..<12
    public static let dataAreaStart = 12
    /// Block D (reserved) and E (LOCK0, LOCK1, OTP0–5): outside the data area.
    public static let staticReserved = 104..<120
    /// Block F (LOCK2–3 and reserved) of a dynamic-memory tag, read with READ8.
    public static let blockF = 120..<128

    /// Block 0: UID0–6 and a reserved byte (T1T Operation §2.2).
    public enum HeaderLayout {
        public static let uid = FieldLayout(0, 7, "UID0–UID6")
        public static let reserved = FieldLayout(7, 1, "reserved byte of block 0")
    }

    /// The memory size a CC names: (TMS + 1) × 8 bytes, header blocks included (T1T Operation
    /// §2.4; `0E` is the 120 bytes of a Topaz 96, `3F` the 512 of a Topaz 512).
    public static func memorySize(_ cc: Type2CapabilityContainer) -> Int { (Int(cc.size) + 1) * blockSize }

    /// The areas outside the data area for a memory of `size` bytes (nfcpy's tt1 skips the same).
    public static func reservedAreas(memorySize size: Int) -> [Range<Int>] {
        size <= staticSize ? [staticReserved] : [staticReserved, blockF]
    }

    /// Reads an image from byte 0 of block 0. Never throws: what cannot be read is an issue.
    /// The CC has Type 2's four fields (magic E1, version, size, access), so its codec is
    /// reused; only the size means more here.
    public static func decode(_ image: TagMemoryImage) -> Type2MemoryLayout {
        var issues: [TagMemoryIssue] = []
        guard image.firstUnknown(in: capabilityContainerRange) == nil,
              let cc = try? Type2CapabilityContainer.decode(Array(image.bytes[capabilityContainerRange])) else {
            let runs = image.unknownRuns(in: capabilityContainerRange)
            issues.append(TagMemoryIssue(.warning, "t1t.cc.unread",
                                         "CC bytes \(TagMemoryImage.describe(runs)) were not read: the memory size is unknown",
                                         range: capabilityContainerRange))
            return Type2MemoryLayout(capabilityContainer: nil, tlvArea: nil, lockAreas: [], reservedAreas: [], issues: issues)
        }
        guard cc.isNDEF else {
            issues.append(TagMemoryIssue(.warning, "t1t.cc.magic", "CC0 \(Hex.byte(cc.magic)) is not E1: the tag is not NDEF formatted",
                                         range: capabilityContainerRange.lowerBound..<capabilityContainerRange.lowerBound + 1))
            return Type2MemoryLayout(capabilityContainer: cc, tlvArea: nil, lockAreas: [], reservedAreas: [], issues: issues)
        }
        if cc.majorVersion != 1 {
            issues.append(TagMemoryIssue(cc.majorVersion > 1 ? .error : .warning, "t1t.cc.version",
                                         "mapping version \(cc.versionText): readers support major version 1 and must reject a higher one",
                                         range: capabilityContainerRange.lowerBound + 1..<capabilityContainerRange.lowerBound + 2))
        }
        let size = memorySize(cc)
        let skips = reservedAreas(memorySize: size)
        let skipped = skips.reduce(0) { $0 + max(0, min($1.upperBound, size) - $1.lowerBound) }
        var walker = TagTLVWalker(image: image, start: dataAreaStart, size: size - dataAreaStart - skipped, flavor: .type1, skips: skips)
        let area = walker.walk()
        issues.append(contentsOf: area.issues)
        if let ndef = area.ndef { issues.append(contentsOf: Type2Memory.mapped(ndef)) }
        return Type2MemoryLayout(capabilityContainer: cc, tlvArea: area, lockAreas: area.controlAreas.filter { $0.kind == .lock },
                                 reservedAreas: area.controlAreas.filter { $0.kind == .reserved }, issues: issues)
    }

    /// A Topaz 96 image holding `message` in an NDEF Message TLV: UID in block 0, CC `E1 10 0E 00`,
    /// the TLV and a Terminator, zeros to the end of block C, blocks D and E zero (unlocked).
    public static func topaz96Image(uid: [UInt8], message: [UInt8]) throws(TagMemoryEncodingError) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: staticSize)
        for (i, b) in uid.prefix(HeaderLayout.uid.width).enumerated() { image[HeaderLayout.uid.offset + i] = b }
        let cc = Type2CapabilityContainer(size: UInt8(staticSize / blockSize - 1))
        for (i, b) in cc.bytes.enumerated() { image[capabilityContainerRange.lowerBound + i] = b }
        var tlvs = try TagTLV.encode(.ndef, value: message)
        tlvs.append(TagTLV.Tag.terminator.byte)
        guard dataAreaStart + tlvs.count <= staticReserved.lowerBound else {
            throw .invalidField("an NDEF message of \(message.count) bytes does not fit the 92-byte data area of a Topaz 96 (TLV and Terminator included)")
        }
        image.replaceSubrange(dataAreaStart..<dataAreaStart + tlvs.count, with: tlvs)
        return image
    }
}
