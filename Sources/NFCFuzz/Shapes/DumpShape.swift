import NFCCore

/// Tag dump files as `TagDump.load` reads them: Flipper `.nfc` key/value text (NTAG/Ultralight,
/// ISO15693-3, SLIX), Proxmark3 JSON (`mfu`, `15693 v4`) and raw page dumps. The memory inside
/// comes from the Type 2 and Type 5 shapes, so NDEF content is structure-aware too.
public struct DumpShape: ShapeMutator {
    let type2 = Type2Shape()
    let type5 = Type5Shape()

    /// The tag-dump shape; it has no settings.
    public init() {}

    /// Dump magic: Flipper `.nfc` keys and device types, Proxmark3 JSON keys and file types, plus
    /// Type 2 and Type 5 image values.
    public var dictionary: [[UInt8]] {
        ["Filetype: Flipper NFC device\n", "Version: 4\n", "Device type: ", "NTAG/Ultralight", "ISO15693-3", "SLIX", "NTAG215", "Page ", "UID: ",
         "Pages total: ", "Block Count: ", "Block Size: ", "Data Content: ", "Security Status: ", "\"FileType\"", "\"mfu\"", "\"15693 v4\"", "\"blocks\"",
         "\"Card\"", "\"pagescount\"", "\"bytesperpage\"", ": true", "Mifare version: 00 04 04 02 01 00 11 03"].map { Array($0.utf8) }
    }

    /// NTAG/Ultralight models by page count and GET_VERSION, as Flipper names them.
    static let ntags: [(name: String, pages: Int, version: [UInt8])] = [
        ("NTAG213", 45, [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]), ("NTAG215", 135, [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]),
        ("NTAG216", 231, [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]), ("Mifare Ultralight 11", 20, [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03]),
    ]

    static func pad(_ b: [UInt8], to n: Int) -> [UInt8] { Array((b + [UInt8](repeating: 0, count: max(0, n - b.count))).prefix(n)) }

    static func flipperNTAG(_ image: [UInt8], model: Int) -> [UInt8] {
        let (name, pages, version) = ntags[model % ntags.count]
        let memory = pad(image, to: pages * 4)
        let file = FlipperNTAGFile(uid: Array(memory[0..<3] + memory[4..<8]), typeName: name, version: version, pages: memory)
        return Array(file.text().utf8)
    }

    static func flipperISO15693(_ image: [UInt8], blockSize: Int, slix: Bool) -> [UInt8] {
        let count = max(1, (image.count + blockSize - 1) / blockSize)
        let file = FlipperISO15693File(
            uid: [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81], icReference: 1, blockCount: count, blockSize: blockSize,
            data: pad(image, to: count * blockSize), slix: slix ? .init(passwords: [("Privacy", [0x0F, 0x0F, 0x0F, 0x0F])]) : nil)
        return Array(file.text().utf8)
    }

    /// A FeliCa Lite-S as Flipper writes it: every Lite-S block, the user blocks holding a Type 3 image.
    static func flipperFeliCaLite(_ image: [UInt8], idm: [UInt8]) -> [UInt8] {
        let file = FlipperFeliCaLiteFile(idm: pad(idm, to: 8), pmm: [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00],
                                         blocks: pad(image, to: FeliCaLiteBlock.liteSBlocks.count * 16))
        return Array(file.text().utf8)
    }

    static func proxmark3MFU(_ image: [UInt8]) -> [UInt8] {
        let memory = pad(image, to: 135 * 4)
        let file = Proxmark3MFUFile(uid: Array(memory[0..<3] + memory[4..<8]), version: ntags[1].version, pages: memory)
        return Array(file.json.text.utf8)
    }

    static func proxmark3ISO15693(_ image: [UInt8]) -> [UInt8] {
        let count = max(1, (image.count + 3) / 4)
        let file = Proxmark3ISO15693File(uid: [0x81, 0xDC, 0xD0, 0x49, 0x08, 0x01, 0x04, 0xE0], icReference: 1, blockSize: 4, data: pad(image, to: count * 4))
        return Array(file.json.text.utf8)
    }

    enum Kind { case flipper, json, binary }

    static func kind(_ input: [UInt8]) -> Kind {
        if input.starts(with: Array("Filetype:".utf8)) { return .flipper }
        if input.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == 0x7B { return .json }
        return .binary
    }

    /// Flipper NTAG, ISO 15693/SLIX and FeliCa Lite dumps, Proxmark3 `mfu` and `15693` JSON dumps
    /// and a raw NTAG page dump, with memory from the Type 2, Type 3 and Type 5 seeds.
    public func seeds() -> [[UInt8]] {
        let t2 = type2.seeds(), t5 = type5.seeds()
        return [Self.flipperNTAG(t2[0], model: 1), Self.flipperNTAG(t2[1], model: 0), Self.flipperISO15693(t5[0], blockSize: 4, slix: true),
                Self.flipperFeliCaLite(Type3Shape().seeds()[0], idm: [0x01, 0x2E, 0x4C, 0xD3, 0x11, 0x22, 0x33, 0x44]),
                Self.flipperISO15693(t5[1], blockSize: 8, slix: false), Self.proxmark3MFU(t2[2]), Self.proxmark3ISO15693(t5[2]), Self.pad(t2[3], to: 540)]
    }

    /// A fresh dump of a random format, its memory from the Type 2, Type 3 or Type 5 generator.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        switch m.random.below(7) {
        case 6: return Self.flipperFeliCaLite(Type3Shape().generate(&m), idm: m.random.bytes(8))
        case 0, 1: return Self.flipperNTAG(type2.generate(&m), model: m.random.below(4))
        case 2: return Self.flipperISO15693(type5.generate(&m), blockSize: m.random.pick(4, 8, 32), slix: m.random.bool())
        case 3: return Self.proxmark3MFU(type2.generate(&m))
        case 4: return Self.proxmark3ISO15693(type5.generate(&m))
        default: return Self.pad(type2.generate(&m), to: m.random.pick(540, 180, 924, 64, 520))
        }
    }

    /// Whether the dump reads as its format says: Flipper key/value lines, Proxmark3 JSON of a
    /// known file type with hex blocks, a raw dump of a real tag's size.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        switch Self.kind(input) {
        case .flipper: return DumpMutations.flipperIsWellFormed(input)
        case .json:
            guard let root = (try? JSONValue.parse(input)), case .string(let type)? = root[Proxmark3DumpKeys.fileType],
                  [Proxmark3MFUFile.fileType, Proxmark3ISO15693File.fileType].contains(type),
                  case .object(let blocks)? = root[Proxmark3DumpKeys.blocks] else { return false }
            return blocks.allSatisfy { key, value in Int(key) != nil && { if case .string(let s) = value { return Hex.parse(s) != nil } else { return false } }() }
        case .binary: return [540, 180, 924, 64, 520, 572].contains(input.count)
        }
    }

    /// Changes one field of a Flipper or Proxmark3 JSON dump (keys, pages, blocks, memory inside),
    /// or the Type 2 image of a raw dump, keeping its size.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        switch Self.kind(input) {
        case .flipper: return DumpMutations.flipper(input, shape: self, &m)
        case .json: return DumpMutations.json(input, shape: self, &m)
        case .binary:
            guard isWellFormed(input) else { return nil }
            let image = type2.mutateStructure(input, &m) ?? type2.generate(&m)
            return Self.pad(image, to: input.count)
        }
    }

    /// Breaks the dump on purpose: Flipper or JSON fields out of range or missing, or a raw dump
    /// behind a Proxmark3 header whose page count disagrees with the pages that follow.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        switch Self.kind(input) {
        case .flipper: return DumpMutations.breakFlipper(input, &m)
        case .json: return DumpMutations.breakJSON(input, &m)
        case .binary:
            guard isWellFormed(input) else { return nil }
            // A Proxmark3 binary header whose page count disagrees with the pages that follow.
            var header = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03, 0, 0, 0, UInt8(truncatingIfNeeded: input.count / 4 - 1 + m.random.pick(0, 1, -1))]
            header += [UInt8](repeating: 0, count: 44)
            return header + Array(input.prefix(input.count - m.random.below(8)))
        }
    }

    /// Lines from the front of one Flipper dump and the back of the other; nil unless both are
    /// Flipper dumps.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard Self.kind(a) == .flipper, Self.kind(b) == .flipper else { return nil }
        let x = DumpMutations.lines(a), y = DumpMutations.lines(b)
        return Array((Array(x.prefix(m.random.below(x.count + 1))) + y.suffix(m.random.below(y.count + 1))).joined(separator: "\n").utf8)
    }
}
