import NFCCore

/// Reader → card frames: fields, the one-line summary, and the checks that need the session
/// (the IDm a command addresses against the card's current IDm).
enum FeliCaCommandFrames {
    static func describe(_ command: FeliCaCommand, _ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        let code = command.code
        ctx.sink.add(Field(.felica.code, label: "Command code", "\(Hex.byte(code.rawValue)) (\(code.name))"))
        if let idm = command.idm {
            ctx.sink.add(Field(.felica.idm, "\(idm) (system \(idm.systemNumber))"))
            checkIDm(idm, &ctx, &s)
        }
        switch command {
        case .polling(let sc, let rc, let tsn):
            let slots = FeliCaCommand.slotCount(timeSlots: tsn)
            ctx.summary = "Polling system \(FeliCaSystemCode.describe(sc)), RC \(Hex.value(rc, digits: 2)) (\(FeliCaCommand.requestCodeMeaning(rc))), \(slots) time slot\(slots == 1 ? "" : "s")"
            ctx.sink.add(Field(.felica.systemCode, FeliCaSystemCode.describe(sc), range: FeliCaCommand.Layout.systemCode.range))
            ctx.sink.add(Field(.felica.requestCode, "\(Hex.byte(rc)) (\(FeliCaCommand.requestCodeMeaning(rc)))"))
            ctx.sink.add(Field(.felica.timeSlots, "\(Hex.byte(tsn)) (\(slots) slot\(slots == 1 ? "" : "s"))"))
            if ![0x00, 0x01, 0x03, 0x07, 0x0F].contains(tsn) {
                ctx.warn("TSN \(Hex.byte(tsn)) is none of 00, 01, 03, 07, 0F", range: FeliCaCommand.Layout.timeSlots.range)
            }
            if sc == 0x8E4B {
                ctx.note("system code 8E4B is not in any consulted source (protocols.md §9 #25)", range: FeliCaCommand.Layout.systemCode.range)
            }
        case .requestService(_, let nodes):
            ctx.summary = "Request Service " + (nodes.isEmpty ? "(no nodes)" : list(nodes.map(nodeText)))
            ctx.sink.add(Field(.felica.nodeCount, "\(nodes.count)"))
            let fields = nodes.enumerated().map { i, n in
                Field(.felica.node, label: "Node \(i + 1)", n.detailedDescription, range: FeliCaCommand.Layout.listEntry(i))
            }
            ctx.sink.add(Field(.felica.nodes, "\(nodes.count) (little endian)", range: FeliCaCommand.Layout.list(nodes.count), children: fields))
            if nodes.isEmpty || nodes.count > 32 { ctx.warn("\(nodes.count) nodes; a card takes 1…32 and answers nothing otherwise", range: FeliCaCommand.Layout.count.range) }
        case .readWithoutEncryption(_, let services, let blocks):
            ctx.summary = "Read Without Encryption " + blockListText(services, blocks, s)
            describeLists(services, blocks, &ctx, s)
        case .writeWithoutEncryption(_, let services, let blocks, let data):
            ctx.summary = "Write Without Encryption " + blockListText(services, blocks, s)
            let dataStart = describeLists(services, blocks, &ctx, s)
            describeWriteData(services, blocks, data, at: dataStart, &ctx, s)
        case .searchServiceCode(_, let index):
            ctx.summary = "Search Service Code index \(index)"
            ctx.sink.add(Field(.felica.index, "\(index)"))
        case .requestSystemCode:
            ctx.summary = "Request System Code"
        case .requestResponse:
            ctx.summary = "Request Response"
        case .requestSpecificationVersion(_, let r), .getSystemStatus(_, let r), .resetMode(_, let r):
            ctx.summary = code.name
            ctx.sink.add(Field(.felica.reserved, Hex.value(r, digits: 4)))
            if r != 0 { ctx.note("reserved bytes are not 00 00", range: FeliCaCommand.Layout.reserved.range) }
        case .other(let code, let idm, let parameters):
            let parameterRange = FeliCaCommand.Layout.parameters(parameters.count, afterIDm: idm != nil)
            if let name = code.commandName {
                ctx.summary = "\(code.name), \(plural(parameters.count, "parameter byte"))"
                if code.command.rawValue == 0xD4, let sub = parameters.first, let dep = FeliCaCode.nfcDEPName(sub) {
                    ctx.summary = "NFC-DEP \(dep), \(plural(parameters.count - 1, "byte"))"
                }
                ctx.sink.add(Field(.felica.parameters, "\(hexValue(parameters)) (\(name): layout not public)",
                                   range: parameterRange))
            } else {
                ctx.summary = "unknown command \(Hex.byte(code.rawValue)), \(plural(parameters.count, "byte"))"
                ctx.warn("\(Hex.byte(code.rawValue)) is no FeliCa command code in protocols.md §5.3", range: FeliCaCommand.Layout.code.range)
                ctx.sink.add(Field(.felica.parameters, hexValue(parameters), range: parameterRange))
            }
            if code.isResponse, code.commandName != nil {
                ctx.warn("the reader sent a response code (\(code.name))", range: FeliCaCommand.Layout.code.range)
            }
        }
        for p in command.listProblems {
            // SF1 as Sony numbers list elements (1-based; §9 #12), FF for whole-command errors.
            let sf1 = p.element.map { Hex.value(UInt8(truncatingIfNeeded: $0 + 1), digits: 2) } ?? "FF"
            ctx.warn("\(p.message): a card answers SF \(sf1) \(Hex.value(p.statusFlag2, digits: 2))")
        }
    }

    /// The IDm a command addresses against the card's current one (protocols.md §5.2: after a
    /// Polling for system n the card answers as system n, with the nibble of IDm byte 0 set to n).
    static func checkIDm(_ addressed: FeliCaIDm, _ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        guard let current = s.idm else {
            s.idm = addressed
            s.currentSystem = addressed.systemNumber
            s.noteSystem(number: addressed.systemNumber, code: nil, idm: addressed, frame: ctx.number)
            ctx.note("no Polling answer seen in this session: IDm \(addressed) taken from this command", range: FeliCaCommand.Layout.idm.range)
            return
        }
        guard addressed != current else { return }
        if addressed.isSameCard(as: current) {
            let then = s.system(addressed.systemNumber)?.label ?? "system \(addressed.systemNumber)"
            let now = s.system?.label ?? "system \(current.systemNumber)"
            ctx.warn("IDm mismatch: addresses \(addressed) (\(then)), the card now answers as \(now) with \(current)", range: FeliCaCommand.Layout.idm.range)
        } else {
            ctx.warn("IDm mismatch: addresses \(addressed), the card in this session is \(current)", range: FeliCaCommand.Layout.idm.range)
        }
    }

    static func nodeText(_ n: FeliCaServiceCode) -> String {
        n == .systemKeyVersionRequest ? "FFFF (system key version)" : n.description
    }

    /// `090F (CJRC transit history): blocks 0–9`, `1A8B: block 0`, `000B: blocks 1–3; 008B: block 0`.
    static func blockListText(_ services: [FeliCaServiceCode], _ blocks: [FeliCaBlockListElement], _ s: FeliCaSession,
                              naming: Bool = true) -> String {
        var groups: [(order: UInt8, numbers: [UInt16])] = []
        for b in blocks {
            if let i = groups.firstIndex(where: { $0.order == b.serviceOrder }) { groups[i].numbers.append(b.blockNumber) }
            else { groups.append((b.serviceOrder, [b.blockNumber])) }
        }
        if groups.isEmpty { return services.map(\.description).joined(separator: ", ") + ": no blocks" }
        let parts = groups.map { g -> String in
            let name: String
            if let service = services.dropFirst(Int(g.order)).first {
                name = service.description + (naming ? service.knownUse(inSystem: s.systemCode).map { " (\($0))" } ?? "" : "")
            } else {
                name = services.isEmpty ? "(no service listed)" : "service #\(g.order) (not listed)"
            }
            return "\(name): block\(g.numbers.count == 1 ? "" : "s") \(ranges(g.numbers))"
        }
        return parts.joined(separator: "; ")
    }

    /// `0–9, 12`.
    static func ranges(_ numbers: [UInt16]) -> String {
        var out: [String] = []
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count, numbers[j + 1] == numbers[j] &+ 1 { j += 1 }
            out.append(j > i + 1 ? "\(numbers[i])–\(numbers[j])" : j == i + 1 ? "\(numbers[i]), \(numbers[j])" : "\(numbers[i])")
            i = j + 1
        }
        return out.joined(separator: ", ")
    }

    static func list(_ items: [String], max: Int = 4) -> String {
        items.count <= max ? items.joined(separator: ", ") : items.prefix(max).joined(separator: ", ") + " … (\(items.count))"
    }

    /// Service and block list fields; returns the offset after the block list.
    @discardableResult
    static func describeLists(_ services: [FeliCaServiceCode], _ blocks: [FeliCaBlockListElement], _ ctx: inout FrameContext,
                              _ s: FeliCaSession) -> Int {
        let m = services.count
        let blockCount = FeliCaCommand.Layout.blockCount(afterServices: m)
        guard ctx.sink.enabled else { return blockCount.end + blocks.reduce(0) { $0 + $1.form.length } }
        ctx.sink.add(Field(.felica.serviceCount, "\(m)"))
        let serviceFields = services.enumerated().map { i, sv in
            Field(.felica.service, label: "Service #\(i)",
                  sv.detailedDescription + (sv.knownUse(inSystem: s.systemCode).map { ": \($0)" } ?? "")
                    + " (on air \(Hex.string(sv.onAir)))", range: FeliCaCommand.Layout.listEntry(i))
        }
        ctx.sink.add(Field(.felica.services, "\(m) (little endian)", range: FeliCaCommand.Layout.list(m), children: serviceFields))
        ctx.sink.add(Field(.felica.blockCount, "\(blocks.count)", range: blockCount.range))
        var offset = blockCount.end
        let header = FeliCaBlockListElement.Layout.header
        var blockFields: [Field] = []
        for (i, b) in blocks.enumerated() {
            let service = services.dropFirst(Int(b.serviceOrder)).first.map(\.description) ?? "not listed"
            let form = b.form == .twoByte ? "2-byte" : "3-byte"
            blockFields.append(Field(.felica.block, label: "Element \(i + 1)", "block \(b.blockNumber) of service #\(b.serviceOrder) (\(service))",
                                     range: offset..<offset + b.form.length, children: [
                                        Field(.felica.blockForm, form, range: header.range(at: offset)),
                                        Field(.felica.blockAccessMode, "\(b.accessMode) (\(b.accessModeMeaning))", range: header.range(at: offset)),
                                        Field(.felica.blockOrder, "\(b.serviceOrder)", range: header.range(at: offset)),
                                        Field(.felica.blockNumber, "\(b.blockNumber)" + (b.form == .threeByte ? " (little endian)" : ""),
                                              range: FeliCaBlockListElement.Layout.blockNumber(b.form).range(at: offset)),
                                     ]))
            offset += b.form.length
        }
        ctx.sink.add(Field(.felica.blocks, plural(blocks.count, "element"), range: blockCount.end..<offset, children: blockFields))
        return offset
    }

    static func describeWriteData(_ services: [FeliCaServiceCode], _ blocks: [FeliCaBlockListElement], _ data: [UInt8], at start: Int,
                                  _ ctx: inout FrameContext, _ s: FeliCaSession) {
        guard ctx.sink.enabled else { return }
        var children: [Field] = []
        for (i, b) in blocks.enumerated() where 16 * i + 16 <= data.count {
            let service = services.dropFirst(Int(b.serviceOrder)).first ?? FeliCaServiceCode(0xFFFF)
            let kind = FeliCaBlockContent.kind(service: service, systemCode: s.systemCode, family: s.pmm?.family)
            children.append(kind.field(Array(data.dropFirst(16 * i).prefix(16)), block: b.blockNumber, service: service, base: start + 16 * i,
                                       field: .felica.blockData, label: "Block \(b.blockNumber) of \(service)"))
        }
        ctx.sink.add(Field(.felica.data, label: "Block data", plural(data.count, "byte"), range: start..<start + data.count, children: children))
    }
}
