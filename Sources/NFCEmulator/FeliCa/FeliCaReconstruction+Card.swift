import NFCCore

extension FeliCaDump {
    /// The card a trace's dissection reconstructed (`emulate --from-trace`): a FeliCa Lite-S when
    /// the PMm names one, else a FeliCa Standard card with every system, area and service the
    /// session showed, holding the blocks it read or wrote. What the trace did not show takes a
    /// neutral value, and a note says so.
    public init(reconstruction: FeliCaReconstruction) {
        let family = reconstruction.pmm?.family
        if family == .liteS || family == .lite || family == .link {
            self = Self.liteS(reconstruction)
        } else {
            self = Self.standard(reconstruction)
        }
        if let rd = reconstruction.communicationPerformance { communicationPerformance = rd }
    }

    static func liteS(_ r: FeliCaReconstruction) -> FeliCaDump {
        let idm = r.systems.first?.idm ?? FeliCaIDm(rawValue: 0)
        var m = FeliCaLiteSMemory(idm: idm, pmm: r.pmm ?? FeliCaLiteSMemory.liteSPMm)
        var known = Set<UInt16>()
        for system in r.systems {
            // 0009 (write) and 000B (read) reach the same blocks (§5.9).
            for (service, blocks) in system.blocks where service == .ndefRead || service == .ndefWrite {
                for (n, data) in blocks where FeliCaLiteSMemory.exists(n) {
                    m.setBlock(n, data)
                    known.insert(n)
                }
            }
        }
        let codes = r.systems.compactMap(\.code) + (r.listedSystemCodes ?? [])
        if !known.contains(FeliCaLiteBlock.sysC), let own = codes.first(where: { $0 != FeliCaSystemCode.nfcForumType3 && $0 != 0xFFFF }) {
            m.setBlock(FeliCaLiteBlock.sysC, [UInt8(own >> 8), UInt8(own & 0xFF)])
        }
        if !known.contains(FeliCaLiteBlock.mc), codes.contains(FeliCaSystemCode.nfcForumType3) {
            // It answered a Polling for 12FC: MC's NDEF bit is set.
            var mc = m.configuration
            mc.systemOptions |= 1
            m.setBlock(FeliCaLiteBlock.mc, mc.bytes)
        }
        var notes = ["the trace shows \(known.count) of \(FeliCaLiteBlock.liteSBlocks.count) Lite-S blocks; the others keep their factory content"]
        if r.pmm == nil { notes.append("the trace has no Polling answer; emulating the PMm of a real Lite-S") }
        return FeliCaDump(memory: .liteS(m), notes: notes)
    }

    static func standard(_ r: FeliCaReconstruction) -> FeliCaDump {
        var notes: [String] = []
        let pmm = r.pmm ?? FeliCaDump.standardPMm
        if r.pmm == nil { notes.append("the trace has no Polling answer; emulating the PMm \(pmm)") }
        let base = r.systems.first?.idm ?? FeliCaIDm(rawValue: 0)
        let count = max((r.systems.map(\.number).max() ?? 0) + 1, r.listedSystemCodes?.count ?? 0)
        var systems: [FeliCaCardSystem] = []
        for n in 0..<min(count, 16) {
            let seen = r.systems.first { $0.number == n }
            var code = seen?.code ?? r.listedSystemCodes?.dropFirst(n).first
            if code == nil {
                notes.append("the code of system \(n) is not in the trace; it answers only a Polling for FFFF")
                code = 0xFFFF
            }
            var system = FeliCaCardSystem(code: code ?? 0xFFFF, idm: seen?.idm ?? base.inSystem(n), pmm: pmm)
            if let seen { build(&system, from: seen, notes: &notes) }
            systems.append(system)
        }
        return FeliCaDump(memory: .standard(systems), notes: notes)
    }

    /// Nodes in Search Service Code order where the trace showed it, the others by code (an
    /// area before the services it holds), with the root area `0000`–`FFFE` first unless the
    /// trace shows another node at index 0.
    static func build(_ system: inout FeliCaCardSystem, from seen: FeliCaReconstruction.System, notes: inout [String]) {
        system.keyVersion = seen.keyVersions[.systemKeyVersionRequest] ?? 0
        var nodes: [FeliCaServiceCode: FeliCaCardNode] = [:]
        func version(_ c: FeliCaServiceCode) -> UInt16 { seen.keyVersions[c].flatMap { $0 == 0xFFFF ? nil : $0 } ?? 0 }
        for (code, v) in seen.keyVersions where v != 0xFFFF && code != .systemKeyVersionRequest {
            nodes[code] = code.isArea ? .area(code, end: FeliCaServiceCode(0xFFFE), keyVersion: v) : .service(code, keyVersion: v)
        }
        for code in seen.services.union(seen.blocks.keys) where !code.isArea && code.organisation != nil {
            nodes[code] = .service(code, keyVersion: version(code))
        }
        for result in seen.searchResults.values {
            switch result {
            case .area(let c, let end): nodes[c] = .area(c, end: end, keyVersion: version(c))
            case .service(let c): nodes[c] = .service(c, keyVersion: version(c))
            case .end: break
            }
        }
        if seen.searchResults[0] == nil, nodes[FeliCaServiceCode(0)] == nil { nodes[FeliCaServiceCode(0)] = FeliCaCardSystem.rootArea }
        var ordered: [FeliCaCardNode] = []
        for index in seen.searchResults.keys.sorted() {
            guard let code = seen.searchResults[index].flatMap(searchCode), let node = nodes.removeValue(forKey: code) else { continue }
            ordered.append(node)
        }
        system.nodes = ordered + nodes.values.sorted { $0.code.rawValue < $1.code.rawValue }
        // Blocks per service number (overlap services share them): as far as the highest block seen.
        var byNumber: [UInt16: [UInt16: [UInt8]]] = [:]
        for (code, blocks) in seen.blocks { byNumber[code.number, default: [:]].merge(blocks) { old, _ in old } }
        for service in system.services where byNumber[service.number] == nil { byNumber[service.number] = [:] }
        let limit = FeliCaCardSystem.maximumBlocksPerService
        for (number, all) in byNumber {
            let blocks = all.filter { Int($0.key) < limit }
            if blocks.count < all.count {
                notes.append("system \(Hex.value(system.code, digits: 4)), service number \(number): blocks from \(limit) on are not emulated")
            }
            let size = blocks.keys.max().map { Int($0) + 1 } ?? 0
            system.blocks[number] = (0..<size).map { blocks[UInt16($0)] ?? [UInt8](repeating: 0, count: 16) }
            if blocks.count < size {
                notes.append("system \(Hex.value(system.code, digits: 4)), service number \(number): \(size - blocks.count) of \(size) blocks are not in the trace and read as zeros")
            }
        }
    }

    static func searchCode(_ r: FeliCaSearchResult) -> FeliCaServiceCode? {
        switch r {
        case .area(let c, _), .service(let c): return c
        case .end: return nil
        }
    }
}
