import NFCCore

/// A Type 2 tag as a dump describes it: memory plus the activation answers.
public struct Type2Dump: TagDumpContent, Equatable {
    public var memory: Type2TagMemory
    public var atqa: ATQA
    public var sak: SAK
    /// Things the user should know (e.g. a PWD page that was read as zeros).
    public var notes: [String]

    public init(memory: Type2TagMemory, atqa: ATQA = ATQA(value: 0x0044), sak: SAK = SAK(0x00), notes: [String] = []) {
        self.memory = memory
        self.atqa = atqa
        self.sak = sak
        self.notes = notes
    }

    public var summary: String { "\(memory.model.rawValue), UID \(Hex.string(memory.uid))" }

    public func makeTag() -> EmulatedTag? { Type2Tag(memory: memory, atqa: atqa, sak: sak) }

    /// The default UID of built-in tags.
    public static let defaultUID: [UInt8] = [0x04, 0xE1, 0x7A, 0x20, 0x4B, 0x2C, 0x80]

    static let builtIns: [BuiltInTag] = [
        (Type2TagModel.ntag213, "ntag213"), (.ntag215, "ntag215"), (.ntag216, "ntag216"),
        (.ultralightEV1_11, "ul11"), (.ultralightEV1_21, "ul21"), (.ultralightC, "ultralight-c"), (.ultralightAES, "ultralight-aes"),
    ].map { model, name in
        let state: String
        switch model {
        case .ultralightC: state = "factory 3DES key, no page protected"
        case .ultralightAES: state = "all-zero AES keys"
        default: state = "NDEF formatted"
        }
        return BuiltInTag(name: name, description: "factory-fresh \(model.rawValue), \(state), UID \(Hex.string(defaultUID))") {
            TagDump(Type2Dump(memory: .factory(model, uid: defaultUID)))
        }
    }

    /// Warns when PWD reads as zeros on a protected tag: a dump made without the password cannot
    /// know it (Flipper keeps zeros, protocols.md §9 #9).
    mutating func notePasswordGaps(file: String) {
        guard let config = memory.configuration, let pwd = memory.password else { return }
        if Int(config.auth0) <= memory.map.lastPage && pwd == [0, 0, 0, 0] {
            notes.append("\(file): PWD is 00 00 00 00 in this dump (PWD and PACK read as zeros); the emulated tag expects that password unless one is given")
        }
    }
}

enum Type2Dumps {
    /// Flipper `.nfc`, device type `NTAG/Ultralight` (v4) or a chip name (v3), protocols.md §7.2.
    static func flipper(_ f: FlipperNFCFile) throws(DumpError) -> Type2Dump {
        let name = f.name
        let typeName = f.string(FlipperNTAGFile.typeKey) ?? f.string("Device type") ?? ""
        let version = try f.bytes("Mifare version", count: 8)
        let pagesTotal = try f.int("Pages total")
        guard let model = Self.model(flipperName: typeName, version: version, pages: pagesTotal) else {
            throw DumpError(file: name, line: f.entry(FlipperNTAGFile.typeKey)?.line ?? f.entry("Device type")?.line, field: FlipperNTAGFile.typeKey,
                            message: "unsupported tag type \"\(typeName)\" (NTAG210/212/213/215/216, Mifare Ultralight, Ultralight 11/21)")
        }
        let total = model.memoryMap.totalPages
        if let pagesTotal, pagesTotal != total {
            throw DumpError(file: name, line: f.entry("Pages total")?.line, field: "Pages total", message: "\(model.rawValue) has \(total) pages, the file says \(pagesTotal)")
        }
        var pages = [UInt8](repeating: 0, count: total * 4)
        var seen = 0
        for e in f.entries where e.key.hasPrefix(FlipperNTAGFile.pagePrefix) {
            guard let p = Int(e.key.dropFirst(FlipperNTAGFile.pagePrefix.count)), p >= 0, p < total else {
                throw DumpError(file: name, line: e.line, field: e.key, message: "page number outside 0…\(total - 1)")
            }
            guard let b = Hex.parse(e.value), b.count == 4 else {
                throw DumpError(file: name, line: e.line, field: e.key, message: "expected 4 hex bytes")
            }
            pages.replaceSubrange(p * 4..<p * 4 + 4, with: b)
            seen += 1
        }
        guard seen > 0 else { throw DumpError(file: name, field: "Page 0", message: "no pages in the file") }
        // A file cut short (a full disk, a copy interrupted) must not load with zeros for the rest.
        if let pagesRead = try f.int("Pages read") {
            let line = f.entry("Pages read")?.line
            guard pagesRead <= total else {
                throw DumpError(file: name, line: line, field: "Pages read", message: "\(pagesRead) pages read, but the \(model.rawValue) has \(total)")
            }
            guard seen >= pagesRead else {
                throw DumpError(file: name, line: line, field: "Pages read", message: "the file says \(pagesRead) pages were read, only \(seen) are in it: the file is cut short")
            }
        }
        var counters: [UInt32] = [0, 0, 0]
        var tearing: [UInt8] = [0xBD, 0xBD, 0xBD]
        for i in 0..<3 {
            let key = FlipperNTAGFile.counterKey(i)
            if let c = try f.int(key) {
                guard (0...0xFF_FFFF).contains(c) else {
                    throw DumpError(file: name, line: f.entry(key)?.line, field: key, message: "a 24-bit counter, 0…16777215")
                }
                counters[i] = UInt32(c)
            }
            if let t = try f.bytes(FlipperNTAGFile.tearingKey(i), count: 1) { tearing[i] = t[0] }
        }
        let memory = Type2TagMemory(
            model: model, pages: pages, version: version ?? model.version,
            signature: try f.bytes("Signature", count: 32) ?? [UInt8](repeating: 0, count: 32),
            counters: counters, tearing: tearing, failedAuthentications: try f.int("Failed authentication attempts") ?? 0)
        let uid = try f.requiredBytes("UID", count: 7)
        guard memory.uid == uid else {
            throw DumpError(file: name, line: f.entry("UID")?.line, field: "UID", message: "UID \(Hex.string(uid)) differs from pages 0–1 (\(Hex.string(memory.uid)))")
        }
        var dump = Type2Dump(memory: memory, atqa: try atqa(f), sak: SAK(try f.bytes("SAK", count: 1)?.first ?? 0x00))
        dump.notePasswordGaps(file: name)
        return dump
    }

    /// ATQA is written MSB first from file version 3 on, LSB first (on-air order) in version 2
    /// (protocols.md §7.1, §9 #8). Third-party v4 writers sometimes keep the on-air order
    /// (`44 00`): that reading is taken only when MSB first gives no valid ATQA (its bit frame
    /// anticollision field needs exactly one bit, ISO/IEC 14443-3 §6.3.2) and on-air order
    /// does. Files nfctrace saved are MSB first, whatever the value (a fuzzer found an ATQA
    /// that did not load back the same).
    static func atqa(_ f: FlipperNFCFile) throws(DumpError) -> ATQA {
        guard let b = try f.bytes("ATQA", count: 2) else { return ATQA(value: 0x0044) }
        let msbFirst = ATQA(value: UInt16(b[0]) << 8 | UInt16(b[1]))
        let onAir = ATQA(value: UInt16(b[1]) << 8 | UInt16(b[0]))
        if f.version <= 2 { return onAir }
        if f.writtenByNFCTrace { return msbFirst }
        return !msbFirst.bitFrameIsValid && onAir.bitFrameIsValid ? onAir : msbFirst
    }

    static func model(flipperName: String, version: [UInt8]?, pages: Int?) -> Type2TagModel? {
        if let v = version, let m = Type2TagModel(version: v) { return m }
        switch flipperName {
        case "NTAG203": return .ntag203
        case "NTAG210": return .ntag210
        case "NTAG212": return .ntag212
        case "NTAG213": return .ntag213
        case "NTAG215": return .ntag215
        case "NTAG216": return .ntag216
        case "Mifare Ultralight": return pages == 20 ? .ultralightEV1_11 : (pages == 41 ? .ultralightEV1_21 : .ultralight)
        case "Mifare Ultralight 11": return .ultralightEV1_11
        case "Mifare Ultralight 21": return .ultralightEV1_21
        case "Mifare Ultralight C": return .ultralightC
        default: return nil
        }
    }

    /// Proxmark3 `"FileType": "mfu"` JSON (protocols.md §7.5).
    static func proxmark3(_ json: JSONValue, name: String) throws(DumpError) -> Type2Dump {
        guard json[Proxmark3DumpKeys.fileType]?.string == Proxmark3MFUFile.fileType else {
            throw DumpError(file: name, field: Proxmark3DumpKeys.fileType, message: "expected \"mfu\" (MIFARE Ultralight/NTAG dump), found \(json[Proxmark3DumpKeys.fileType]?.string.map { "\"\($0)\"" } ?? "none")")
        }
        guard let card = json[Proxmark3DumpKeys.card] else { throw DumpError(file: name, field: Proxmark3DumpKeys.card, message: "missing") }
        func hex(_ key: String, _ count: Int? = nil) throws(DumpError) -> [UInt8]? {
            guard let v = card[key] else { return nil }
            guard let s = v.string, let b = Hex.parse(s), count == nil || b.count == count else {
                throw DumpError(file: name, field: "Card.\(key)", message: count.map { "expected \($0) bytes as a hex string" } ?? "expected a hex string")
            }
            return b
        }
        let version = try hex("Version", 8)
        var pages: [Int: [UInt8]] = [:]
        for (k, v) in json[Proxmark3DumpKeys.blocks]?.members ?? [] {
            guard let p = Int(k), p >= 0, p < 256, let s = v.string, let b = Hex.parse(s), b.count == 4 else {
                throw DumpError(file: name, field: "blocks.\(k)", message: "expected a page number 0…255 and 4 bytes as hex")
            }
            pages[p] = b
        }
        guard let model = version.flatMap({ Type2TagModel(version: $0) }) ?? Type2TagModel.allCases.first(where: { $0.memoryMap.totalPages == pages.count }) else {
            throw DumpError(file: name, field: "Card.Version", message: "cannot tell the tag model (no known GET_VERSION, \(pages.count) pages)")
        }
        var image = [UInt8](repeating: 0, count: model.memoryMap.totalPages * 4)
        for (p, b) in pages {
            guard p < model.memoryMap.totalPages else {
                throw DumpError(file: name, field: "blocks.\(p)", message: "page beyond the \(model.rawValue)'s last page \(model.memoryMap.lastPage)")
            }
            image.replaceSubrange(p * 4..<p * 4 + 4, with: b)
        }
        var counters: [UInt32] = [0, 0, 0]
        var tearing: [UInt8] = [0xBD, 0xBD, 0xBD]
        for i in 0..<3 {
            // Counters are stored as READ_CNT returns them: LSB first.
            if let c = try hex(Proxmark3MFUFile.counterKey(i), 3) { counters[i] = UInt32(c[0]) | UInt32(c[1]) << 8 | UInt32(c[2]) << 16 }
            if let t = try hex(Proxmark3MFUFile.tearingKey(i), 1) { tearing[i] = t[0] }
        }
        let memory = Type2TagMemory(model: model, pages: image, version: version ?? model.version,
                                    signature: try hex("Signature", 32) ?? [UInt8](repeating: 0, count: 32), counters: counters, tearing: tearing)
        if let uid = try hex("UID"), uid.count == 7, uid != memory.uid {
            throw DumpError(file: name, field: "Card.UID", message: "UID \(Hex.string(uid)) differs from pages 0–1 (\(Hex.string(memory.uid)))")
        }
        var dump = Type2Dump(memory: memory)
        dump.notePasswordGaps(file: name)
        return dump
    }

    /// Raw page dumps: plain pages (540 bytes = NTAG215 as amiibo tools write it, 180 NTAG213,
    /// 924 NTAG216; 520 = NTAG215 without its 5 configuration pages), or the Proxmark3 binary
    /// with its 56-byte header (protocols.md §7.5, §7.6).
    static func binary(_ bytes: [UInt8], name: String, model override: Type2TagModel? = nil) throws(DumpError) -> Type2Dump {
        // Proxmark3 "new" binary: version[8] tbo[2] tbo1[1] pages-1[1] signature[32] 3 × (counter[3] tearing[1]), then pages.
        if bytes.count > 56, (bytes.count - 56) % 4 == 0, Int(bytes[11]) + 1 == (bytes.count - 56) / 4,
           let model = override ?? Type2TagModel(version: Array(bytes[0..<8])) {
            var counters: [UInt32] = []
            var tearing: [UInt8] = []
            for i in 0..<3 {
                let o = 44 + i * 4
                counters.append(UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16)
                tearing.append(bytes[o + 3])
            }
            let memory = Type2TagMemory(model: model, pages: Array(bytes[56...]), version: Array(bytes[0..<8]),
                                        signature: Array(bytes[12..<44]), counters: counters, tearing: tearing)
            var dump = Type2Dump(memory: memory)
            dump.notePasswordGaps(file: name)
            return dump
        }
        let model: Type2TagModel
        if let override {
            model = override
        } else {
            switch bytes.count {
            case 540, 520, 572: model = .ntag215
            case 180: model = .ntag213
            case 924: model = .ntag216
            case 64: model = .ultralight
            default:
                throw DumpError(file: name, message: "\(bytes.count) bytes is no page dump size nfctrace recognises (540 NTAG215, 180 NTAG213, 924 NTAG216, 64 Ultralight, or a Proxmark3 binary); give the model")
            }
        }
        let size = model.memoryMap.totalPages * 4
        var pages = Array(bytes.prefix(size))
        if pages.count < size {
            // A dump without the last pages (520-byte NTAG215): factory configuration for the rest.
            let factory = Type2TagMemory.factory(model, uid: [UInt8](repeating: 0, count: 7)).pages
            pages += factory[pages.count..<size]
        }
        var dump = Type2Dump(memory: Type2TagMemory(model: model, pages: pages))
        if bytes.count != size { dump.notes.append("\(name): \(bytes.count) bytes for a \(size)-byte \(model.rawValue); \(bytes.count < size ? "missing pages take factory values" : "the extra bytes are ignored")") }
        dump.notePasswordGaps(file: name)
        return dump
    }

    /// Writes the tag's current state as a Flipper `.nfc` (version 4) so that writes are not lost.
    static func flipperText(_ dump: Type2Dump) -> String {
        let m = dump.memory
        return FlipperNTAGFile(
            uid: m.uid, atqa: dump.atqa.value, sak: dump.sak.raw, typeName: flipperName(m.model), signature: m.signature,
            version: m.version, counters: m.counters, tearing: m.tearing, pages: (0..<m.map.totalPages).flatMap { m.page($0) },
            failedAuthentications: m.failedAuthentications).text(comment: "Written by nfctrace emulate --save")
    }

    static func flipperName(_ m: Type2TagModel) -> String {
        switch m {
        case .ultralight: return "Mifare Ultralight"
        case .ultralightC: return "Mifare Ultralight C"
        case .ultralightEV1_11: return "Mifare Ultralight 11"
        case .ultralightEV1_21: return "Mifare Ultralight 21"
        default: return m.rawValue
        }
    }
}
