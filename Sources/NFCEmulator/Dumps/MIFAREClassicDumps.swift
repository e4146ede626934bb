import NFCCore

/// MIFARE Classic dumps: Flipper `.nfc` (`Mifare Classic`), Proxmark3 JSON (`mfcard`), raw
/// `.bin`/`.mfd` images and Proxmark3 `.eml` text (one block of 32 hex digits per line).
enum MIFAREClassicDumps {
    static func typeName(_ size: MIFAREClassicMemory.Size) -> String {
        switch size {
        case .mini: return "MINI"
        case .oneK: return "1K"
        case .twoK: return "2K"
        case .fourK: return "4K"
        }
    }

    static func size(typeName: String) -> MIFAREClassicMemory.Size? {
        MIFAREClassicMemory.Size.allCases.first { self.typeName($0) == typeName.uppercased() }
    }

    /// The card from its blocks: the UID from block 0 unless given.
    static func dump(blocks: [[UInt8]], uid: [UInt8]?, atqa: ATQA? = nil, sak: SAK? = nil, name: String, notes: [String] = []) throws(DumpError) -> MIFAREClassicDump {
        guard let size = MIFAREClassicMemory.Size(blockCount: blocks.count) else {
            throw DumpError(file: name, message: "\(blocks.count) blocks: a Classic card has 20 (Mini), 64 (1K), 128 (2K) or 256 (4K)")
        }
        let id = uid ?? Array(blocks[0].prefix(4))
        guard id.count == 4 || id.count == 7 else { throw DumpError(file: name, field: "UID", message: "a Classic UID has 4 or 7 bytes, found \(id.count)") }
        var notes = notes
        for s in 0..<MIFAREClassicLayout.sector(ofBlock: size.blockCount - 1) + 1 {
            let t = MIFAREClassicLayout.trailer(ofSector: s)
            if let problem = MIFAREClassicTrailer.accessBits(blocks[t]).inconsistency {
                notes.append("\(name): sector \(s) has inconsistent access bits (\(problem)); like a real card, the emulator then refuses every access to it")
            }
        }
        return MIFAREClassicDump(memory: MIFAREClassicMemory(size: size, blocks: blocks), uid: id, atqa: atqa, sak: sak, notes: notes)
    }

    // MARK: Flipper

    static func flipper(_ f: FlipperNFCFile) throws(DumpError) -> MIFAREClassicDump {
        let name = f.name
        var blocks: [Int: [UInt8]] = [:]
        var unread = 0
        for e in f.entries where e.key.hasPrefix(FlipperMIFAREClassicFile.blockPrefix) {
            guard let n = Int(e.key.dropFirst(FlipperMIFAREClassicFile.blockPrefix.count)), n >= 0, n < 256 else {
                throw DumpError(file: name, line: e.line, field: e.key, message: "block number outside 0…255")
            }
            let cells = e.value.split(separator: " ")
            guard cells.count == 16 else { throw DumpError(file: name, line: e.line, field: e.key, message: "expected 16 bytes (hex, or ?? when not read)") }
            var bytes: [UInt8] = []
            for c in cells {
                if c == "??" { bytes.append(0); unread += 1; continue }
                guard c.count == 2, let b = UInt8(c, radix: 16) else { throw DumpError(file: name, line: e.line, field: e.key, message: "\"\(c)\" is not a hex byte") }
                bytes.append(b)
            }
            blocks[n] = bytes
        }
        let typeName = f.string(FlipperMIFAREClassicFile.typeKey) ?? ""
        guard let size = size(typeName: typeName) ?? MIFAREClassicMemory.Size(blockCount: blocks.count) else {
            throw DumpError(file: name, line: f.entry(FlipperMIFAREClassicFile.typeKey)?.line, field: FlipperMIFAREClassicFile.typeKey, message: "unknown type \"\(typeName)\" (MINI, 1K, 2K, 4K)")
        }
        guard blocks.keys.allSatisfy({ $0 < size.blockCount }) else { throw DumpError(file: name, message: "blocks beyond the \(size.blockCount) of a \(size.rawValue)") }
        let missing = (0..<size.blockCount).filter { blocks[$0] == nil }
        var full = MIFAREClassicMemory.blank(size, uid: try f.requiredBytes("UID")).blocks
        for (n, b) in blocks { full[n] = b }
        var notes: [String] = []
        if !missing.isEmpty { notes.append("\(name): \(missing.count) blocks are not in the file; they take blank-card values") }
        if unread > 0 { notes.append("\(name): \(unread) bytes were not read (??); they read as 00 (a key not read is 000000000000)") }
        let atqaBytes = try f.bytes("ATQA", count: 2)
        return try dump(blocks: full, uid: try f.requiredBytes("UID"), atqa: atqaBytes.map { ATQA(value: UInt16($0[0]) << 8 | UInt16($0[1])) },
                        sak: try f.bytes("SAK", count: 1).map { SAK($0[0]) }, name: name, notes: notes)
    }

    static func flipperText(_ d: MIFAREClassicDump) -> String {
        FlipperMIFAREClassicFile(uid: d.uid, atqa: d.atqa.value, sak: d.sak.raw, typeName: typeName(d.memory.size), blocks: d.memory.blocks.map { $0 })
            .text(comment: "Written by nfctrace emulate --save")
    }

    // MARK: Proxmark3

    static func proxmark3(_ json: JSONValue, name: String) throws(DumpError) -> MIFAREClassicDump {
        var blocks: [Int: [UInt8]] = [:]
        for (k, v) in json[Proxmark3DumpKeys.blocks]?.members ?? [] {
            guard let n = Int(k), n >= 0, n < 256, let s = v.string, let b = Hex.parse(s), b.count == 16 else {
                throw DumpError(file: name, field: "blocks.\(k)", message: "expected a block number 0…255 and 16 bytes as hex")
            }
            blocks[n] = b
        }
        let count = [20, 64, 128, 256].first { $0 > (blocks.keys.max() ?? 0) } ?? 256
        guard let b0 = blocks[0] else { throw DumpError(file: name, field: "blocks.0", message: "missing") }
        var full = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: count)
        for (n, b) in blocks { full[n] = b }
        let card = json[Proxmark3DumpKeys.card]
        let uid = card?["UID"]?.string.flatMap { Hex.parse($0) } ?? Array(b0.prefix(4))
        let atqa = card?["ATQA"]?.string.flatMap { Hex.parse($0) }.flatMap { $0.count == 2 ? ATQA(value: UInt16($0[0]) | UInt16($0[1]) << 8) : nil }
        let sak = card?["SAK"]?.string.flatMap { Hex.parse($0) }.flatMap { $0.count == 1 ? SAK($0[0]) : nil }
        let missing = count - blocks.count
        return try dump(blocks: full, uid: uid, atqa: atqa, sak: sak, name: name,
                        notes: missing > 0 ? ["\(name): \(missing) blocks are missing from \"blocks\"; they read as zeros"] : [])
    }

    // MARK: raw and .eml

    /// A raw image of 320, 1024, 2048 or 4096 bytes (`.bin`, `.mfd`).
    static func isRawImage(_ bytes: [UInt8]) -> Bool { [320, 1024, 2048, 4096].contains(bytes.count) }

    static func binary(_ bytes: [UInt8], name: String) throws(DumpError) -> MIFAREClassicDump {
        try dump(blocks: stride(from: 0, to: bytes.count, by: 16).map { Array(bytes[$0..<$0 + 16]) }, uid: nil, name: name)
    }

    /// `.eml`: 20, 64, 128 or 256 lines of 32 hex digits.
    static func isEML(_ bytes: [UInt8]) -> Bool {
        let lines = String(decoding: bytes.prefix(200), as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let first = lines.first else { return false }
        return first.trimmingBlanks().count == 32 && first.trimmingBlanks().allSatisfy(\.isHexDigit)
    }

    static func eml(_ bytes: [UInt8], name: String) throws(DumpError) -> MIFAREClassicDump {
        var blocks: [[UInt8]] = []
        for (i, raw) in String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingBlanks()
            if line.isEmpty { continue }
            guard line.count == 32, line.allSatisfy(\.isHexDigit), let b = Hex.parse(line) else {
                throw DumpError(file: name, line: i + 1, message: "expected a block of 32 hex digits")
            }
            blocks.append(b)
        }
        return try dump(blocks: blocks, uid: nil, name: name)
    }
}

extension MIFAREClassicDump {
    /// The card a trace's dissection rebuilt (`emulate --from-trace`, replay): a blank card of
    /// the size its SAK (and the blocks read) say, the blocks as first read, trailers with the
    /// keys that opened their sectors and the access bits read, and the trace's nonces to answer
    /// its authentications with, so that the recorded reader frames decrypt.
    public init(reconstruction: MIFAREClassicReconstruction) {
        var notes: [String] = []
        let highest = reconstruction.blocks.keys.max() ?? 0
        var size = MIFAREClassicMemory.Size(sak: reconstruction.sak ?? 0x08)
        if highest >= size.blockCount { size = MIFAREClassicMemory.Size.allCases.first { $0.blockCount > highest } ?? .fourK }
        var memory = MIFAREClassicMemory.blank(size, uid: reconstruction.uid)
        for (b, data) in reconstruction.blocks where b < size.blockCount && data.count == 16 {
            if MIFAREClassicLayout.isTrailer(b) {
                // Key A always reads as zeros; the access bits and GPB are real; key B is real
                // only where the trailer let it be read.
                memory.blocks[b].replaceSubrange(MIFAREClassicTrailer.Layout.accessAndGPB.range, with: data[MIFAREClassicTrailer.Layout.accessAndGPB.range])
                if MIFAREClassicAccessBits.keyBReadable(MIFAREClassicTrailer.accessBits(data).condition(3)) {
                    memory.blocks[b].replaceSubrange(MIFAREClassicTrailer.Layout.keyB.range, with: data[MIFAREClassicTrailer.Layout.keyB.range])
                }
            } else {
                memory.blocks[b] = data
            }
        }
        var sectorsWithKeys = Set<Int>()
        for k in reconstruction.keys where MIFAREClassicLayout.trailer(ofSector: k.sector) < size.blockCount {
            let t = MIFAREClassicLayout.trailer(ofSector: k.sector)
            memory.blocks[t].replaceSubrange(k.keyType == "A" ? MIFAREClassicTrailer.Layout.keyA.range : MIFAREClassicTrailer.Layout.keyB.range, with: Crypto1.key(k.value))
            sectorsWithKeys.insert(k.sector)
        }
        let sectorsRead = Set(reconstruction.blocks.keys.map { MIFAREClassicLayout.sector(ofBlock: $0) })
        let keyless = sectorsRead.subtracting(sectorsWithKeys).sorted()
        if !keyless.isEmpty {
            notes.append("the trace shows no key for sector\(keyless.count == 1 ? "" : "s") \(keyless.map(String.init).joined(separator: ", ")); FFFFFFFFFFFF is assumed")
        }
        let resolved = reconstruction.resolvedNonces()
        if resolved.contains(nil) {
            notes.append("a nested authentication of the trace could not be decrypted: its nonce is unknown, and a replay diverges there")
        }
        self.init(memory: memory, uid: reconstruction.uid, atqa: reconstruction.atqa.map { ATQA(value: $0) }, sak: reconstruction.sak.map { SAK($0) }, notes: notes)
        nonces = resolved.prefix { $0 != nil }.compactMap { $0 }
    }
}
