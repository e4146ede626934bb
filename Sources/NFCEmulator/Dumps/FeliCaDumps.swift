import NFCCore

/// Flipper Zero `.nfc` files of `Device type: FeliCa` (protocols.md §7.3): data format 1, a
/// FeliCa Lite(-S) dump of 28 blocks (SF1 SF2 + 16 bytes each, in the order S_PAD0…13, REG,
/// RC … MC, WCNT, MAC_A, STATE, CRC_CHECK), and data format 2, a FeliCa Standard card: systems,
/// areas, services and the blocks read without encryption.
enum FeliCaDumps {
    static func flipper(_ f: FlipperNFCFile) throws(DumpError) -> FeliCaDump {
        guard let versionEntry = f.entry("Data format version") else {
            throw DumpError(file: f.name, field: "Data format version", message: "missing (1 = FeliCa Lite-S blocks, 2 = FeliCa Standard)")
        }
        let idm = try identifier(f, "Manufacture id")
        let pmm = try identifier(f, "Manufacture parameter")
        if let uid = try f.bytes("UID", count: 8), uid != idm.bytes {
            throw DumpError(file: f.name, line: f.entry("UID")?.line, field: "UID", message: "UID \(Hex.string(uid)) differs from Manufacture id \(idm)")
        }
        switch versionEntry.value {
        case "1": return try liteS(f, idm: idm, pmm: FeliCaPMm(rawValue: pmm.rawValue))
        case "2": return try standard(f, idm: idm, pmm: FeliCaPMm(rawValue: pmm.rawValue))
        default:
            throw DumpError(file: f.name, line: versionEntry.line, field: "Data format version",
                            message: "unsupported FeliCa data format \"\(versionEntry.value)\" (1 = Lite-S blocks, 2 = FeliCa Standard)")
        }
    }

    static func identifier(_ f: FlipperNFCFile, _ key: String) throws(DumpError) -> FeliCaIDm {
        FeliCaIDm(rawValue: FeliCaIDm(try f.requiredBytes(key, count: 8))?.rawValue ?? 0)
    }

    // MARK: data format 1

    static func liteS(_ f: FlipperNFCFile, idm: FeliCaIDm, pmm: FeliCaPMm) throws(DumpError) -> FeliCaDump {
        let order = FeliCaLiteBlock.liteSBlocks
        let total = try f.int("Blocks total") ?? order.count
        guard (1...order.count).contains(total) else {
            throw DumpError(file: f.name, line: f.entry("Blocks total")?.line, field: "Blocks total", message: "a Lite-S dump has 1…\(order.count) blocks, the file says \(total)")
        }
        var memory = FeliCaLiteSMemory(idm: idm, pmm: pmm)
        var notes: [String] = []
        var seen = Set<Int>()
        for e in f.entries where e.key.hasPrefix(FlipperFeliCaLiteFile.blockPrefix) {
            guard let i = Int(e.key.dropFirst(FlipperFeliCaLiteFile.blockPrefix.count)), i >= 0, i < total, let number = order.dropFirst(i).first else {
                throw DumpError(file: f.name, line: e.line, field: e.key, message: "block position outside 0…\(total - 1)")
            }
            guard let b = Hex.parse(e.value), b.count == 18 else {
                throw DumpError(file: f.name, line: e.line, field: e.key, message: "expected 18 hex bytes (SF1, SF2 and 16 data bytes)")
            }
            seen.insert(i)
            let status = FeliCaStatusFlags(sf1: b[0], sf2: b[1])
            guard status.isSuccess else {
                notes.append("\(f.name): \(e.key) (\(FeliCaLiteBlock.name(number) ?? Hex.value(number, digits: 2))) was not read (status \(status)); it keeps its factory content")
                continue
            }
            memory.setBlock(number, Array(b[2...]))
        }
        guard !seen.isEmpty else { throw DumpError(file: f.name, field: "Block 0", message: "no blocks in the file") }
        let missing = (0..<order.count).filter { !seen.contains($0) }
        if !missing.isEmpty {
            notes.append("\(f.name): \(missing.count) of \(order.count) Lite-S blocks are not in the file; they keep their factory content")
        }
        if pmm.family != .liteS && pmm.family != .lite {
            notes.append("\(f.name): Manufacture parameter \(pmm) names no FeliCa Lite IC (PMm[1] = \(Hex.byte(pmm.icType))); "
                         + "the card answers Polling with it, so nfcpy will not take it for a Lite-S")
        }
        if let did = memory.block(FeliCaLiteBlock.dID), Array(did.prefix(8)) != idm.bytes || Array(did.dropFirst(8)) != pmm.bytes {
            notes.append("\(f.name): D_ID (block 83) holds \(Hex.string(did)), not Manufacture id + parameter; Polling answers with the latter, as a Flipper does")
        }
        return FeliCaDump(memory: .liteS(memory), notes: notes)
    }

    // MARK: data format 2

    /// `| Code 0009 | Attrib. 09 | Public | … |` → ["Code 0009", "Attrib. 09", "Public", …].
    static func cells(_ value: String) -> [String] {
        value.split(separator: "|").map { String($0).trimmingBlanks() }.filter { !$0.isEmpty }
    }

    /// The hex number after `prefix` in one of the cells (`Code 0009` → 0x0009).
    static func hexCell(_ cells: [String], _ prefix: String, _ e: FlipperNFCFile.Entry, _ f: FlipperNFCFile, required: Bool = true) throws(DumpError) -> UInt16? {
        guard let cell = cells.first(where: { $0.hasPrefix(prefix + " ") }) else {
            if required { throw DumpError(file: f.name, line: e.line, field: e.key, message: "no \"\(prefix)\" in \"\(e.value.prefix(60))\"") }
            return nil
        }
        let text = cell.dropFirst(prefix.count + 1).trimmingPrefix("#")
        guard let v = UInt16(text, radix: 16) else {
            throw DumpError(file: f.name, line: e.line, field: e.key, message: "\"\(cell)\" is no hex number")
        }
        return v
    }

    static func standard(_ f: FlipperNFCFile, idm: FeliCaIDm, pmm: FeliCaPMm) throws(DumpError) -> FeliCaDump {
        var notes: [String] = []
        var systems: [FeliCaCardSystem] = []
        // Entries after a `System NN:` line belong to that system; files without one (older
        // Flipper firmware) hold one system whose code they do not say.
        // Systems are numbered from 0 in file order, and the IDm of system n carries n in its
        // first nibble (protocols.md §5.2), so a Manufacture id with another number is the card
        // seen through another system: the IDm of system 0 is derived from it, and said so.
        if idm.inSystem(0) != idm {
            notes.append("\(f.name): Manufacture id \(idm) has system number \(idm.rawValue >> 60) in its first nibble; system 0 answers with \(idm.inSystem(0))")
        }
        var current: Int? = nil
        func system(_ e: FlipperNFCFile.Entry) throws(DumpError) -> Int {
            if let current { return current }
            notes.append("\(f.name): no System line; one system with code FFFF (answers a Polling for any system)")
            systems.append(FeliCaCardSystem(code: 0xFFFF, idm: idm.inSystem(0), pmm: pmm))
            current = 0
            return 0
        }
        var blockData: [Int: [(service: FeliCaServiceCode, index: Int, data: [UInt8], line: Int)]] = [:]
        for e in f.entries {
            let key = e.key
            let c = cells(e.value)
            if key.hasPrefix("System "), !key.hasSuffix(" Key"), key != "System found" {
                // `System 00: 0003 | Key version 0001 |`
                guard let first = c.first, let code = UInt16(first, radix: 16), first.count == 4 else {
                    throw DumpError(file: f.name, line: e.line, field: key, message: "expected \"CODE | Key version KKKK |\", found \"\(e.value.prefix(60))\"")
                }
                systems.append(FeliCaCardSystem(code: code, idm: idm.inSystem(systems.count), pmm: pmm,
                                                keyVersion: try hexCell(c, "Key version", e, f, required: false) ?? 0))
                current = systems.count - 1
            } else if key.hasPrefix("Area "), !key.hasSuffix(" Key"), key != "Area found" {
                let s = try system(e)
                let code = try hexCell(c, "Code", e, f) ?? 0, end = try hexCell(c, "End", e, f, required: false) ?? 0xFFFE
                let area = FeliCaServiceCode(code)
                guard area.isArea else { throw DumpError(file: f.name, line: e.line, field: key, message: "\(area) is no area code (attribute 00 or 01)") }
                systems[s].nodes.append(.area(area, end: FeliCaServiceCode(end), keyVersion: try hexCell(c, "Key version", e, f, required: false) ?? 0))
            } else if key.hasPrefix("Service "), !key.hasSuffix(" Key"), key != "Service found" {
                let s = try system(e)
                let code = FeliCaServiceCode(try hexCell(c, "Code", e, f) ?? 0)
                if let attribute = try hexCell(c, "Attrib.", e, f, required: false), attribute != UInt16(code.attribute) {
                    throw DumpError(file: f.name, line: e.line, field: key, message: "Attrib. \(Hex.value(attribute, digits: 2)) is not the attribute of service \(code) (\(Hex.value(code.attribute, digits: 2)))")
                }
                guard code.organisation != nil, !code.isArea else {
                    throw DumpError(file: f.name, line: e.line, field: key, message: "\(code) has no service attribute (§5.4)")
                }
                systems[s].addService(code, keyVersion: try hexCell(c, "Key version", e, f, required: false) ?? 0)
            } else if key.hasPrefix("Block "), key.count > 6 {
                let s = try system(e)
                let service = FeliCaServiceCode(try hexCell(c, "Service code", e, f) ?? 0)
                let index = Int(try hexCell(c, "Block index", e, f) ?? 0)
                guard index < FeliCaCardSystem.maximumBlocksPerService else {
                    throw DumpError(file: f.name, line: e.line, field: key, message: "block index \(index): nfctrace emulates blocks 0…\(FeliCaCardSystem.maximumBlocksPerService - 1) of a service")
                }
                guard let dataCell = c.first(where: { $0.hasPrefix("Data:") }), let data = Hex.parse(String(dataCell.dropFirst(5))), data.count == 16 else {
                    throw DumpError(file: f.name, line: e.line, field: key, message: "expected \"Data: \" and 16 hex bytes")
                }
                blockData[s, default: []].append((service, index, data, e.line))
            } else if key.hasSuffix(" Key") {
                try keyLine(e, f, &systems, current)
            }
        }
        guard !systems.isEmpty else { throw DumpError(file: f.name, field: "System 00", message: "no system, area or service in the file") }
        if let found = try f.int("System found"), found != systems.count {
            throw DumpError(file: f.name, line: f.entry("System found")?.line, field: "System found", message: "says \(found) systems, the file lists \(systems.count)")
        }
        for (s, blocks) in blockData {
            for b in blocks {
                guard systems[s].hasService(b.service) else {
                    throw DumpError(file: f.name, line: b.line, field: "Block", message: "service \(b.service) is not in the service list of system \(s)")
                }
                notes += place(b.data, service: b.service, index: b.index, in: &systems[s], file: f.name)
            }
        }
        for i in systems.indices where !systems[i].nodes.contains(where: { !$0.isService }) {
            systems[i].nodes.insert(FeliCaCardSystem.rootArea, at: 0)
        }
        if systems.contains(where: { !$0.keys.isEmpty }) {
            notes.append("\(f.name): the keys in the file are kept but not used: the emulator does no authentication")
        }
        return FeliCaDump(memory: .standard(systems), notes: notes)
    }

    /// Stores a block under its service number (overlap services share blocks, §5.4); blocks the
    /// file skipped before it become zeros.
    static func place(_ data: [UInt8], service: FeliCaServiceCode, index: Int, in s: inout FeliCaCardSystem, file: String) -> [String] {
        var blocks = s.blocks[service.number] ?? []
        var notes: [String] = []
        if index < blocks.count {
            if blocks[index] != data {
                notes.append("\(file): block \(index) of service \(service) differs from the same block read through an overlap service; the first one is kept")
            }
            return notes
        }
        if index > blocks.count {
            notes.append("\(file): blocks \(blocks.count)…\(index - 1) of service \(service) are not in the file; they read as zeros")
        }
        blocks += [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: index - blocks.count) + [data]
        s.blocks[service.number] = blocks
        return notes
    }

    /// `System 00 Key`, `Area 000 Key`, `Service 001 Key`: 8 bytes kept with their node.
    static func keyLine(_ e: FlipperNFCFile.Entry, _ f: FlipperNFCFile, _ systems: inout [FeliCaCardSystem], _ current: Int?) throws(DumpError) {
        guard let key = Hex.parse(e.value), !key.isEmpty else {
            throw DumpError(file: f.name, line: e.line, field: e.key, message: "expected the key as hex bytes")
        }
        guard let s = current, systems.indices.contains(s) else { return }
        let parts = e.key.split(separator: " ")
        guard parts.count == 3, let index = Int(parts[1], radix: 16) else { return }
        switch parts[0] {
        case "System": systems[s].keys[.systemKeyVersionRequest] = key
        case "Area":
            let areas = systems[s].nodes.filter { !$0.isService }
            if let a = areas.dropFirst(index).first { systems[s].keys[a.code] = key }
        case "Service":
            if let c = systems[s].services.dropFirst(index).first { systems[s].keys[c] = key }
        default: break
        }
    }
}
