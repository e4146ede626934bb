import NFCCore

/// What DESFire and EMV cards answer, for the decoders of those answers; byte 0 says which:
/// 0 a DESFire GET VERSION (the three parts joined), 1 DESFire file settings, 2 an EMV data
/// object list (its length in byte 1) followed by the values a terminal sends for it, 3 an EMV
/// record or template: a BER-TLV tree with card numbers, track 2 and cardholder data in it.
/// Built with the codecs' encoders.
public struct ApplicationDataShape: ShapeMutator {
    /// The DESFire/EMV answer shape; it has no settings.
    public init() {}

    /// DESFire and EMV magic: GET VERSION vendor and type bytes, file types and access rights, EMV
    /// tags (5A, 57, 5F20, 9F38, 70) and data object lists.
    public var dictionary: [[UInt8]] {
        [[0x04, 0x01], [0x91, 0xAF], [0x70], [0x77], [0x57], [0x5A], [0x5F, 0x20], [0x9F, 0x6B], [0x9F, 0x38], [0x8C], [0x9F, 0x66, 0x04],
         [0x9F, 0x02, 0x06], [0xD2], [0x0F], [0x00, 0x03], [0xEE, 0xEE]]
    }

    static func version(_ r: inout FuzzRandom) -> [UInt8] {
        func part(_ r: inout FuzzRandom) -> [UInt8] {
            let type: UInt8 = r.pick(0x01, 0x02, 0x81), major: UInt8 = r.pick(0x00, 0x01, 0x12, 0x30)
            let minor: UInt8 = r.pick(0x00, 0x05), storage: UInt8 = r.pick(0x16, 0x18, 0x1A)
            return [0x04, type, 0x01, major, minor, storage, 0x05]
        }
        let year: UInt8 = r.pick(0x12, 0x21, r.byte())
        return part(&r) + part(&r) + r.bytes(7) + r.bytes(5) + [r.byte(), year]
    }

    static func fileSettings(_ r: inout FuzzRandom) -> [UInt8] {
        let type = UInt8(r.below(5))
        let head: [UInt8] = [type, r.pick(0x00, 0x01, 0x03, r.byte()), r.byte(), r.byte()]
        switch type {
        case 0, 1: return head + DESFire.littleEndian(r.pick(32, 256, r.below(1 << 24)), count: 3)
        case 2: return head + r.bytes(12) + [UInt8(r.below(2))]
        default: return head + DESFire.littleEndian(r.pick(16, 32), count: 3) + DESFire.littleEndian(r.below(10), count: 3) + DESFire.littleEndian(r.below(10), count: 3)
        }
    }

    static func dataObjectList(_ r: inout FuzzRandom) -> [UInt8] {
        let entries: [(UInt32, Int)] = (0..<(1 + r.below(6))).map { _ in (r.pick(0x9F66, 0x9F02, 0x9F37, 0x5F2A, 0x95, 0x9A, 0x9C, 0x9F1A, UInt32(r.byte())), r.pick(1, 2, 4, 6)) }
        let dol = entries.flatMap { BERTLV.encode(tag: $0.0, value: []).dropLast() + [UInt8($0.1)] }
        return [UInt8(dol.count)] + dol + r.bytes(entries.reduce(0) { $0 + $1.1 })
    }

    static func record(_ r: inout FuzzRandom, depth: Int = 0) -> [UInt8] {
        let pan = r.bytes(r.pick(6, 8, 10)).map { ($0 >> 4) % 10 << 4 | ($0 & 0x0F) % 10 }
        var objects: [[UInt8]] = []
        for _ in 0..<(1 + r.below(4)) {
            switch r.below(7) {
            case 0: objects.append(BERTLV.encode(tag: 0x5A, value: pan + (r.chance(30) ? [0x1F] : [])))
            case 1: objects.append(BERTLV.encode(tag: 0x57, value: pan + [0xD2, 0x81, 0x22, 0x01] + r.bytes(r.below(6)) + (r.bool() ? [0x0F] : [])))
            case 2: objects.append(BERTLV.encode(tag: r.pick(0x5F20, 0x56, 0x9F1F), value: Array("TEST/CARD".utf8.prefix(r.below(10)))))
            case 3: objects.append(BERTLV.encode(tag: 0x9F6B, value: pan + [0xD2, 0x51, 0x20, 0x1F]))
            case 4: objects.append(BERTLV.encode(tag: r.pick(0x9F66, 0x9F6C, 0x94, 0x9F27, 0x82, 0x9F36, 0x5F24), value: r.bytes(r.pick(1, 2, 4, 8))))
            case 5 where depth < 3: objects.append(BERTLV.encode(tag: r.pick(0x77, 0x70, 0xA5, 0xBF0C), value: record(&r, depth: depth + 1)))
            default: objects.append(BERTLV.encode(tag: 0x8C, value: [0x9F, 0x02, 0x06, 0x9F, 0x37, 0x04]))
            }
        }
        let body = objects.flatMap { $0 }
        return depth == 0 ? BERTLV.encode(tag: r.pick(0x70, 0x77), value: body) : body
    }

    /// Two of each: a DESFire GET VERSION, DESFire file settings, an EMV data object list with
    /// values, EMV records with card data.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x4445_5346)
        return [[0] + Self.version(&r), [1] + Self.fileSettings(&r), [1] + Self.fileSettings(&r), [2] + Self.dataObjectList(&r),
                [3] + Self.record(&r), [3] + Self.record(&r)]
    }

    /// A fresh input of a random mode, built with the codecs' encoders.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        switch m.random.below(4) {
        case 0: return [0] + Self.version(&m.random)
        case 1: return [1] + Self.fileSettings(&m.random)
        case 2: return [2] + Self.dataObjectList(&m.random)
        default: return [3] + Self.record(&m.random)
        }
    }

    /// Splits mode 2's input into the list and the values; nil when byte 1 overruns.
    public static func listAndValues(_ body: [UInt8]) -> (list: [UInt8], values: [UInt8])? {
        guard let n = body.first.map(Int.init), body.count >= 1 + n else { return nil }
        return (Array(body[1..<1 + n]), Array(body[(1 + n)...]))
    }

    /// Whether the input decodes as its mode says: a 28-byte GET VERSION, file settings, a DOL with
    /// values of the lengths it asks, an EMV record.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let mode = input.first else { return false }
        let body = Array(input.dropFirst())
        switch mode {
        case 0: return DESFire.Version(body) != nil && body.count == 28
        case 1: return DESFire.FileSettings(body) != nil
        case 2:
            guard let (list, values) = Self.listAndValues(body), let entries = EMV.dataObjectList(list) else { return false }
            return EMV.values(values, for: entries) != nil
        case 3:
            let (objects, error) = BERTLV.parse(body)
            return error == nil && !objects.isEmpty && objects.allSatisfy { $0.error == nil }
        default: return false
        }
    }

    /// A fresh input of a random mode when this one is well formed (no field-level mutation yet);
    /// nil otherwise.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard isWellFormed(input) else { return nil }
        return generate(&m)
    }

    /// Breaks the input on purpose: a GET VERSION part short, file settings cut before the access
    /// rights end, values not as long as the DOL asks, a template length beyond its bytes.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard input.count > 3 else { return nil }
        var out = input
        switch input[0] {
        case 0: out.removeLast(1 + m.random.below(4))    // a part short
        case 1: out = Array(out.prefix(2 + m.random.below(3)))   // settings cut before the access rights end
        case 2: if m.random.bool() { out.removeLast() } else { out.append(m.random.byte()) }   // values not as long as the list asks
        default: out[2] = out[2] &+ UInt8(1 + m.random.below(3))   // the template's length beyond its bytes
        }
        return out
    }

    /// No crossover: the modes share no structure to splice (always nil).
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? { nil }
}
