import NFCCore

/// The compact text view of a FeliCa session: PMm, systems and switches, refused and unanswered
/// commands, key versions, then each service's blocks (Suica history as columns, Type 3 NDEF).
enum FeliCaSessionText {
    static func lines(_ s: FeliCaSession) -> [String] {
        var out: [String] = []
        if let pmm = s.pmm { out.append("PMm \(pmm)" + (pmm.icName.map { " (\($0))" } ?? "")) }
        if s.systems.count > 1 || !s.switches.isEmpty {
            for sys in s.systems {
                out.append("system \(sys.number): \(FeliCaSessionSummary.systemText(sys))" + (sys.number == s.system?.number ? " (current)" : ""))
            }
        }
        if let listed = s.listedSystemCodes { out.append("Request System Code: " + listed.map { Hex.value($0, digits: 4) }.joined(separator: ", ")) }
        for sw in s.switches { out.append("system switch in frame \(sw.frame): \(sw.from.label) → \(sw.to.label)") }
        if !s.refusals.isEmpty {
            out.append("refused: " + s.refusals.map { "frame \($0.frame) SF \($0.status) (\($0.status.meaning))" }.joined(separator: "; "))
        }
        if !s.unanswered.isEmpty {
            out.append("no answer to: " + s.unanswered.map { "frame \($0.frame) (\($0.code.name))" }.joined(separator: ", "))
        }
        if !s.keyVersions.isEmpty {
            out.append("key versions: " + s.keyVersions.map { k in
                "\(FeliCaCommandFrames.nodeText(k.node)) " + (k.version == 0xFFFF ? "absent" : Hex.value(k.version, digits: 4))
            }.joined(separator: ", "))
        }
        for service in s.services {
            let kind = FeliCaBlockContent.kind(service: service.service, systemCode: service.systemCode, family: s.pmm?.family)
            out += serviceLines(FeliCaServiceView(service, kind: kind))
        }
        return out
    }

    static func serviceLines(_ v: FeliCaServiceView) -> [String] {
        var out = [v.title + " (" + v.count + "):"]
        for n in v.numbers {
            guard let data = v.service.blocks[n] else { continue }
            let mark = v.service.written.contains(n) ? "*" : " "
            if v.kind == .history, let r = v.history[n] {
                out.append("  " + historyRow(n, r, change: v.change(n)))
            } else {
                let line = v.kind.line(data, block: n).map { "  " + $0 } ?? ""
                out.append("  \(rightAligned("\(n)", 5))\(mark) \(Hex.string(data))\(line)")
            }
        }
        if !v.service.written.isEmpty { out.append("  (* written in this session)") }
        if let type3 = v.type3 {
            // The AIB already shows on block 0's line.
            let aib = type3.aib
            if !aib.checksumIsValid { out.append("  AIB checksum \(Hex.value(aib.checksum, digits: 4)), bytes 0–13 sum to \(Hex.value(aib.computedChecksum, digits: 4))") }
            if let result = type3.layout.ndef {
                for line in NDEFDescriber.summaries(result) { out.append("  NDEF: " + line) }
            } else if aib.ln == 0 {
                out.append("  NDEF: no message (Ln 0)")
            }
        }
        return out
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
}
