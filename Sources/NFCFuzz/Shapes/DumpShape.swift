import NFCCore

/// Tag dump files as `TagDump.load` reads them: Flipper `.nfc` key/value text (NTAG/Ultralight,
/// ISO15693-3, SLIX), Proxmark3 JSON (`mfu`, `15693 v4`) and raw page dumps. The memory inside
/// comes from the Type 2 and Type 5 shapes, so NDEF content is structure-aware too.
public struct DumpShape: ShapeMutator {
    let type2 = Type2Shape()
    let type5 = Type5Shape()

    public init() {}

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
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: NTAG/Ultralight",
                     "UID: " + Hex.string(Array(memory[0..<3]) + Array(memory[4..<8])), "ATQA: 00 44", "SAK: 00", "Data format version: 2",
                     "NTAG/Ultralight type: \(name)", "Signature: " + Hex.string([UInt8](repeating: 0, count: 32)), "Mifare version: " + Hex.string(version)]
        for i in 0..<3 { lines += ["Counter \(i): 0", "Tearing \(i): 00"] }
        lines += ["Pages total: \(pages)", "Pages read: \(pages)"] + (0..<pages).map { "Page \($0): " + Hex.string(memory[($0 * 4)..<($0 * 4 + 4)]) }
        lines.append("Failed authentication attempts: 0")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func flipperISO15693(_ image: [UInt8], blockSize: Int, slix: Bool) -> [UInt8] {
        let count = max(1, (image.count + blockSize - 1) / blockSize)
        let data = pad(image, to: count * blockSize)
        let lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: \(slix ? "SLIX" : "ISO15693-3")", "UID: E0 04 01 08 49 D0 DC 81",
                     "DSFID: 00", "AFI: 00", "IC Reference: 01", "Lock DSFID: false", "Lock AFI: false", "Block Count: \(count)",
                     "Block Size: " + Hex.string([UInt8(blockSize)]), "Data Content: " + Hex.string(data), "Security Status: " + Hex.string([UInt8](repeating: 0, count: count))]
            + (slix ? ["Capabilities: Default", "Password Privacy: 0F 0F 0F 0F", "Privacy Mode: false", "Lock EAS: false"] : [])
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// A FeliCa Lite-S as Flipper writes it (data format 1): IDm, PMm and every Lite-S block in
    /// the chip's order, `00 00` status then 16 bytes; the user blocks hold a Type 3 image.
    static func flipperFeliCaLite(_ image: [UInt8], idm: [UInt8]) -> [UInt8] {
        let blocks = FeliCaLiteBlock.liteSBlocks
        let data = pad(image, to: blocks.count * 16)
        let id = Hex.string(pad(idm, to: 8))
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "Device type: FeliCa", "UID: \(id)", "Data format version: 1",
                     "Manufacture id: \(id)", "Manufacture parameter: 00 F1 00 00 00 01 43 00",
                     "Blocks total: \(blocks.count)", "Blocks read: \(blocks.count)"]
        lines += blocks.indices.map { "Block \($0): 00 00 " + Hex.string(data[($0 * 16)..<($0 * 16 + 16)]) }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func proxmark3MFU(_ image: [UInt8]) -> [UInt8] {
        let memory = pad(image, to: 135 * 4)
        let card: JSONValue = .object([("UID", .string(Hex.string(Array(memory[0..<3]) + Array(memory[4..<8]), separator: ""))),
                                      ("Version", .string("0004040201001103")), ("Signature", .string(String(repeating: "00", count: 32))),
                                      ("Counter2", .string("000000")), ("Tearing2", .string("BD"))])
        let blocks: JSONValue = .object((0..<135).map { ("\($0)", .string(Hex.string(memory[($0 * 4)..<($0 * 4 + 4)], separator: ""))) })
        return Array(JSONValue.object([("Created", .string("proxmark3")), ("FileType", .string("mfu")), ("Card", card), ("blocks", blocks)]).text.utf8)
    }

    static func proxmark3ISO15693(_ image: [UInt8]) -> [UInt8] {
        let count = max(1, (image.count + 3) / 4)
        let data = pad(image, to: count * 4)
        let card: JSONValue = .object([("uid", .string("81DCD049080104E0")), ("dsfid", .string("00")), ("afi", .string("00")), ("ic", .string("01")),
                                      ("bytesperpage", .string("04")), ("pagescount", .string(Hex.string([UInt8(truncatingIfNeeded: count)], separator: ""))),
                                      ("locks", .string(String(repeating: "00", count: count))), ("dsfidlock", .string("00")), ("afilock", .string("00"))])
        let blocks: JSONValue = .object((0..<count).map { ("\($0)", .string(Hex.string(data[($0 * 4)..<($0 * 4 + 4)], separator: ""))) })
        return Array(JSONValue.object([("Created", .string("proxmark3")), ("FileType", .string("15693 v4")), ("Card", card), ("blocks", blocks)]).text.utf8)
    }

    enum Kind { case flipper, json, binary }

    static func kind(_ input: [UInt8]) -> Kind {
        if input.starts(with: Array("Filetype:".utf8)) { return .flipper }
        if input.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == 0x7B { return .json }
        return .binary
    }

    public func seeds() -> [[UInt8]] {
        let t2 = type2.seeds(), t5 = type5.seeds()
        return [Self.flipperNTAG(t2[0], model: 1), Self.flipperNTAG(t2[1], model: 0), Self.flipperISO15693(t5[0], blockSize: 4, slix: true),
                Self.flipperFeliCaLite(Type3Shape().seeds()[0], idm: [0x01, 0x2E, 0x4C, 0xD3, 0x11, 0x22, 0x33, 0x44]),
                Self.flipperISO15693(t5[1], blockSize: 8, slix: false), Self.proxmark3MFU(t2[2]), Self.proxmark3ISO15693(t5[2]), Self.pad(t2[3], to: 540)]
    }

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

    public func isWellFormed(_ input: [UInt8]) -> Bool {
        switch Self.kind(input) {
        case .flipper: return DumpMutations.flipperIsWellFormed(input)
        case .json:
            guard let root = (try? JSONValue.parse(input)), case .string(let type)? = root["FileType"], ["mfu", "15693 v4"].contains(type),
                  case .object(let blocks)? = root["blocks"] else { return false }
            return blocks.allSatisfy { key, value in Int(key) != nil && { if case .string(let s) = value { return Hex.parse(s) != nil } else { return false } }() }
        case .binary: return [540, 180, 924, 64, 520, 572].contains(input.count)
        }
    }

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

    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard Self.kind(a) == .flipper, Self.kind(b) == .flipper else { return nil }
        let x = DumpMutations.lines(a), y = DumpMutations.lines(b)
        return Array((Array(x.prefix(m.random.below(x.count + 1))) + y.suffix(m.random.below(y.count + 1))).joined(separator: "\n").utf8)
    }
}
