/// The Type 5 Tag Capability Container at byte 0 of block 0 (protocols.md §6.5): 4 bytes, or
/// 8 bytes when the data area is larger than 2040 bytes (CC2 = `00`, MLEN in bytes 6–7).
public struct Type5CapabilityContainer: Sendable, Hashable {
    /// CC0: `E1` (1-byte block addresses reach the whole area) or `E2` (extended addressing).
    public var magic: UInt8
    /// CC1: version (b8–b5) and access conditions (b4–b1) share this byte.
    public var versionAndAccess: UInt8
    /// MLEN: data area size / 8 (from CC2, or from bytes 6–7 of the 8-byte form).
    public var mlen: UInt16
    /// CC3: feature bits (MBREAD, Lock Block, special frame).
    public var features: UInt8
    /// Whether this is the 8-byte form.
    public var isExtended: Bool
    /// Bytes 4–5 of the 8-byte form (RFU, `00 00`).
    public var rfu: [UInt8]

    public init(magic: UInt8 = 0xE1, versionAndAccess: UInt8 = 0x40, mlen: UInt16, features: UInt8 = 0x01) {
        self.magic = magic
        self.versionAndAccess = versionAndAccess
        self.mlen = mlen
        self.features = features
        self.isExtended = mlen > 0xFF
        self.rfu = [0, 0]
    }

    /// A CC for `dataAreaSize` bytes (rounded down to 8), in the 8-byte form when it needs it.
    public init(dataAreaSize: Int, magic: UInt8 = 0xE1, readOnly: Bool = false, features: UInt8 = 0x01) {
        self.init(magic: magic, versionAndAccess: readOnly ? 0x43 : 0x40,
                  mlen: UInt16(clamping: dataAreaSize / 8), features: features)
    }

    /// Where its bytes sit: CC0…CC3, then in the 8-byte form two RFU bytes and MLEN.
    public enum Layout {
        public static let magic = FieldLayout(0, 1, "CC0 (magic)")
        public static let versionAndAccess = FieldLayout(1, 1, "CC1 (version and access)")
        public static let mlen = FieldLayout(2, 1, "CC2 (MLEN)")
        public static let features = FieldLayout(3, 1, "CC3 (features)")
        public static let rfu = FieldLayout(4, 2, "bytes 4–5 of the 8-byte CC")
        public static let extendedMLEN = FieldLayout(6, 2, "MLEN (bytes 6–7 of the 8-byte CC)")
    }

    /// Where this CC is: byte 0 of block 0, 4 or 8 bytes.
    public var range: Range<Int> { Layout.magic.offset..<Layout.magic.offset + length }

    /// Where a CC is looked for before its form is known: the 4-byte form.
    public static let shortForm = FieldLayout(0, 4, "4-byte CC")

    /// Where this CC's MLEN is.
    public var mlenRange: Range<Int> { isExtended ? Layout.extendedMLEN.range : Layout.mlen.range }

    /// Reads 4 bytes, or 8 when CC2 is `00`.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> Type5CapabilityContainer {
        var c = ByteCursor(bytes)
        let magic = try c.readUInt8(Layout.magic)
        let cc1 = try c.readUInt8(Layout.versionAndAccess)
        let cc2 = try c.readUInt8(Layout.mlen)
        let cc3 = try c.readUInt8(Layout.features)
        var cc = Type5CapabilityContainer(magic: magic, versionAndAccess: cc1, mlen: UInt16(cc2), features: cc3)
        // CC2 = 00 announces the 8-byte form only on an NDEF-formatted tag: a blank block 0
        // (00 00 00 00) is "not NDEF formatted", not a truncated 8-byte CC.
        cc.isExtended = cc2 == 0 && (magic == 0xE1 || magic == 0xE2)
        if cc.isExtended {
            cc.rfu = try c.readBytes(Layout.rfu)
            cc.mlen = try c.readUInt16BE(Layout.extendedMLEN.expected)
        }
        return cc
    }

    public var bytes: [UInt8] {
        if isExtended {
            return [magic, versionAndAccess, 0x00, features] + rfu.prefix(2) + [UInt8](repeating: 0, count: max(0, 2 - rfu.count))
                + [UInt8(mlen >> 8), UInt8(truncatingIfNeeded: mlen)]
        }
        return [magic, versionAndAccess, UInt8(truncatingIfNeeded: mlen), features]
    }

    public var length: Int { isExtended ? 8 : 4 }
    public var isNDEF: Bool { magic == 0xE1 || magic == 0xE2 }
    public var majorVersion: UInt8 { versionAndAccess >> 6 }
    public var minorVersion: UInt8 { (versionAndAccess >> 4) & 0x03 }
    public var versionText: String { "\(majorVersion).\(minorVersion)" }
    /// Data area size in bytes: MLEN × 8.
    public var dataAreaSize: Int { Int(mlen) * 8 }

    public enum Access: Sendable, Hashable {
        case always, never, proprietary, rfu

        public var name: String {
            switch self {
            case .always: return "always"
            case .never: return "never"
            case .proprietary: return "proprietary"
            case .rfu: return "RFU"
            }
        }
    }

    /// b4–b3: `00` always, `10` proprietary, `01`/`11` RFU.
    public var readAccess: Access {
        switch (versionAndAccess >> 2) & 0x03 {
        case 0b00: return .always
        case 0b10: return .proprietary
        default: return .rfu
        }
    }

    /// b2–b1: `00` always, `01` RFU, `10` proprietary, `11` never.
    public var writeAccess: Access {
        switch versionAndAccess & 0x03 {
        case 0b00: return .always
        case 0b01: return .rfu
        case 0b10: return .proprietary
        default: return .never
        }
    }

    /// CC3 b1: Read Multiple Blocks supported.
    public var supportsReadMultipleBlocks: Bool { features & 0x01 != 0 }
    /// CC3 b4: Lock Block supported.
    public var supportsLockBlock: Bool { features & 0x08 != 0 }
    /// CC3 b5: the tag needs the special frame format.
    public var requiresSpecialFrame: Bool { features & 0x10 != 0 }
    /// Bits the mapping reserves.
    public var rfuFeatures: UInt8 { features & 0xE6 }

    public var featureNames: [String] {
        var names: [String] = []
        if supportsReadMultipleBlocks { names.append("MBREAD (Read Multiple Blocks supported)") }
        if supportsLockBlock { names.append("Lock Block supported") }
        if requiresSpecialFrame { names.append("special frame required") }
        if rfuFeatures != 0 { names.append("RFU bits \(Hex.byte(rfuFeatures))") }
        return names
    }

    func check(into issues: inout [TagMemoryIssue]) {
        if !isNDEF {
            issues.append(TagMemoryIssue(.warning, "t5t.cc.magic", "CC0 \(Hex.byte(magic)) is neither E1 nor E2: the tag is not NDEF formatted",
                                         range: 0..<1))
        }
        if isNDEF && majorVersion != 1 {
            issues.append(TagMemoryIssue(majorVersion > 1 ? .error : .warning, "t5t.cc.version",
                                         "mapping version \(versionText): readers support major version 1", range: 1..<2))
        }
        if readAccess == .rfu || writeAccess == .rfu {
            issues.append(TagMemoryIssue(.warning, "t5t.cc.access", "access bits \(readAccess.name)/\(writeAccess.name) use RFU values",
                                         range: 1..<2))
        }
        if rfuFeatures != 0 {
            issues.append(TagMemoryIssue(.note, "t5t.cc.features", "feature byte sets RFU bits \(Hex.byte(rfuFeatures))", range: 3..<4))
        }
        if isExtended && rfu.contains(where: { $0 != 0 }) {
            issues.append(TagMemoryIssue(.note, "t5t.cc.rfu", "bytes 4–5 of the 8-byte CC are not zero", range: 4..<6))
        }
        if isExtended && mlen <= 0xFF {
            issues.append(TagMemoryIssue(.note, "t5t.cc.form", "8-byte CC for MLEN \(mlen), which fits the 4-byte form", range: 6..<8))
        }
    }
}

/// A Type 5 tag's memory: CC, then the TLV area right after it.
public struct Type5MemoryLayout: Sendable, Equatable {
    public var capabilityContainer: Type5CapabilityContainer?
    public var tlvArea: TagTLVArea?
    public var issues: [TagMemoryIssue]

    public var ndef: TagNDEFMessage? { tlvArea?.ndef }
    public var tlvs: [TagTLV] { tlvArea?.tlvs ?? [] }
}

public enum Type5Memory {
    /// Reads an image from byte 0 of block 0.
    ///
    /// TLVs start right after the CC (byte 4 or 8), as ST's library reads them; §9 #19: neard
    /// starts at the next block boundary, which is the same for 4-byte blocks. The data area is
    /// MLEN × 8 bytes after the CC, bounded by the image.
    public static func decode(_ image: TagMemoryImage) -> Type5MemoryLayout {
        var issues: [TagMemoryIssue] = []
        let head = image.firstUnknown(in: 0..<4) == nil ? Array(image.bytes.prefix(8)) : []
        var cc = try? Type5CapabilityContainer.decode(head)
        if let c = cc, c.isExtended, image.firstUnknown(in: 4..<8) != nil { cc = nil }
        guard let cc else {
            issues.append(TagMemoryIssue(.warning, "t5t.cc.unread", "the capability container was not read (completely)",
                                         range: 0..<min(8, max(1, image.count))))
            return Type5MemoryLayout(capabilityContainer: nil, tlvArea: nil, issues: issues)
        }
        cc.check(into: &issues)
        guard cc.isNDEF else { return Type5MemoryLayout(capabilityContainer: cc, tlvArea: nil, issues: issues) }
        var walker = TagTLVWalker(image: image, start: cc.length, size: cc.dataAreaSize, flavor: .type5)
        let area = walker.walk()
        issues.append(contentsOf: area.issues)
        if let ndef = area.ndef { issues.append(contentsOf: Type2Memory.mapped(ndef)) }
        return Type5MemoryLayout(capabilityContainer: cc, tlvArea: area, issues: issues)
    }

    /// CC + NDEF Message TLV + Terminator, padded to `memorySize` bytes (the CC's MLEN covers
    /// the bytes after the CC).
    public static func image(message: [UInt8], memorySize: Int, magic: UInt8 = 0xE1, readOnly: Bool = false,
                             features: UInt8 = 0x01) throws(TagMemoryEncodingError) -> [UInt8] {
        let extended = (memorySize - 4) / 8 > 0xFF
        let ccLength = extended ? 8 : 4
        let areaSize = (memorySize - ccLength) / 8 * 8
        guard areaSize > 0 else { throw .invalidField("memory of \(memorySize) bytes has no room for a data area") }
        var cc = Type5CapabilityContainer(dataAreaSize: areaSize, magic: magic, readOnly: readOnly, features: features)
        cc.isExtended = extended
        var area = try TagTLV.encode(.ndef, value: message)
        if area.count < areaSize { area.append(0xFE) }
        guard area.count <= areaSize else { throw .messageTooLarge(needed: area.count, available: areaSize) }
        let out = cc.bytes + area
        return out + [UInt8](repeating: 0, count: max(0, memorySize - out.count))
    }
}
