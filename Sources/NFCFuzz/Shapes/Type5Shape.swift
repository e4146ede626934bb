import NFCCore

/// Type 5 tag memory images from block 0: the 4- or 8-byte Capability Container (E1/E2, version
/// and access, MLEN, features) and the TLV area after it (T5T §4; protocols.md §6.5).
public struct Type5Shape: ShapeMutator {
    let ndef = NDEFShape()

    /// The Type 5 memory-image shape; it has no settings.
    public init() {}

    /// Type 5 magic: CC bytes (E1/E2, version and access, MLEN, feature bits), TLV tags and NDEF
    /// values.
    public var dictionary: [[UInt8]] {
        [[0xE1, 0x40], [0xE2, 0x40], [0xE1, 0x40, 0x40, 0x01], [0xE1, 0x40, 0x00, 0x01], [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00],
         [0xE1, 0x43], [0xE1, 0x80], [0x03, 0x00, 0xFE], [0x03, 0xFF], [0xFE], [0xFD], [0x00]] + NDEFShape.magic.prefix(10)
    }

    struct Image {
        var cc: Type5CapabilityContainer
        var area: TLVAreaModel
        /// Padding to the data area MLEN announces, capped so images stay small.
        var pad: Bool = true

        func encode() -> [UInt8] {
            var bytes = cc.bytes + area.encode()
            let size = cc.length + min(cc.dataAreaSize, 2048)
            if pad && bytes.count < size { bytes += [UInt8](repeating: 0, count: size - bytes.count) }
            return bytes
        }
    }

    static func decode(_ input: [UInt8]) -> Image? {
        let layout = Type5Memory.decode(TagMemoryImage(bytes: input))
        guard let cc = layout.capabilityContainer, let area = layout.tlvArea else { return nil }
        return Image(cc: cc, area: TLVAreaModel(area))
    }

    /// Whether the image decodes with a complete NDEF Message TLV, no error-severity issue, and a
    /// message that is well formed (or empty).
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        let layout = Type5Memory.decode(TagMemoryImage(bytes: input))
        guard let ndef = layout.ndef, ndef.tlv.isComplete else { return false }
        // The message judged strictly: a Text or URI payload broken inside valid framing is broken.
        let message = ndef.tlv.value.isEmpty || NDEFShape().isWellFormed(ndef.tlv.value)
        return !layout.issues.contains { $0.severity == .error } && message
    }

    static func cc(for message: [UInt8], _ r: inout FuzzRandom, extended: Bool = false) -> Type5CapabilityContainer {
        let area = max(64, (message.count + 12 + 7) / 8 * 8)
        var cc = Type5CapabilityContainer(dataAreaSize: area, magic: extended || r.chance(20) ? 0xE2 : 0xE1,
                                          readOnly: r.chance(10), features: r.pick(0x01, 0x00, 0x09, 0x11))
        if extended { cc.isExtended = true }
        return cc
    }

    /// Images of NDEF seed messages with 4-byte and 8-byte CCs, and a formatted, empty tag.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x5435)
        var out = ndef.seeds().prefix(5).enumerated().map { i, message in
            Image(cc: Self.cc(for: message, &r, extended: i == 4), area: .holding(message)).encode()
        }
        out.append(Image(cc: Type5CapabilityContainer(mlen: 0x40), area: .holding([])).encode())   // formatted, empty
        return out
    }

    /// The image of a fresh NDEF message with a CC that fits it (sometimes the 8-byte form).
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        let message = ndef.generate(&m)
        return Image(cc: Self.cc(for: message, &m.random, extended: m.random.chance(15)), area: .holding(message)).encode()
    }

    /// Decodes the image and changes one part, keeping it consistent: the TLV area or the NDEF
    /// message (MLEN grown when needed), version and access, feature bits, magic E1/E2, the 4- or
    /// 8-byte CC form, MLEN.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([70, 8, 6, 6, 5, 5]) {
        case 0:
            image.area.mutate(&m, type2: false, dataEnd: image.cc.length + image.cc.dataAreaSize, ndef: ndef)
            let needed = (image.area.encode().count + 7) / 8
            if needed > Int(image.cc.mlen) { image.cc.mlen = UInt16(clamping: needed); image.cc.isExtended = image.cc.isExtended || needed > 0xFF }
        case 1: image.cc.versionAndAccess = m.random.pick(0x40, 0x43, 0x41, 0x48, 0x50, 0x4F)
        case 2: image.cc.features = m.random.pick(0x00, 0x01, 0x08, 0x10, 0x19, 0xE6)
        case 3: image.cc.magic = image.cc.magic == 0xE1 ? 0xE2 : 0xE1
        case 4:
            // The 8-byte form (CC2 = 00, MLEN in bytes 6–7), or back to 4 bytes when MLEN fits.
            image.cc.isExtended = image.cc.isExtended ? image.cc.mlen > 0xFF : true
        default:
            image.cc.mlen = UInt16((image.area.encode().count + 7) / 8 + m.random.below(8))
            image.cc.isExtended = image.cc.isExtended || image.cc.mlen > 0xFF
        }
        return image.encode()
    }

    /// Breaks the image on purpose: TLV lengths and order, MLEN too small or huge, an unknown major
    /// version or RFU access, a wrong magic, an 8-byte CC cut short or with RFU bytes set, a cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([45, 15, 10, 10, 10, 10]) {
        case 0: image.area.breakEntries(&m, ndef: ndef)
        case 1: image.cc.mlen = m.random.pick(0, 1, 2, 0xFF, 0xFFFF, UInt16(image.area.encode().count / 8))   // area too small or huge
        case 2: image.cc.versionAndAccess = m.random.pick(0x80, 0xC0, 0x00, 0x44, 0x4C)   // version 2.x, 0.x, RFU access
        case 3: image.cc.magic = m.random.pick(0x00, 0xE0, 0xE3, 0xFF)
        case 4:
            // Extended CC cut short, or its RFU bytes set.
            image.cc.isExtended = true
            if m.random.bool() { image.cc.rfu = [0xFF, 0x01] } else { return Array(image.cc.bytes.prefix(4 + m.random.below(4))) }
        default: return truncated(image.encode(), &m.random)
        }
        image.pad = m.random.chance(80)
        return image.encode()
    }

    /// Takes the other image's CC or adds its TLVs (at most 6); nil when either image does not
    /// decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var x = Self.decode(a), let y = Self.decode(b) else { return nil }
        if m.random.bool() { x.cc = y.cc } else { x.area.entries = Array((x.area.entries + y.area.entries).prefix(6)) }
        return x.encode()
    }
}
