import NFCCore

/// Card → reader frames other than the Polling answer (which the dissector handles, since it
/// decides sessions and system switches): fields, summary, and what the answer teaches the
/// session (blocks read or written, key versions, system codes, mode).
enum FeliCaResponseFrames {
    static func describe(_ response: FeliCaResponse, to command: FeliCaCommand?, _ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        let code = response.code
        ctx.sink.add(Field(.felica.code, "\(Hex.byte(code.rawValue)) (\(code.name))"))
        if let idm = response.idm {
            ctx.sink.add(Field(.felica.idm, "\(idm) (system \(idm.systemNumber))"))
            if let addressed = command?.idm, addressed != idm {
                ctx.warn("the answer carries IDm \(idm), the command addressed \(addressed)", range: FeliCaCommand.Layout.idm.range)
            }
        }
        if let status = response.status {
            describeStatus(status, command, &ctx)
            if !status.isSuccess, s.refusals.count < FeliCaSession.maximumListed { s.refusals.append((ctx.number, status)) }
        }
        switch response {
        case .polling:
            break   // FeliCaDissector.pollingAnswer
        case .requestService(_, let versions):
            let nodes: [FeliCaServiceCode]
            if case .requestService(_, let asked)? = command { nodes = asked } else { nodes = [] }
            if !nodes.isEmpty, nodes.count != versions.count {
                ctx.warn("\(versions.count) key versions for \(nodes.count) nodes asked", range: FeliCaCommand.Layout.count.range)
            }
            var parts: [String] = []
            var children: [Field] = []
            for (i, v) in versions.enumerated() {
                let node = nodes.dropFirst(i).first
                let name = node.map(FeliCaCommandFrames.nodeText) ?? "node \(i + 1)"
                let text = v == 0xFFFF ? "absent" : "key version \(Hex.value(v, digits: 4))"
                parts.append("\(name) \(text)")
                children.append(Field(.felica.keyVersion, label: FieldName(name), text, range: FeliCaCommand.Layout.listEntry(i)))
                if let node { s.keyVersions.append((s.currentSystem ?? 0, node, v)) }
            }
            ctx.summary = parts.isEmpty ? "no key versions" : FeliCaCommandFrames.list(parts)
            ctx.sink.add(Field(.felica.nodeCount, "\(versions.count)"))
            ctx.sink.add(Field(.felica.keyVersions, "\(versions.count) (little endian)", range: FeliCaCommand.Layout.list(versions.count),
                               children: children))
        case .requestResponse(_, let mode):
            s.mode = mode
            ctx.summary = "mode \(mode)" + (mode > 3 ? " (undefined)" : mode == 0 ? " (no authentication)" : " (authentication step \(mode))")
            ctx.sink.add(Field(.felica.mode, "\(mode)"))
        case .readWithoutEncryption(_, let status, let blocks):
            noteServices(status, command, &s)
            guard status.isSuccess else { return }
            describeRead(blocks, command, &ctx, &s)
        case .writeWithoutEncryption(_, let status):
            noteServices(status, command, &s)
            guard status.isSuccess else { return }
            guard case .writeWithoutEncryption(_, let services, let list, let data)? = command else {
                ctx.summary = "OK, written"
                return
            }
            for (i, b) in list.enumerated() {
                guard let service = services.dropFirst(Int(b.serviceOrder)).first else { continue }
                let chunk = Array(data.dropFirst(16 * i).prefix(16))
                if chunk.count == 16 { s.store(chunk, block: b.blockNumber, service: service, written: true) }
            }
            ctx.touched(memoryRuns(services, list, count: list.count, write: true))
            ctx.summary = "OK, written (" + FeliCaCommandFrames.blockListText(services, list, s, naming: false) + ")"
                + (status.isWarning ? " (rewrite count exceeded)" : "")
        case .searchServiceCode(_, let result):
            if case .searchServiceCode(_, let index)? = command { s.noteSearchResult(result, index: index) }
            switch result {
            case .service(let sv): ctx.summary = "service \(sv.detailedDescription)"
            case .area(let a, let end): ctx.summary = "area \(a) … \(end)" + (a.attribute == 0 ? " (can contain sub-areas)" : "")
            case .end: ctx.summary = "no node at this index (end of list)"
            }
            ctx.sink.add(Field(.felica.searchResult, ctx.summary, range: FeliCaResponse.Layout.searchResult(result.bytes.count)))
        case .requestSystemCode(_, let codes):
            s.listedSystemCodes = codes
            ctx.summary = plural(codes.count, "system") + (codes.isEmpty ? "" : ": " + codes.map(FeliCaSystemCode.describe).joined(separator: ", "))
            ctx.sink.add(Field(.felica.systemCount, "\(codes.count)"))
            let children = codes.enumerated().map { i, sc in
                Field(.felica.systemCode, label: "System code \(i + 1)", FeliCaSystemCode.describe(sc), range: FeliCaCommand.Layout.listEntry(i))
            }
            ctx.sink.add(Field(.felica.systemCodes, "\(codes.count) (big endian)", range: FeliCaCommand.Layout.list(codes.count),
                               children: children))
        case .requestSpecificationVersion(_, let status, let version):
            guard status.isSuccess, let v = version else { return }
            let options = v.optionVersions.map(FeliCaSpecificationVersion.text)
            ctx.summary = "basic version \(FeliCaSpecificationVersion.text(v.basicVersion))"
                + (options.isEmpty ? ", no options" : ", options " + options.joined(separator: ", "))
            ctx.sink.add(Field(.felica.formatVersion, Hex.byte(v.formatVersion)))
            ctx.sink.add(Field(.felica.basicVersion, "\(FeliCaSpecificationVersion.text(v.basicVersion)) (BCD, little endian)"))
            ctx.sink.add(Field(.felica.optionVersions, options.isEmpty ? "none" : options.joined(separator: ", "),
                               range: FeliCaResponse.Layout.optionVersions(options.count)))
        case .getSystemStatus(_, let status, let flag, let data):
            guard status.isSuccess else { return }
            ctx.summary = "OK" + (flag.map { ", flag \(Hex.byte($0))" } ?? "") + ", \(plural(data.count, "byte")) of status data"
            if let flag { ctx.sink.add(Field(.felica.flag, Hex.byte(flag))) }
            ctx.sink.add(Field(.felica.statusData, "\(hexValue(data)) (layout not public)", range: FeliCaResponse.Layout.statusData(data.count)))
        case .resetMode(_, let status):
            guard status.isSuccess else { return }
            s.mode = 0
            ctx.summary = "OK, the card is back in mode 0"
        case .other(let code, let idm, let parameters):
            ctx.summary = "\(code.name), \(plural(parameters.count, "byte"))"
            if code.command.rawValue == 0xD4, let sub = parameters.first, let dep = FeliCaCode.nfcDEPName(sub) {
                ctx.summary = "NFC-DEP \(dep), \(plural(parameters.count - 1, "byte"))"
            }
            ctx.sink.add(Field(.felica.parameters, hexValue(parameters), range: FeliCaCommand.Layout.parameters(parameters.count, afterIDm: idm != nil)))
        }
    }

    /// Services a Read/Write answer shows to exist: every one the command used when it succeeded;
    /// when it failed at a list element, those of the elements before it, and the element's own
    /// when the refusal is about the block or the access (`A4`, `A5`, `A8`, `B1`), not the service.
    /// SF1 is read Sony's way, a Lite-S's as a bit mask (§9 #12).
    static func noteServices(_ status: FeliCaStatusFlags, _ command: FeliCaCommand?, _ s: inout FeliCaSession) {
        guard let (services, blocks) = command?.serviceAndBlockLists else { return }
        var upTo = blocks.count
        if !status.isSuccess {
            guard case .listElement(let number, let mask) = status.location else { return }
            let index = s.pmm?.family == .liteS || s.pmm?.family == .lite ? (mask.first ?? 0) : number - 1
            upTo = [0xA4, 0xA5, 0xA8, 0xB1].contains(status.sf2) ? index + 1 : index
        }
        for b in blocks.prefix(max(0, upTo)) {
            if let service = services.dropFirst(Int(b.serviceOrder)).first { s.noteService(service) }
        }
    }

    /// SF1/SF2 fields; a failure becomes the summary and a warning naming the list element.
    static func describeStatus(_ status: FeliCaStatusFlags, _ command: FeliCaCommand?, _ ctx: inout FrameContext) {
        ctx.sink.add(Field(.felica.sf1, Hex.byte(status.sf1) + (status.locationDescription.map { " (\($0))" } ?? " (success)")))
        ctx.sink.add(Field(.felica.sf2, "\(Hex.byte(status.sf2)) (\(status.meaning))"))
        guard !status.isSuccess else {
            if status.isWarning { ctx.note("SF2 71: \(status.meaning)", range: FeliCaResponse.Layout.statusFlag2.range) }
            return
        }
        var text = "status \(status): \(status.meaning)"
        if case .listElement(let n, _) = status.location {
            text += ", " + (status.locationDescription ?? "")
            if let target = listTarget(n, status, command) { text += " = \(target)" }
        }
        ctx.summary = "SF \(status): \(status.meaning)"
        ctx.warn(text, range: FeliCaResponse.Layout.status.range)
    }

    /// What list element `number` (1-based, Sony reading) points at in the command.
    static func listTarget(_ number: Int, _ status: FeliCaStatusFlags, _ command: FeliCaCommand?) -> String? {
        guard let (services, blocks) = command?.serviceAndBlockLists else { return nil }
        if status.concernsServiceList {
            return services.dropFirst(number - 1).first.map { "service \($0)" }
        }
        guard let b = blocks.dropFirst(number - 1).first else { return nil }
        let service = services.dropFirst(Int(b.serviceOrder)).first.map(\.description) ?? "service #\(b.serviceOrder)"
        return "\(service) block \(b.blockNumber)"
    }

    /// The blocks of a read or write as memory accesses, one per run of consecutive blocks of one
    /// service (Suica's history, a student ID's blocks 0 and 1 are one run; a read that mixes
    /// services or skips blocks has several). Elements naming no listed service are left out.
    static func memoryRuns(_ services: [FeliCaServiceCode], _ list: [FeliCaBlockListElement], count: Int, write: Bool) -> [MemoryAccess] {
        var runs: [MemoryAccess] = []
        var last: (order: UInt8, block: Int)?
        for b in list.prefix(count) {
            guard let service = services.dropFirst(Int(b.serviceOrder)).first else {
                last = nil
                continue
            }
            if let l = last, l.order == b.serviceOrder, l.block + 1 == Int(b.blockNumber) {
                runs[runs.count - 1].count += 16
            } else {
                runs.append(MemoryAccess(offset: 16 * Int(b.blockNumber), count: 16, write: write, service: service.rawValue))
            }
            last = (b.serviceOrder, Int(b.blockNumber))
        }
        return runs
    }

    static func describeRead(_ blocks: [[UInt8]], _ command: FeliCaCommand?, _ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        var services: [FeliCaServiceCode] = []
        var list: [FeliCaBlockListElement] = []
        if case .readWithoutEncryption(_, let sv, let bl)? = command {
            services = sv
            list = bl
            ctx.touched(memoryRuns(sv, bl, count: min(blocks.count, bl.count), write: false))
            if bl.count != blocks.count { ctx.warn("\(plural(blocks.count, "block")) for \(bl.count) asked", range: FeliCaResponse.Layout.blockCount.range) }
        }
        ctx.sink.add(Field(.felica.blockCount, "\(blocks.count)", range: FeliCaResponse.Layout.blockCount.range))
        var children: [Field] = []
        var lines: [String] = []
        var history: [SuicaHistoryRecord] = []
        var type3: [UInt16: [UInt8]] = [:]
        for (i, data) in blocks.enumerated() {
            let element = list.dropFirst(i).first
            let service = element.flatMap { services.dropFirst(Int($0.serviceOrder)).first }
            let number = element?.blockNumber ?? UInt16(truncatingIfNeeded: i)
            let kind = service.map { FeliCaBlockContent.kind(service: $0, systemCode: s.systemCode, family: s.pmm?.family) } ?? .plain
            if let service { s.store(data, block: number, service: service, written: false) }
            if kind == .history, let r = try? SuicaHistoryRecord.decode(data), !r.isEmpty { history.append(r) }
            if case .type3 = kind { type3[number] = data }
            if blocks.count == 1, let line = kind.line(data, block: number) { lines.append(line) }
            if ctx.sink.enabled {
                let label = service.map { "Block \(number) of \($0)" } ?? "Block \(i + 1)"
                children.append(kind.field(data, block: number, service: service ?? FeliCaServiceCode(0xFFFF), base: FeliCaResponse.Layout.block(i).lowerBound,
                                           field: .felica.blockData, label: label))
            }
        }
        ctx.sink.add(Field(.felica.data, label: "Block data", plural(16 * blocks.count, "byte"), range: FeliCaResponse.Layout.blocks(blocks.count), children: children))
        var summary = "OK, \(plural(blocks.count, "block"))"
        if !list.isEmpty { summary += " (" + FeliCaCommandFrames.blockListText(services, list, s, naming: false) + ")" }
        if let t3t = type3Summary(type3) {
            summary += ": " + t3t
        } else if let line = lines.first {
            summary += ": " + line
        } else if let newest = history.first, let oldest = history.last {
            summary += ": history \(newest.dateText)" + (history.count > 1 ? " … \(oldest.dateText)" : "") + ", balance \(newest.balance) yen"
        }
        ctx.summary = summary
    }
}
