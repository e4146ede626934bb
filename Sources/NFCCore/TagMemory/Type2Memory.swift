/// A Type 2 tag's memory read as the NFC Forum mapping lays it out: header, CC, TLV area with
/// its lock and reserved areas, and the NDEF message (protocols.md §3).
public struct Type2MemoryLayout: Sendable, Equatable {
    /// Nil when bytes 12–15 were not read (or the image is shorter).
    public var capabilityContainer: Type2CapabilityContainer?
    /// The walked TLV area; nil when the CC says the tag is not NDEF formatted.
    public var tlvArea: TagTLVArea?
    /// Lock areas in force: those of Lock Control TLVs, or the default dynamic lock area.
    public var lockAreas: [Type2ControlArea]
    public var reservedAreas: [Type2ControlArea]
    /// Every issue, TLV and NDEF issues included (NDEF issues mapped to image offsets).
    public var issues: [TagMemoryIssue]

    public var ndef: TagNDEFMessage? { tlvArea?.ndef }
    public var tlvs: [TagTLV] { tlvArea?.tlvs ?? [] }
}

public enum Type2Memory {
    /// Bytes 0–15 are UID, lock and CC; the data area starts at page 4.
    public static let dataAreaStart = 16
    public static let capabilityContainerRange = Type2CapabilityContainer.Layout.imageRange

    /// Pages 0–2 before the CC: the UID with its two BCCs, the internal byte and the static
    /// lock bytes (NTAG213/215/216 datasheet §8.5).
    public enum HeaderLayout {
        public static let all = FieldLayout(0, 12, "pages 0–2")
        public static let uid0 = FieldLayout(0, 3, "UID0–UID2")
        public static let bcc0 = FieldLayout(3, 1, "BCC0")
        public static let uid1 = FieldLayout(4, 4, "UID3–UID6")
        public static let bcc1 = FieldLayout(8, 1, "BCC1")
        public static let internalByte = FieldLayout(9, 1, "internal byte")
        public static let staticLock = FieldLayout(10, 2, "static lock bytes")
    }

    /// Reads a memory image from byte 0 of page 0. Never throws: what cannot be read is an issue.
    public static func decode(_ image: TagMemoryImage) -> Type2MemoryLayout {
        var issues: [TagMemoryIssue] = []
        var cc: Type2CapabilityContainer?
        if image.firstUnknown(in: capabilityContainerRange) == nil {
            cc = try? Type2CapabilityContainer.decode(Array(image.bytes[capabilityContainerRange]))
        }
        let size: Int
        if let cc {
            cc.check(into: &issues)
            guard cc.isNDEF else {
                return Type2MemoryLayout(capabilityContainer: cc, tlvArea: nil, lockAreas: [], reservedAreas: [], issues: issues)
            }
            size = cc.dataAreaSize
        } else {
            let runs = image.unknownRuns(in: capabilityContainerRange)
            issues.append(TagMemoryIssue(.warning, "t2t.cc.unread",
                                         "CC bytes \(TagMemoryImage.describe(runs)) were not read: the data area size is unknown, "
                                             + "TLVs are read up to the end of the image", range: capabilityContainerRange))
            size = max(0, image.count - dataAreaStart)
        }
        var walker = TagTLVWalker(image: image, start: dataAreaStart, size: size, flavor: .type2)
        let area = walker.walk()
        issues.append(contentsOf: area.issues)
        var locks = area.controlAreas.filter { $0.kind == .lock }
        if locks.isEmpty, let cc, let fallback = Type2ControlArea.defaultDynamicLock(dataAreaSize: cc.dataAreaSize) {
            locks = [fallback]
        }
        if let ndef = area.ndef { issues.append(contentsOf: mapped(ndef)) }
        return Type2MemoryLayout(capabilityContainer: cc, tlvArea: area, lockAreas: locks,
                                 reservedAreas: area.controlAreas.filter { $0.kind == .reserved }, issues: issues)
    }

    /// NDEF issues at image offsets, so that memory diagnostics point at the right bytes.
    static func mapped(_ ndef: TagNDEFMessage) -> [TagMemoryIssue] {
        ndef.result.issues.map { i in
            let at = ndef.imageOffset(ofMessageByte: i.offset) ?? ndef.tlv.range.upperBound
            let severity: TagMemoryIssue.Severity = !i.isBreach ? .note : (i.tolerated ? .warning : .error)
            return TagMemoryIssue(severity, "ndef." + i.rule.rawValue,
                                  "NDEF message byte \(i.offset): \(i.message)", range: at..<(at + 1))
        }
    }

    /// A formatted memory image holding `message`: header, CC, an optional Lock Control TLV,
    /// the NDEF Message TLV, a Terminator, padding, then the model's lock and configuration
    /// pages in their factory state (`Type2FactoryImage.applyTail`).
    ///
    /// - Parameters:
    ///   - header: bytes 0–11 (UID, BCC, internal, static lock bytes); zeros when nil.
    ///   - lockControl: include a Lock Control TLV naming the dynamic lock bytes; by default only
    ///     for NTAG213, whose factory image has one (`01 03 A0 0C 34`).
    public static func image(model: Type2TagModel, message: [UInt8], header: [UInt8]? = nil,
                             lockControl: Bool? = nil) throws(TagMemoryEncodingError) -> [UInt8] {
        let map = model.memoryMap
        let cc = Type2CapabilityContainer.factory(for: model)
        var lockTLV: [UInt8] = []
        if lockControl ?? (model == .ntag213 || model == .ntag213F), let lockPage = map.dynamicLockPage,
           let area = Type2ControlArea.defaultDynamicLock(dataAreaSize: cc.dataAreaSize) {
            // Position in 16-byte "pages" (n = 4): page = byte / 16, offset = byte % 16.
            let byte = lockPage * 4
            guard byte / 16 <= 0x0F else { throw .invalidField("lock bytes at \(byte) are beyond what a Lock Control TLV can name") }
            lockTLV = [0x01, 0x03, UInt8(byte / 16) << 4 | UInt8(byte % 16), UInt8(clamping: area.lockBits ?? 0), 0x34]
        }
        var image = try image(capabilityContainer: cc, message: message, header: header, prefix: lockTLV)
        let total = map.totalPages * 4
        if image.count < total { image += [UInt8](repeating: 0, count: total - image.count) }
        Type2FactoryImage.applyTail(model, to: &image)
        return image
    }

    /// Header + CC + `prefix` TLVs + NDEF Message TLV + Terminator, padded to the data area.
    public static func image(capabilityContainer cc: Type2CapabilityContainer, message: [UInt8], header: [UInt8]? = nil,
                             prefix: [UInt8] = []) throws(TagMemoryEncodingError) -> [UInt8] {
        let head = header ?? [UInt8](repeating: 0, count: 12)
        guard head.count == 12 else { throw .invalidField("header of \(head.count) bytes, needs 12 (pages 0–2)") }
        var area = prefix + (try TagTLV.encode(.ndef, value: message))
        if area.count < cc.dataAreaSize { area.append(0xFE) }
        guard area.count <= cc.dataAreaSize else { throw .messageTooLarge(needed: area.count, available: cc.dataAreaSize) }
        area += [UInt8](repeating: 0, count: cc.dataAreaSize - area.count)
        return head + cc.bytes + area
    }
}
