import NFCCore

/// Writes a FeliCa card as a Flipper Zero `.nfc` file (protocols.md §7.3) that `TagDump.load`
/// reads back: data format 1 (the 28 Lite-S blocks) or 2 (FeliCa Standard systems, areas,
/// services and blocks). `emulate --save` uses it, so that writes are not lost.
enum FeliCaFlipperText {
    static func text(_ dump: FeliCaDump) -> String {
        var lines = ["Filetype: Flipper NFC device", "Version: 4", "# Written by nfctrace emulate --save", "Device type: FeliCa"]
        switch dump.memory {
        case .liteS(let m):
            lines += ["UID: \(m.idm)", "Data format version: 1", "Manufacture id: \(m.idm)", "Manufacture parameter: \(m.pmm)",
                      "Blocks total: \(FeliCaLiteBlock.liteSBlocks.count)", "Blocks read: \(FeliCaLiteBlock.liteSBlocks.count)"]
            for (i, n) in FeliCaLiteBlock.liteSBlocks.enumerated() {
                // SF1 SF2 of the read that got the block, then its 16 bytes.
                lines.append("Block \(i): 00 00 \(Hex.string(m.block(n) ?? [UInt8](repeating: 0, count: 16)))")
            }
        case .standard(let systems):
            let idm = systems.first?.idm ?? FeliCaIDm(rawValue: 0)
            let pmm = systems.first?.pmm ?? FeliCaPMm(rawValue: 0)
            lines += ["UID: \(idm)", "Data format version: 2", "Manufacture id: \(idm)", "Manufacture parameter: \(pmm)",
                      "IC Type: \(pmm.icName ?? "FeliCa (IC type \(Hex.byte(pmm.icType)))")", "", "System found: \(systems.count)"]
            for (i, s) in systems.enumerated() { lines += system(s, index: i) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hex(_ v: Int, _ digits: Int) -> String { Hex.value(UInt16(truncatingIfNeeded: v), digits: digits) }

    /// One system; a card with several lists each system's areas, services and blocks after its
    /// `System NN` line (Flipper's own files have had one system so far).
    static func system(_ s: FeliCaCardSystem, index: Int) -> [String] {
        var lines = ["", "System \(hex(index, 2)): \(Hex.value(s.code, digits: 4)) | Key version \(Hex.value(s.keyVersion, digits: 4)) |"]
        if let key = s.keys[.systemKeyVersionRequest] { lines.append("System \(hex(index, 2)) Key: \(Hex.string(key))") }
        let areas = s.nodes.compactMap { n -> (FeliCaServiceCode, FeliCaServiceCode, UInt16)? in
            if case .area(let c, let e, let v) = n { return (c, e, v) }
            return nil
        }
        let services = s.nodes.filter(\.isService)
        lines += ["", "Area found: \(areas.count)"]
        for (i, a) in areas.enumerated() {
            let inside = services.indices.filter { services[$0].code.number >= a.0.number && services[$0].code.number <= a.1.number }
            let range = inside.first.map { "Services #\(hex($0, 3))-#\(hex(inside.last ?? $0, 3)) | " } ?? ""
            lines.append("Area \(hex(i, 3)): | Code \(a.0) | End \(a.1) | \(range)Key version \(Hex.value(a.2, digits: 4)) |")
            if let key = s.keys[a.0] { lines.append("Area \(hex(i, 3)) Key: \(Hex.string(key))") }
        }
        lines += ["", "Service found: \(services.count)"]
        for (i, n) in services.enumerated() {
            let c = n.code
            lines.append("Service \(hex(i, 3)): | Code \(c) | Attrib. \(Hex.value(c.attribute, digits: 2)) | \(c.needsKey ? "Private" : "Public ") | "
                         + "\(kind(c)) | \(access(c)) | Key version \(Hex.value(n.keyVersion, digits: 4)) |")
            if let key = s.keys[c] { lines.append("Service \(hex(i, 3)) Key: \(Hex.string(key))") }
        }
        // Blocks under every service without key that reaches them (what a Flipper reads), or
        // under the first service of their number when all need a key (so that nothing is lost).
        var blockLines: [String] = []
        for number in s.blocks.keys.sorted() {
            let codes = services.map(\.code).filter { $0.number == number }
            let readable = codes.filter { !$0.needsKey }
            for code in readable.isEmpty ? Array(codes.prefix(1)) : readable {
                for (b, data) in (s.blocks[number] ?? []).enumerated() {
                    blockLines.append("Block \(hex(blockLines.count, 4)): | Service code \(code) | Block index \(hex(b, b < 256 ? 2 : 4)) | Data: \(Hex.string(data)) |")
                }
            }
        }
        lines += ["", "Public blocks read: \(blockLines.count)"] + blockLines
        return lines
    }

    static func kind(_ c: FeliCaServiceCode) -> String {
        switch c.organisation {
        case .cyclic?: return "Cyclic"
        case .purse?: return "Purse "
        default: return "Random"
        }
    }

    static func access(_ c: FeliCaServiceCode) -> String {
        switch c.attribute & 0x3E {
        case 0x08, 0x0C: return "Read/Write"
        case 0x10: return "Direct    "
        case 0x12: return "Cashback  "
        case 0x14: return "Decrement "
        default: return "Read Only "
        }
    }
}
