import NFCCore

/// The end-of-session summary of a FeliCa card: identity, systems and switches, and the blocks
/// read or written, decoded where the service is known (CJRC history, Type 3 Tag AIB and NDEF,
/// Shift_JIS text).
enum FeliCaSessionSummary {
    static func make(_ s: FeliCaSession, detail: DissectionDetail) -> SessionSummary {
        let full = detail == .full
        var tag: [Field] = []
        var memory: [Field] = []
        var diagnostics = s.diagnostics
        let current = s.system

        if full {
            if let idm = s.idm { tag.append(Field(.tag.idm, "\(idm) (\(idm.kindDescription))")) }
            if let pmm = s.pmm { tag.append(Field(.tag.pmm, "\(pmm) (\(pmm.icName ?? "IC type \(Hex.byte(pmm.icType))"))")) }
            if !s.systems.isEmpty {
                tag.append(Field(.tag.systems, "\(s.systems.count)", children: s.systems.map { sys in
                    Field(.tag.system, label: "System \(sys.number)", systemText(sys) + (sys.number == current?.number ? " (current)" : ""))
                }))
            }
            if let listed = s.listedSystemCodes {
                tag.append(Field(.tag.systemCodes, listed.map(FeliCaSystemCode.describe).joined(separator: ", ")))
            }
            for sw in s.switches {
                tag.append(Field(.tag.systemSwitch, label: "System switch (frame \(sw.frame))",
                                 "\(sw.from.label) → \(sw.to.label), IDm \(sw.from.idm) → \(sw.to.idm)"))
            }
            if !s.keyVersions.isEmpty {
                tag.append(Field(.tag.keyVersions, "\(s.keyVersions.count)", children: s.keyVersions.map { k in
                    Field(.tag.keyVersion, label: "System \(k.system), node \(FeliCaCommandFrames.nodeText(k.node))",
                          k.version == 0xFFFF ? "absent" : Hex.value(k.version, digits: 4))
                }))
            }
            if let mode = s.mode { tag.append(Field(.tag.mode, "\(mode)")) }
            if !s.refusals.isEmpty {
                tag.append(Field(.tag.refused, "\(s.refusals.count)", children: s.refusals.map { r in
                    Field(.tag.refusal, label: "Frame \(r.frame)", "SF \(r.status): \(r.status.meaning)")
                }))
            }
            if !s.unanswered.isEmpty {
                tag.append(Field(.tag.unanswered, "\(s.unanswered.count)", children: s.unanswered.map { u in
                    Field(.tag.unansweredCommand, label: "Frame \(u.frame)", u.code.name)
                }))
            }
        }

        for service in s.services {
            let kind = FeliCaBlockContent.kind(service: service.service, systemCode: service.systemCode, family: s.pmm?.family)
            let view = FeliCaServiceView(service, kind: kind)
            if full { memory.append(view.field()) }
            if let type3 = view.type3 {
                diagnostics += type3.tree.diagnostics
                if full { memory += type3.tree.fields }
            }
        }

        var summary = SessionSummary(number: s.number, technology: .felica, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
                                     headline: headline(s), tag: tag, memory: memory, diagnostics: diagnostics,
                                     reconstruction: FeliCaSessionReconstruction.make(s))
        if !full { summary.content = .feliCa(s) }
        return summary
    }

    /// `FeliCa Standard (RC-S915), IDm 11 2E …, system FE00 (FeliCa common area), system switch 8E4B → FE00`.
    static func headline(_ s: FeliCaSession) -> String {
        guard let idm = s.idm else { return "no card answered" }
        var parts: [String] = []
        if let pmm = s.pmm { parts.append(pmm.icName ?? "FeliCa (IC type \(Hex.byte(pmm.icType)))") }
        parts.append("IDm \(idm)")
        if let sys = s.system {
            parts.append(sys.code.map { "system \(FeliCaSystemCode.describe($0))" } ?? "system \(sys.number) (code not seen)")
        }
        if let first = s.switches.first {
            func name(_ sys: FeliCaSystem) -> String { sys.code.map { Hex.value($0, digits: 4) } ?? "system \(sys.number)" }
            let chain = [name(first.from)] + s.switches.map { name($0.to) }
            parts.append("system switch" + (s.switches.count == 1 ? "" : "es") + " " + chain.joined(separator: " → "))
        }
        if !s.idmFromPolling { parts.append("no Polling answer seen") }
        return parts.joined(separator: ", ")
    }

    static func systemText(_ sys: FeliCaSystem) -> String {
        (sys.code.map(FeliCaSystemCode.describe) ?? "code not seen") + ", IDm \(sys.idm)"
    }
}

/// One service's blocks with what they are: title, count, Suica history records and the
/// balance change of each, and a Type 3 Tag's AIB and NDEF. The summary makes fields of it,
/// `FeliCaSessionText` lines.
struct FeliCaServiceView {
    let service: FeliCaServiceBlocks
    let kind: FeliCaBlockContent
    let numbers: [UInt16]
    let title: String
    let count: String
    let history: [UInt16: SuicaHistoryRecord]
    /// The Type 3 memory of service `000B`, when block 0 is a plausible AIB.
    let type3: (aib: Type3AttributeInformationBlock, layout: Type3MemoryLayout, tree: FieldTree)?

    init(_ sb: FeliCaServiceBlocks, kind: FeliCaBlockContent) {
        service = sb
        self.kind = kind
        numbers = sb.blocks.keys.sorted()
        let system = "system \(sb.system)" + (sb.systemCode.map { " (\(Hex.value($0, digits: 4)))" } ?? "")
        switch kind {
        case .history:
            title = "Suica/CJRC history, \(system), service \(sb.service)"
            count = "\(plural(numbers.count, "record")), newest first"
        case .type3:
            title = "Type 3 Tag, \(system), service \(sb.service.description)"
            count = plural(numbers.count, "block")
        case .plain:
            title = "\(system), service \(sb.service.description)"
            count = "\(sb.service.attributeMeaning), \(plural(numbers.count, "block"))"
        }
        history = kind == .history ? sb.blocks.compactMapValues { try? SuicaHistoryRecord.decode($0) } : [:]
        if case .type3 = kind, let (image, aib) = type3Image(sb.blocks),
           aib.checksumIsValid || sb.systemCode == FeliCaSystemCode.nfcForumType3 {
            let layout = Type3Memory.decode(image)
            type3 = (aib, layout, TagMemoryDescriber.describe(layout, image: image))
        } else {
            type3 = nil
        }
    }

    /// Balance change against the next older record (the block after it), when both were read.
    func change(_ n: UInt16) -> Int? {
        guard let r = history[n], !r.isEmpty, let older = history[n &+ 1], !older.isEmpty else { return nil }
        return Int(r.balance) - Int(older.balance)
    }

    func field() -> Field {
        var children: [Field] = []
        for n in numbers {
            guard let data = service.blocks[n] else { continue }
            var f = kind.field(data, block: n, service: service.service, base: 16 * Int(n), field: .felica.memoryBlock,
                               label: "Block \(n)", written: service.written.contains(n), aibFields: false)
            if let c = change(n) { f.children.append(Field(.suica.change, "\(c > 0 ? "+" : "")\(c) yen")) }
            children.append(f)
        }
        return Field(.felica.memoryService, label: FieldName(title.prefix(1).uppercased() + title.dropFirst()), count, children: children)
    }
}
