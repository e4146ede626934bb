import NFCCore

/// Type 3 tag images: the Attribute Information Block (block 0 of service 000B: Ver, Nbr, Nbw,
/// Nmaxb, WriteF, RWFlag, Ln, checksum) and the NDEF blocks after it (T3T §6.2; protocols.md §5.8).
public struct Type3Shape: ShapeMutator {
    let ndef = NDEFShape()

    /// The Type 3 image shape; it has no settings.
    public init() {}

    /// Type 3 magic: AIB version bytes, Nbr/Nbw/Nmaxb values, WriteF and RWFlag values, and NDEF
    /// values.
    public var dictionary: [[UInt8]] {
        [[0x10, 0x04, 0x01], [0x10, 0x0C, 0x0C], [0x11], [0x20], [0x00, 0x0D], [0x0F, 0x01], [0x00, 0x01], [0x00, 0x00, 0x00, 0x00],
         [0x12, 0xFC], [0x00, 0x0B], [0x00, 0x09]] + NDEFShape.magic.prefix(10)
    }

    struct Image {
        var aib: Type3AttributeInformationBlock
        var message: [UInt8]
        var fixChecksum = true
        var fixLength = true

        func encode() -> [UInt8] {
            var aib = self.aib
            if fixLength {
                aib.ln = UInt32(message.count)
                // A message that grew needs the blocks for it (Nmaxb ≥ ⌈Ln / 16⌉, T3T §6.2).
                aib.nmaxb = max(aib.nmaxb, UInt16(clamping: (message.count + 15) / 16))
            }
            if fixChecksum { aib = aib.withComputedChecksum }
            let padded = message + [UInt8](repeating: 0, count: (16 - message.count % 16) % 16)
            return aib.bytes + padded
        }
    }

    static func decode(_ input: [UInt8]) -> Image? {
        guard input.count >= 16, let aib = try? Type3AttributeInformationBlock.decode(Array(input[0..<16])) else { return nil }
        let end = min(input.count, 16 + Int(aib.ln))
        return Image(aib: aib, message: Array(input[16..<end]))
    }

    /// Whether the image decodes as Type 3 memory with a valid, non-empty NDEF message and no
    /// error-severity issue.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        let layout = Type3Memory.decode(TagMemoryImage(bytes: input))
        guard let result = layout.ndef else { return false }
        return !layout.issues.contains { $0.severity == .error } && result.isValid && !result.records.isEmpty
    }

    static func image(_ message: [UInt8], _ r: inout FuzzRandom) -> [UInt8] {
        let blocks = UInt16((message.count + 15) / 16)
        let aib = Type3AttributeInformationBlock(nbr: r.pick(4, 1, 12), nbw: r.pick(1, 4), nmaxb: max(blocks, r.pick(13, 0x20, blocks)),
                                                 rwFlag: r.chance(15) ? 0 : 1, ln: UInt32(message.count))
        return Image(aib: aib, message: message).encode()
    }

    /// Images of the NDEF seed messages: an AIB with its checksum and Ln, then the message in
    /// 16-byte blocks.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x5433)
        return ndef.seeds().prefix(6).map { Self.image($0, &r) }
    }

    /// The image of a fresh NDEF message with a random but consistent AIB.
    public func generate(_ m: inout MutationContext) -> [UInt8] { Self.image(ndef.generate(&m), &m.random) }

    /// Decodes the image and changes the NDEF message or one AIB field (version, Nbr/Nbw, Nmaxb,
    /// WriteF, RWFlag); Ln and the checksum are recomputed.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([70, 6, 6, 6, 6, 6]) {
        case 0: image.message = ndef.mutateMessage(image.message, depth: 0, &m) ?? ndef.generate(&m)
        case 1: image.aib.version = m.random.pick(0x10, 0x11, 0x1F)
        case 2: image.aib.nbr = m.random.pick(1, 4, 12, 15); image.aib.nbw = m.random.pick(1, 4, 12)
        case 3: image.aib.nmaxb = UInt16((image.message.count + 15) / 16 + m.random.below(32))
        case 4: image.aib.writeF = m.random.pick(0x00, 0x0F)
        default: image.aib.rwFlag = m.random.pick(0x00, 0x01)
        }
        return image.encode()
    }

    /// Breaks the image on purpose: an Ln that is not the message's length, a wrong checksum, Nmaxb
    /// 0 or FFFFh, an unknown version, reserved bytes set, Nbr 0, a broken NDEF message, or a cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var image = Self.decode(input) else { return nil }
        switch m.random.weighted([25, 20, 15, 10, 5, 5, 20]) {
        case 0:
            image.fixLength = false
            image.aib.ln = m.random.pick(UInt32(image.message.count + 1 + m.random.below(40)), 0xFF_FFFF, 0, UInt32(max(0, image.message.count - 1)))
        case 1: image.fixChecksum = false; image.aib.checksum = m.random.uint16()
        case 2: image.aib.nmaxb = m.random.pick(0, 1, 0xFFFF)
        case 3: image.aib.version = m.random.pick(0x20, 0x00, 0xFF)
        case 4: image.aib.reserved = m.random.bytes(4)
        case 5: image.aib.nbr = 0; image.aib.writeF = m.random.pick(0x01, 0xFF)
        default: image.message = ndef.breakStructure(image.message, &m) ?? image.message
        }
        let bytes = image.encode()
        return m.random.chance(15) ? truncated(bytes, &m.random) : bytes
    }

    /// The first image's AIB with the two messages crossed; nil when either image does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var x = Self.decode(a), let y = Self.decode(b) else { return nil }
        x.message = ndef.crossOver(x.message, y.message, &m) ?? y.message
        return x.encode()
    }
}

/// FeliCa block data: a run of 16-byte blocks as Read Without Encryption returns them (a Type 3
/// AIB, CJRC transit history records, Lite-S system blocks, raw data), mutated block by block
/// and field by field.
public struct FeliCaBlocksShape: ShapeMutator {
    /// The FeliCa block-data shape; it has no settings.
    public init() {}

    /// FeliCa block magic: AIB headers, CJRC history record fields and Lite-S system block values.
    public var dictionary: [[UInt8]] {
        [[0x16, 0x01], [0xC7, 0x46], [0x1D, 0x23], [0x10, 0x04, 0x01, 0x00, 0x0D], [0x00, 0x0F], [0xFF, 0xFF, 0xFF, 0x00], [0x09, 0x0F], [0x88, 0xB4]]
    }

    static func block(_ r: inout FuzzRandom) -> [UInt8] {
        switch r.below(5) {
        case 0:
            let aib = Type3AttributeInformationBlock(nbr: 4, nbw: 1, nmaxb: 13, rwFlag: 1, ln: UInt32(r.below(200)))
            return aib.bytes
        case 1, 2:
            let record = SuicaHistoryRecord(terminalType: r.pick(0x16, 0xC7, 0xC8, 0x05, r.byte()), processByte: r.pick(0x01, 0x02, 0x46, 0x14, r.byte()),
                                            year: 2000 + r.below(128), month: r.below(16), day: r.below(32), placeBytes: r.bytes(4),
                                            balance: r.uint16(), sequenceNumber: r.uint16(), regionByte: r.byte())
            return record.bytes
        case 3: return [UInt8](repeating: r.pick(0x00, 0xFF), count: 16)
        default: return r.bytes(16)
        }
    }

    static func blocks(_ input: [UInt8]) -> [[UInt8]]? {
        guard !input.isEmpty, input.count % 16 == 0 else { return nil }
        return stride(from: 0, to: input.count, by: 16).map { Array(input[$0..<($0 + 16)]) }
    }

    /// Whether the input is a whole number of 16-byte blocks.
    public func isWellFormed(_ input: [UInt8]) -> Bool { Self.blocks(input) != nil }

    /// Runs of blocks: raw data, transit history records, and a Type 3 image.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x4645_4C49)
        return [Self.block(&r) + Self.block(&r), (0..<4).flatMap { _ in Self.block(&r) }, Type3Shape().seeds().first ?? []]
    }

    /// One to six fresh 16-byte blocks.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        (0..<(1 + m.random.below(6))).flatMap { _ in Self.block(&m.random) }
    }

    /// Changes the run of blocks: one inserted, removed, repeated or the order shuffled, a transit
    /// history record's balance, sequence number or date, or one block's bytes; at most 32 blocks.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var blocks = Self.blocks(input) else { return nil }
        let i = m.random.below(blocks.count)
        switch m.random.below(6) {
        case 0: blocks.insert(Self.block(&m.random), at: m.random.below(blocks.count + 1))
        case 1: if blocks.count > 1 { blocks.remove(at: i) }
        case 2: blocks.insert(blocks[i], at: m.random.below(blocks.count + 1))
        case 3: blocks.shuffle(using: &m.random)
        case 4:
            if var record = try? SuicaHistoryRecord.decode(blocks[i]) {
                record.balance = FuzzValues.u16(&m.random)
                record.sequenceNumber = FuzzValues.u16(&m.random)
                record.dateRaw = m.random.uint16()
                blocks[i] = record.bytes
            }
        default:
            var b = blocks[i]
            m.mutateBytes(&b, limit: 16)
            blocks[i] = Array((b + [UInt8](repeating: 0, count: 16)).prefix(16))
        }
        return blocks.prefix(32).flatMap { $0 }
    }

    /// Block data that is not a whole number of blocks: bytes cut from the end or added.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard Self.blocks(input) != nil else { return nil }
        // Block data that is not a whole number of blocks.
        return m.random.bool() ? Array(input.dropLast(1 + m.random.below(15))) : input + m.random.bytes(1 + m.random.below(15))
    }

    /// Blocks from the front of one input and the back of the other, at most 32; nil when either is
    /// not whole blocks.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = Self.blocks(a), let y = Self.blocks(b) else { return nil }
        return (Array(x.prefix(1 + m.random.below(x.count))) + Array(y.suffix(1 + m.random.below(y.count)))).prefix(32).flatMap { $0 }
    }
}
