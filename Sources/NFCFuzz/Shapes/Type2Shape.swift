import NFCCore

/// Type 2 tag memory images from page 0: UID/lock header, Capability Container, TLV area with
/// Lock/Memory Control TLVs and the NDEF Message TLV (T2T §2, §6.1; protocols.md §3).
public struct Type2Shape: ShapeMutator {
    let ndef = NDEFShape()

    /// The Type 2 memory-image shape; it has no settings.
    public init() {}

    /// CC2 values of real tags (NTAG210/212/213/215/216, Ultralight) and edge values.
    static let ccSizes: [UInt8] = [0x06, 0x10, 0x12, 0x3E, 0x6D, 0x00, 0x01, 0x02, 0xFF]

    /// Type 2 magic: CC bytes of real tags (E1 10 12/3E/6D), NDEF, Lock Control, Memory Control and
    /// Terminator TLVs, and NDEF values.
    public var dictionary: [[UInt8]] {
        [[0xE1, 0x10], [0xE1, 0x10, 0x12, 0x00], [0xE1, 0x10, 0x3E, 0x00], [0xE1, 0x10, 0x6D, 0x00], [0xE1, 0x11], [0xE1, 0x20],
         [0x03, 0x00, 0xFE], [0x03, 0xFF], [0x03, 0xFF, 0x01, 0x00], [0x01, 0x03, 0xA0, 0x0C, 0x34], [0x02, 0x03], [0xFD], [0xFE], [0x00],
         [0x0F], [0x04]] + NDEFShape.magic.prefix(10)
    }

    struct Image {
        var header: [UInt8]
        var cc: Type2CapabilityContainer
        var area: TLVAreaModel
        /// Bytes after the data area (dynamic lock bytes, configuration pages).
        var tail: [UInt8]

        func encode(padding: Bool = true) -> [UInt8] {
            var area = self.area.encode()
            if padding && area.count < cc.dataAreaSize { area += [UInt8](repeating: 0, count: cc.dataAreaSize - area.count) }
            return header + cc.bytes + area + tail
        }
    }

    static func decode(_ input: [UInt8]) -> Image? {
        guard input.count >= 16 else { return nil }
        let layout = Type2Memory.decode(TagMemoryImage(bytes: input))
        guard let cc = layout.capabilityContainer, let area = layout.tlvArea else { return nil }
        let end = 16 + cc.dataAreaSize
        let tail = end < input.count ? Array(input[end...].prefix(64)) : []
        return Image(header: Array(input[0..<12]), cc: cc, area: TLVAreaModel(area), tail: tail)
    }

    /// Whether the image decodes with a complete NDEF Message TLV, no error-severity issue, and a
    /// message that is well formed (or empty, a formatted tag's initial state).
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        let layout = Type2Memory.decode(TagMemoryImage(bytes: input))
        guard let ndef = layout.ndef, ndef.tlv.isComplete else { return false }
        // An empty NDEF TLV is the initialised state of a formatted tag (T2T §4.4.2): well-formed.
        // The message judged strictly: a Text or URI payload broken inside valid framing is broken.
        let message = ndef.tlv.value.isEmpty || NDEFShape().isWellFormed(ndef.tlv.value)
        return !layout.issues.contains { $0.severity == .error } && message
    }

    static let uidHeader: [UInt8] = [0x04, 0xE1, 0x7A, 0x17, 0x20, 0x4B, 0x2C, 0x80, 0xCF, 0x48, 0x00, 0x00]

    /// The smallest CC2 of a real tag whose data area holds `message` in a TLV (with room for a
    /// Lock Control TLV and the Terminator).
    static func ccSize(fitting message: [UInt8]) -> UInt8 {
        let needed = message.count + 10
        return [0x06, 0x10, 0x12, 0x3E, 0x6D].first { Int($0) * 8 >= needed } ?? UInt8(clamping: (needed + 7) / 8)
    }

    func image(message: [UInt8], ccSize: UInt8? = nil, lockControl: Bool) -> [UInt8] {
        let ccSize = max(ccSize ?? 0, Self.ccSize(fitting: message))
        let prefix: [TLVAreaModel.Entry] = lockControl ? [.init(tag: 0x01, value: [0xA0, 0x0C, 0x34])] : []
        let area = TLVAreaModel(entries: prefix + [.init(tag: 0x03, value: message)])
        return Image(header: Self.uidHeader, cc: Type2CapabilityContainer(size: ccSize), area: area, tail: []).encode()
    }

    /// Images of NDEF seed messages with CC sizes of real tags (some with a Lock Control TLV), a
    /// blank NTAG210 and an NTAG213-like formatted tag.
    public func seeds() -> [[UInt8]] {
        let messages = ndef.seeds()
        var out: [[UInt8]] = []
        for (i, message) in messages.prefix(6).enumerated() {
            out.append(image(message: message, ccSize: i % 2 == 0 ? nil : 0x3E, lockControl: i % 3 == 0))
        }
        out.append(image(message: [], ccSize: 0x06, lockControl: false))   // blank NTAG210
        // NTAG213-like: Lock Control for the bytes after the data area, a Memory Control TLV, an empty NDEF TLV.
        let area = TLVAreaModel(entries: [.init(tag: 0x01, value: [0xA0, 0x0C, 0x34]), .init(tag: 0x02, value: TLVAreaModel.controlValue(position: 176, size: 8, bitsPerLock: 0)),
                                          .init(tag: 0x03, value: [])])
        out.append(Image(header: Self.uidHeader, cc: Type2CapabilityContainer(size: 0x12), area: area, tail: []).encode())
        return out
    }

    /// The image of a fresh NDEF message: UID/lock header, CC sized for it, TLV area.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        image(message: ndef.generate(&m), ccSize: m.random.chance(20) ? 0x3E : nil, lockControl: m.random.chance(30))
    }

    /// Decodes the image and changes one part, keeping it consistent: the TLV area or the NDEF
    /// message in it (the CC grown when needed), CC size, version or access, the header, the bytes
    /// after the data area.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([70, 8, 5, 5, 4, 4, 4]) {
        case 0:
            image.area.mutate(&m, type2: true, dataEnd: 16 + image.cc.dataAreaSize, ndef: ndef)
            // A message that outgrew the data area gets the next real tag size (as a writer would pick a bigger tag).
            if image.area.encode().count > image.cc.dataAreaSize { image.cc.size = Self.ccSize(fitting: image.area.encode()) }
        case 1: image.cc.size = max(Self.ccSize(fitting: image.area.encode()), m.random.element([0x06, 0x10, 0x12, 0x3E, 0x6D]) ?? 0x12)
        case 2: image.cc.version = m.random.pick(0x10, 0x11, 0x12, 0x1F)
        case 3: image.cc.access = m.random.pick(0x00, 0x0F, 0x08, 0x80, 0x88)
        case 4: image.header = Array((m.mutatedField(image.header, limit: 12) + [UInt8](repeating: 0, count: 12)).prefix(12))
        case 5: image.tail = m.random.chance(50) ? [] : [0x00, 0x00, 0x00, 0xBD, 0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00]
        default: return image.encode(padding: false)   // an image that ends with the TLVs
        }
        return image.encode()
    }

    /// Breaks the image on purpose: TLV lengths and order, a CC size too small or huge, a wrong
    /// magic or major version, a Lock or Memory Control TLV over the NDEF TLV, a cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([45, 12, 10, 10, 8, 8, 7]) {
        case 0: image.area.breakEntries(&m, ndef: ndef)
        case 1: image.cc.size = m.random.pick(0x00, 0x01, 0x02, 0xFF, UInt8(clamping: image.area.encode().count / 8))   // area too small or huge
        case 2: image.cc.magic = m.random.pick(0x00, 0xE2, 0xFF, 0xE0)
        case 3: image.cc.version = m.random.pick(0x20, 0x00, 0xF0, 0x21)
        case 4:
            // A Lock Control TLV whose lock bytes land on the NDEF TLV.
            image.area.entries.insert(.init(tag: 0x01, value: [0x01 | UInt8(m.random.below(4)) << 4, UInt8(8 * (1 + m.random.below(4))), 0x44]), at: 0)
        case 5:
            // A Memory Control TLV reserving bytes in the middle of the NDEF message.
            image.area.entries.insert(.init(tag: 0x02, value: [0x01 | UInt8(1 + m.random.below(3)) << 4, UInt8(1 + m.random.below(12)), 0x02]), at: 0)
        default:
            return truncated(image.encode(), &m.random)
        }
        return image.encode()
    }

    /// Takes the other image's CC or its first TLVs, and crosses the two NDEF messages; nil when
    /// either image does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var x = Self.decode(a), let y = Self.decode(b) else { return nil }
        if m.random.bool() { x.cc = y.cc } else { x.area.entries += y.area.entries.prefix(2) }
        if let i = x.area.ndefIndex, let j = y.area.ndefIndex,
           let message = ndef.crossOver(x.area.entries[i].value, y.area.entries[j].value, &m) {
            x.area.entries[i].value = message
        }
        return x.encode()
    }
}
