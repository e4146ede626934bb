import NFCCore

/// The end-of-session summary of a Type B card: its identity (PUPI and protocol info, or an ST
/// SRx card's UID and model), whether ISO-DEP ran, and the SRx blocks read and written.
enum ISO14443BSessionSummary {
    static func make(_ s: ISO14443BSession) -> SessionSummary {
        var parts: [String] = []
        var tag: [Field] = []
        if let atqb = s.atqb {
            parts.append("\(ISODEPSummary.family(s.isoDEP) ?? "ISO 14443-B card"), PUPI \(Hex.string(atqb.pupi))")
            tag.append(Field(.tag.pupi, .hex(atqb.pupi)))
            tag.append(Field(.tag.atqb, Hex.string(atqb.encode())))
            tag.append(Field(.tag.`protocol`, atqb.supportsISODEP ? "ISO/IEC 14443-4" : "ISO/IEC 14443-3 only"))
        }
        if let uid = s.uid {
            let model = uid.model
            parts.append("\(model?.name ?? "ST SRx card"), UID \(Hex.string(uid.printed))")
            tag.append(Field(.tag.uid, .hex(uid.printed)))
            if let model { tag.append(Field(.tag.model, "\(model.name), \(model.blocks) blocks of 4 bytes")) }
        } else if let chip = s.chipID {
            parts.append("ST SRx card, Chip_ID \(Hex.byte(chip))")
        }
        if let chip = s.chipID { tag.append(Field(.tag.chipId, .byte(chip))) }
        if s.isoDEPInferred, s.attribAnswer == nil {
            parts.append("\(ISODEPSummary.family(s.isoDEP) ?? "ISO 14443-B card"), ISO-DEP (its activation is not in the capture)")
        }
        if let a = s.attribAnswer { parts.append(s.atqb?.supportsISODEP == false ? "activated (not ISO 14443-4: proprietary commands)" : "ISO-DEP (CID \(a.cid))") }
        if s.askCTS { parts.append("ASK C-ticket commands") }
        if s.xerox {
            parts.append("Fuji Xerox memory chip" + (s.xeroxUID.map { ", UID \(Hex.string($0))" } ?? ""))
            if let uid = s.xeroxUID { tag.append(Field(.tag.uid, .hex(uid))) }
        }
        parts += ISODEPSummary.parts(s.isoDEP)
        if s.halted { tag.append(Field(.tag.state, "HALT")) }
        if s.srxCompleted { tag.append(Field(.tag.state, "deactivated (COMPLETION)")) }
        if parts.isEmpty { parts.append(s.tagAnswered ? "a card answered nothing nfctrace could read" : "no card answered") }

        var memory: [Field] = []
        var diagnostics = s.diagnostics
        for (block, data) in s.xeroxBlocks.sorted(by: { $0.key < $1.key }) {
            memory.append(Field(.memory.block, label: FieldName("Block \(block)"), Hex.string(data)))
        }
        if !s.blocks.isEmpty {
            let addresses = s.blocks.keys.sorted()
            memory.append(Field(.memory.blocks, "\(addresses.count) (\(s.writtenBlocks.count) written)"))
            for a in addresses {
                let data = s.blocks[a] ?? []
                let mark = s.writtenBlocks.contains(a) ? " (written)" : ""
                memory.append(Field(.memory.block, label: FieldName("Block \(a)"), Hex.string(data) + mark))
            }
            if let system = s.blocks[SRxUID.systemBlock], system.count == 4 {
                // System block bits 24…31 (the 4th byte): a 0 locks a group of blocks for good.
                let locked = (0..<8).filter { system[3] & (1 << $0) == 0 }
                if !locked.isEmpty { memory.append(Field(.memory.lock, "\(locked.count) of 8 in the system block's last byte are 0 (blocks locked)")) }
            }
        }
        memory += Type4Frames.summaryFields(s.isoDEP.application, diagnostics: &diagnostics)
        var reconstruction: TagReconstruction?
        if s.atqb != nil || s.chipID != nil {
            reconstruction = .iso14443b(ISO14443BReconstruction(atqb: s.atqb?.encode(), attribAnswer: s.attribAnswer?.encode(), exchanges: s.isoDEP.exchanges,
                                                                chipID: s.chipID, uid: s.uid?.bytes, blocks: s.blocksAsFound))
        }
        return SessionSummary(number: s.number, technology: .iso14443b, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
                              headline: parts.joined(separator: ", "), tag: tag, memory: memory, diagnostics: diagnostics,
                              reconstruction: reconstruction)
    }
}
