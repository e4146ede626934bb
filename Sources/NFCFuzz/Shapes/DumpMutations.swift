import NFCCore

/// Field-level mutations of Flipper `.nfc` and Proxmark3 JSON dumps.
enum DumpMutations {
    static func lines(_ input: [UInt8]) -> [String] {
        String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func text(_ lines: [String]) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    /// A Flipper file as `FlipperNFCFile` reads it (every line `Key: value`, the Filetype
    /// header, a version it knows), of a device type nfctrace emulates, with pages of 4 hex
    /// bytes, Lite-S blocks of 18 and decimal numbers where a count is expected.
    static func flipperIsWellFormed(_ input: [UInt8]) -> Bool {
        guard let file = try? FlipperNFCFile(text: String(decoding: input, as: UTF8.self), name: "") else { return false }
        let page = FlipperNTAGFile.pagePrefix, block = FlipperFeliCaLiteFile.blockPrefix
        for e in file.entries {
            let (key, value) = (e.key, e.value)
            if key.hasPrefix(page) { guard Int(key.dropFirst(page.count)) != nil, Hex.parse(value)?.count == 4 else { return false } }
            if key.hasPrefix(block), Int(key.dropFirst(block.count)) != nil, !value.hasPrefix("|") { guard Hex.parse(value)?.count == 18 else { return false } }
            if ["Pages total", "Pages read", "Block Count", "Version"].contains(key) || key.hasPrefix("Counter ") { guard Int(value) != nil else { return false } }
            if ["UID", "ATQA", "SAK", "Signature", "Data Content", "Block Size"].contains(key) { guard Hex.parse(value) != nil else { return false } }
        }
        return [FlipperNTAGFile.deviceType, FlipperISO15693File.plainDeviceType, FlipperISO15693File.slixDeviceType,
                FlipperFeliCaLiteFile.deviceType].contains(file.string("Device type") ?? "")
    }

    static let deviceTypes = ["NTAG/Ultralight", "NTAG215", "NTAG213", "Mifare Ultralight", "ISO15693-3", "SLIX", "FeliCa", "Mifare Ultralight C", "Mifare Classic", ""]
    static let numbers = ["0", "1", "-1", "255", "256", "65536", "65537", "2147483648", "9223372036854775807", "99999999999999999999", "0x10", " 7"]

    /// A new value for `key: value`, of the kind the value already is (hex, number, bool, name).
    static func newValue(_ key: String, _ value: String, _ m: inout MutationContext) -> String {
        if key == "Device type" || key == FlipperNTAGFile.typeKey { return m.random.element(deviceTypes) ?? "" }
        if value == "true" || value == "false" { return value == "true" ? "false" : "true" }
        if Int(value) != nil { return m.random.pick("0", "1", "2", "3", "20", "45", "64", "135", "231", "256") }
        if let bytes = Hex.parse(value) {
            // Same length: a page stays 4 bytes, a UID 7 (other lengths are the breakage path's).
            var changed = bytes
            if m.random.bool() { changed = m.random.bytes(bytes.count) } else { m.mutateBytes(&changed, limit: max(1, bytes.count)) }
            return Hex.string(DumpShape.pad(changed, to: bytes.count))
        }
        return m.random.element(deviceTypes.prefix(7).map { $0 }) ?? value
    }

    static func flipper(_ input: [UInt8], shape: DumpShape, _ m: inout MutationContext) -> [UInt8]? {
        var lines = Self.lines(input)
        let pageLines = lines.indices.filter { lines[$0].hasPrefix("Page ") }
        switch m.random.weighted([35, 30, 10, 10, 10, 5]) {
        case 0:
            // The memory as one image, mutated by the Type 2 / Type 5 shape, written back.
            if !pageLines.isEmpty {
                let image = pageLines.flatMap { Hex.parse(lines[$0].split(separator: ":", maxSplits: 1).last.map(String.init) ?? "") ?? [] }
                let mutated = DumpShape.pad(shape.type2.mutateStructure(image, &m) ?? shape.type2.generate(&m), to: image.count)
                for (n, i) in pageLines.enumerated() where (n + 1) * 4 <= mutated.count {
                    lines[i] = "Page \(n): " + Hex.string(mutated[(n * 4)..<(n * 4 + 4)])
                }
            } else if let i = lines.firstIndex(where: { $0.hasPrefix("Data Content: ") }), let data = Hex.parse(String(lines[i].dropFirst(14))) {
                lines[i] = "Data Content: " + Hex.string(DumpShape.pad(shape.type5.mutateStructure(data, &m) ?? shape.type5.generate(&m), to: data.count))
            } else {
                // FeliCa Lite-S blocks (`Block N: 00 00` + 16 bytes): the user blocks as a Type 3 image.
                let blockLines = lines.indices.filter { lines[$0].hasPrefix("Block ") && Hex.parse(lines[$0].split(separator: ":", maxSplits: 1).last.map(String.init) ?? "")?.count == 18 }
                let image = blockLines.flatMap { (Hex.parse(lines[$0].split(separator: ":", maxSplits: 1).last.map(String.init) ?? "") ?? []).dropFirst(2) }
                let mutated = DumpShape.pad(Type3Shape().mutateStructure(image, &m) ?? Type3Shape().generate(&m), to: image.count)
                for (n, i) in blockLines.enumerated() where (n + 1) * 16 <= mutated.count {
                    lines[i] = "Block \(n): 00 00 " + Hex.string(mutated[(n * 16)..<(n * 16 + 16)])
                }
            }
        case 1:
            guard let i = m.random.element(lines.indices.filter { lines[$0].contains(": ") && !lines[$0].hasPrefix("Filetype") }) else { return nil }
            let parts = lines[i].split(separator: ":", maxSplits: 1).map(String.init)
            lines[i] = parts[0] + ": " + newValue(parts[0], parts.count > 1 ? parts[1].trimmingBlanks() : "", &m)
        case 2: if lines.count > 2 { lines.remove(at: m.random.between(1, lines.count - 1)) }
        case 3: if lines.count > 1 { lines.insert(lines[m.random.between(1, lines.count - 1)], at: m.random.between(1, lines.count)) }
        case 4: lines.insert("Page \(m.random.element(numbers) ?? "0"): " + Hex.string(m.random.bytes(4)), at: min(lines.count, m.random.between(2, lines.count)))
        default: if lines.count > 1 { lines[1] = "Version: \(m.random.pick(1, 2, 3, 4, 5))" }
        }
        return text(lines)
    }

    static func breakFlipper(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        var lines = Self.lines(input)
        let i = m.random.between(1, max(1, lines.count - 1))
        guard i < lines.count else { return nil }
        switch m.random.below(6) {
        case 0: lines[i] = lines[i].replacingFirstColon()
        case 1: lines[i] += m.random.pick(" GG", " 0", " 1 2", " 00", "\r", " ZZ ZZ", " " + (m.random.element(numbers) ?? "-1"))   // a byte too many
        case 2: lines.insert(lines[i].split(separator: ":").first.map { $0 + ": " + (m.random.element(numbers) ?? "") } ?? "", at: i)   // duplicate key, other value
        case 3: return truncated(input, &m.random)
        case 4: lines[i] = String(repeating: "A", count: m.random.pick(1, 1000, 70000))
        default: return Array(input.prefix(9)) + [0xFF, 0xFE] + Array(input.dropFirst(9))
        }
        return text(lines)
    }

    static func json(_ input: [UInt8], shape: DumpShape, _ m: inout MutationContext) -> [UInt8]? {
        guard var root = (try? JSONValue.parse(input)) else { return nil }
        switch m.random.below(5) {
        case 0:
            // Blocks as one image through the Type 2 / Type 5 shape.
            guard case .object(let blocks)? = root["blocks"] else { return nil }
            let image = blocks.flatMap { if case .string(let s) = $0.1 { return Hex.parse(s) ?? [] } else { return [] } }
            let is15693 = root["FileType"] == .string("15693 v4")
            let mutated = DumpShape.pad((is15693 ? shape.type5.mutateStructure(image, &m) : shape.type2.mutateStructure(image, &m)) ?? image, to: image.count)
            let width = max(1, image.count / max(1, blocks.count))
            root.set("blocks", .object(blocks.enumerated().map { n, kv in (kv.0, .string(Hex.string(mutated[min(mutated.count, n * width)..<min(mutated.count, (n + 1) * width)], separator: ""))) }))
        case 1:
            guard var card = root["Card"], case .object(let members) = card, let (key, value) = m.random.element(members) else { return nil }
            if case .string(let s) = value { card.set(key, .string(Hex.string(Hex.parse(newValue(key, s, &m)) ?? [], separator: ""))) } else { card.set(key, .number(m.random.element(numbers) ?? "0")) }
            root.set("Card", card)
        case 2: root.set("FileType", .string(m.random.pick("mfu", "15693 v4", "mfc v2", "", "MFU")))
        case 3:
            guard var blocks = root["blocks"] else { return nil }
            blocks.set(m.random.pick("-1", "256", "9999999999", "1e2", "01", "0"), .string(Hex.string(m.random.bytes(m.random.pick(4, 3, 32)), separator: "")))
            root.set("blocks", blocks)
        default: root.set(m.random.pick("Card", "blocks"), m.random.pick(.null, .array([]), .number("1"), .string("")))
        }
        return Array(root.text.utf8)
    }

    static func breakJSON(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard (try? JSONValue.parse(input)) != nil else { return nil }
        switch m.random.below(4) {
        case 0: return truncated(input, &m.random)
        case 1: return Array(String(repeating: "[", count: m.random.pick(100, 10_000, 100_000)).utf8)   // nesting bomb
        case 2: return Array(input.dropLast()) + Array(m.random.pick(",}", "}}", "\"", "\\u12", "]").utf8)
        default: return Array("{\"FileType\": \"mfu\", \"Card\": {\"UID\": \"\\u00ZZ\"}, \"blocks\": {\"0\": 1e999999}}".utf8)
        }
    }
}

extension String {
    /// The line with its `key: value` separator removed (a line the Flipper reader cannot split).
    func replacingFirstColon() -> String {
        guard let i = firstIndex(of: ":") else { return self + ":" }
        return String(self[..<i]) + String(self[index(after: i)...])
    }
}
