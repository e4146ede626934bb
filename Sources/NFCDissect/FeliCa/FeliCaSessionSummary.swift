import NFCCore

/// The end-of-session summary of a FeliCa card: identity, systems and switches, and the blocks
/// read or written, decoded where the service is known (CJRC history, Type 3 Tag AIB and NDEF,
/// Shift_JIS text).
enum FeliCaSessionSummary {
    static func make(_ s: FeliCaSession, detail: DissectionDetail) -> SessionSummary {
        let full = detail == .full
        var tag: [Field] = []
        var notes: [String] = []
        var memory: [Field] = []
        var diagnostics = s.diagnostics
        let current = s.system

        if full {
            if let idm = s.idm { tag.append(Field("tag.idm", "IDm", "\(idm) (\(idm.kindDescription))")) }
            if let pmm = s.pmm { tag.append(Field("tag.pmm", "PMm", "\(pmm) (\(pmm.icName ?? "IC type \(Hex.byte(pmm.icType))"))")) }
            if !s.systems.isEmpty {
                tag.append(Field("tag.systems", "Systems seen", "\(s.systems.count)", children: s.systems.map { sys in
                    Field("tag.system", "System \(sys.number)", systemText(sys) + (sys.number == current?.number ? " (current)" : ""))
                }))
            }
            if let listed = s.listedSystemCodes {
                tag.append(Field("tag.system_codes", "Request System Code", listed.map(FeliCaSystemCode.describe).joined(separator: ", ")))
            }
            for sw in s.switches {
                tag.append(Field("tag.system_switch", "System switch (frame \(sw.frame))",
                                 "\(sw.from.label) → \(sw.to.label), IDm \(sw.from.idm) → \(sw.to.idm)"))
            }
            if !s.keyVersions.isEmpty {
                tag.append(Field("tag.key_versions", "Key versions", "\(s.keyVersions.count)", children: s.keyVersions.map { k in
                    Field("tag.key_version", "System \(k.system), node \(FeliCaCommandFrames.nodeText(k.node))",
                          k.version == 0xFFFF ? "absent" : Hex.value(k.version, digits: 4))
                }))
            }
            if let mode = s.mode { tag.append(Field("tag.mode", "Mode at end", "\(mode)")) }
            if !s.refusals.isEmpty {
                tag.append(Field("tag.refused", "Refused commands", "\(s.refusals.count)", children: s.refusals.map { r in
                    Field("tag.refusal", "Frame \(r.frame)", "SF \(r.status): \(r.status.meaning)")
                }))
            }
            if !s.unanswered.isEmpty {
                tag.append(Field("tag.unanswered", "Unanswered commands", "\(s.unanswered.count)", children: s.unanswered.map { u in
                    Field("tag.unanswered_command", "Frame \(u.frame)", u.code.name)
                }))
            }
        } else {
            if let pmm = s.pmm { notes.append("PMm \(pmm)" + (pmm.icName.map { " (\($0))" } ?? "")) }
            if s.systems.count > 1 || !s.switches.isEmpty {
                for sys in s.systems { notes.append("system \(sys.number): \(systemText(sys))" + (sys.number == current?.number ? " (current)" : "")) }
            }
            if let listed = s.listedSystemCodes { notes.append("Request System Code: " + listed.map { Hex.value($0, digits: 4) }.joined(separator: ", ")) }
            for sw in s.switches { notes.append("system switch in frame \(sw.frame): \(sw.from.label) → \(sw.to.label)") }
            if !s.refusals.isEmpty {
                notes.append("refused: " + s.refusals.map { "frame \($0.frame) SF \($0.status) (\($0.status.meaning))" }.joined(separator: "; "))
            }
            if !s.unanswered.isEmpty {
                notes.append("no answer to: " + s.unanswered.map { "frame \($0.frame) (\($0.code.name))" }.joined(separator: ", "))
            }
            if !s.keyVersions.isEmpty {
                notes.append("key versions: " + s.keyVersions.map { k in
                    "\(FeliCaCommandFrames.nodeText(k.node)) " + (k.version == 0xFFFF ? "absent" : Hex.value(k.version, digits: 4))
                }.joined(separator: ", "))
            }
        }

        for service in s.services {
            let kind = FeliCaBlockContent.kind(service: service.service, systemCode: service.systemCode, family: s.pmm?.family)
            let content = FeliCaServiceContent(service: service, kind: kind, systemCount: s.systems.count, full: full)
            notes += content.notes
            memory += content.fields
            diagnostics += content.diagnostics
        }

        return SessionSummary(number: s.number, technology: .felica, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
                              headline: headline(s), tag: tag, memory: memory, diagnostics: diagnostics, notes: notes.map { "  " + $0 },
                              reconstruction: FeliCaSessionReconstruction.make(s))
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

/// The notes and fields of one service's blocks.
struct FeliCaServiceContent {
    var notes: [String] = []
    var fields: [Field] = []
    var diagnostics: [Diagnostic] = []

    init(service sb: FeliCaServiceBlocks, kind: FeliCaBlockContent, systemCount: Int, full: Bool) {
        let numbers = sb.blocks.keys.sorted()
        let system = "system \(sb.system)" + (sb.systemCode.map { " (\(Hex.value($0, digits: 4)))" } ?? "")
        let title: String
        let count: String
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
        let history: [UInt16: SuicaHistoryRecord] = kind == .history
            ? sb.blocks.compactMapValues { try? SuicaHistoryRecord.decode($0) } : [:]
        // Balance change against the next older record (the block after it), when both were read.
        func change(_ n: UInt16) -> Int? {
            guard let r = history[n], !r.isEmpty, let older = history[n &+ 1], !older.isEmpty else { return nil }
            return Int(r.balance) - Int(older.balance)
        }
        if full {
            var children: [Field] = []
            for n in numbers {
                guard let data = sb.blocks[n] else { continue }
                var f = kind.field(data, block: n, service: sb.service, base: 16 * Int(n), key: "felica.memory.block",
                                   label: "Block \(n)", written: sb.written.contains(n), aibFields: false)
                if let c = change(n) { f.children.append(Field("suica.change", "Balance change", "\(c > 0 ? "+" : "")\(c) yen")) }
                children.append(f)
            }
            fields.append(Field("felica.memory.service", FieldName(title.prefix(1).uppercased() + title.dropFirst()), count, children: children))
        } else {
            notes.append(title + " (" + count + "):")
            for n in numbers {
                guard let data = sb.blocks[n] else { continue }
                let mark = sb.written.contains(n) ? "*" : " "
                if kind == .history, let r = history[n] {
                    notes.append("  " + Self.historyRow(n, r, change: change(n)))
                } else {
                    let line = kind.line(data, block: n).map { "  " + $0 } ?? ""
                    notes.append("  \(Self.rightAligned("\(n)", 5))\(mark) \(Hex.string(data))\(line)")
                }
            }
            if !sb.written.isEmpty { notes.append("  (* written in this session)") }
        }
        if case .type3 = kind { type3(sb, full: full) }
    }

    /// `    0  2026-02-10  ticket gate               fare (gate exit)           1840 yen   -160  #82  line/station E3/0A → E3/14`
    static func historyRow(_ n: UInt16, _ r: SuicaHistoryRecord, change: Int?) -> String {
        let block = rightAligned("\(n)", 5)
        if r.isEmpty { return "\(block)  (unused slot)" }
        let changeText = change.map { $0 > 0 ? "+\($0)" : "\($0)" } ?? ""
        let place = FeliCaBlockContent.placeText(r)
        return "\(block)  \(r.dateText)  \(r.terminalName.padding(toWidth: 26)) \(r.processName.padding(toWidth: 24)) "
            + "\(rightAligned("\(r.balance) yen", 10)) \(rightAligned(changeText, 6))  #\(r.sequenceNumber)"
            + (place.isEmpty ? "" : "  " + place)
    }

    static func rightAligned(_ s: String, _ width: Int) -> String {
        let n = s.count
        return n >= width ? s : String(repeating: " ", count: width - n) + s
    }

    /// The AIB and NDEF message rebuilt from blocks 0, 1, 2 … of service `000B`.
    mutating func type3(_ sb: FeliCaServiceBlocks, full: Bool) {
        guard let (image, aib) = type3Image(sb.blocks), aib.checksumIsValid || sb.systemCode == FeliCaSystemCode.nfcForumType3 else { return }
        let layout = Type3Memory.decode(image)
        let tree = TagMemoryDescriber.describe(layout, image: image)
        diagnostics += tree.diagnostics
        if full {
            fields += tree.fields
        } else {
            // The AIB already shows on block 0's line.
            if !aib.checksumIsValid { notes.append("  AIB checksum \(Hex.value(aib.checksum, digits: 4)), bytes 0–13 sum to \(Hex.value(aib.computedChecksum, digits: 4))") }
            if let result = layout.ndef {
                for line in NDEFDescriber.summaries(result) { notes.append("  NDEF: " + line) }
            } else if aib.ln == 0 {
                notes.append("  NDEF: no message (Ln 0)")
            }
        }
    }
}
