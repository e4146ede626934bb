import NFCCore

/// The compact text view of a session summary: the lines under its headline, made from the
/// session's typed content (`SessionSummary.content`). The renderer indents each by two spaces.
enum SessionText {
    static func lines(_ s: SessionSummary) -> [String] {
        switch s.content {
        case .type2(let session, let layout): return Type2SessionText.lines(session, layout: layout)
        case .iso15693(let session, let layout): return ISO15693SessionText.lines(session, layout: layout)
        case .feliCa(let session): return FeliCaSessionText.lines(session).map { "  " + $0 }
        case .type4(let app): return Type4SessionText.lines(app)
        case nil: return []
        }
    }
}

/// `memory (NTAG215 map): 13 pages known`, the known pages as rows of four per region, the
/// configuration, the CC and the TLVs with their NDEF records.
enum Type2SessionText {
    static func lines(_ s: ISO14443ASession, layout: Type2MemoryLayout?) -> [String] {
        let knownPages = s.memory.knownPages
        guard !knownPages.isEmpty else { return [] }
        let map = s.memoryMap
        let written = s.writtenPages.count
        var out = ["memory (\(s.model?.rawValue ?? "generic Type 2") map): \(knownPages.count) page\(knownPages.count == 1 ? "" : "s") known"
            + (written > 0 ? ", \(written) written" : "")]
        for (region, known) in ISO14443ASessionSummary.regions(s, map: map) {
            var span = TextWriter(capacity: 16)
            ISO14443ASessionSummary.writeSpan(map.pages(of: region), &span)
            out.append("    \(region.rawValue) (\(span.string)):")
            // Up to four consecutive pages per row, `*` after a page written in this session.
            // Each row is written once into a TextWriter (`+=` of interpolated pieces grew a
            // String several times per row).
            var row = TextWriter(capacity: 64)
            var rowStart = known[0]
            var inRow = 0
            for p in known where s.memory.isKnown(page: p) {
                if inRow == 4 || (inRow > 0 && p != rowStart + inRow) {
                    out.append(row.string)
                    inRow = 0
                }
                if inRow == 0 {
                    rowStart = p
                    row = TextWriter(capacity: 64)
                    row.write("      ")
                    row.hexByte(UInt8(truncatingIfNeeded: rowStart))
                    row.write("  ")
                } else {
                    row.write("  ")
                }
                row.hexBytes(s.memory.pageSlice(p))
                if s.writtenPages.contains(p) { row.write("*") }
                inRow += 1
            }
            if inRow > 0 { out.append(row.string) }
        }
        if written > 0 { out.append("    (* written in this session)") }
        if let config = ISO14443ASessionSummary.configuration(s, map: map) {
            out.append("    configuration: \(ISO14443ASessionSummary.configurationText(config))")
        }
        guard let layout else { return out }
        if let cc = layout.capabilityContainer {
            if cc.isNDEF {
                out.append("    CC \(Hex.string(cc.bytes)): NDEF mapping \(cc.versionText), \(cc.dataAreaSize)-byte data area, read \(cc.readAccess.name), write \(cc.writeAccess.name)")
            } else {
                out.append("    CC \(Hex.string(cc.bytes)): magic \(Hex.byte(cc.magic)), not NDEF formatted")
            }
        }
        if let area = layout.tlvArea, !area.tlvs.isEmpty {
            out.append("    TLVs from byte \(Type2Memory.dataAreaStart):")
            out += TagTLVLines.lines(area).map { "      " + $0 }
        }
        return out
    }
}

/// `Type 4 CC: mapping 2.0, MLe 255, MLc 255, NDEF file E104 of 2048 bytes (read granted, write
/// granted)`, then NLEN and one line per NDEF record.
enum Type4SessionText {
    static func lines(_ app: ISO7816Application) -> [String] {
        var out: [String] = []
        let cc = app.capabilityContainer
        if let cc {
            let f = cc.ndefFile
            out.append("Type 4 CC: mapping \(cc.versionText), MLe \(cc.maxReadLength), MLc \(cc.maxWriteLength), NDEF file \(Hex.value(f.fileID, digits: 4)) of \(f.maxSize) bytes "
                + "(read \(Type4CapabilityContainer.FileControl.accessName(f.readAccess)), write \(Type4CapabilityContainer.FileControl.accessName(f.writeAccess)))")
        }
        guard let (_, nlen, message, missing) = app.ndefContent else { return out }
        out.append("NDEF file: NLEN \(nlen)" + (app.ndefWritten ? " (written in this session)" : ""))
        if nlen > 0, missing == nil {
            let result = NDEFMessage.decode(Array(app.ndefFile.bytes[message]))
            for (k, record) in result.records.enumerated() { out.append("  record \(k + 1): \(NDEFSummary.line(record))") }
        } else if nlen > 0 {
            out.append("  (the message was not read whole)")
        }
        return out
    }
}
