import NFCCore

/// Builds the end-of-session summary of an ISO 14443-A tag: identity, authentication, and the
/// memory rebuilt from the pages the reader read and wrote.
enum ISO14443ASessionSummary {
    /// `Page 0x00` … `Page 0xFF`, made once (a session summary lists every page it knows).
    static let pageLabels: [FieldName] = (0..<TagMemoryImage.type2MaxPages).map { FieldName("Page \(Hex.byte(UInt8($0)))") }

    static func make(_ s: ISO14443ASession, detail: DissectionDetail) -> SessionSummary {
        // `NTAG215, UID 04 A2 2C 12 DE 5F 80, authenticated (…)`: parts joined by ", ".
        var headline = TextWriter(capacity: 96)
        var parts = 0
        func part(_ body: (inout TextWriter) -> Void) {
            if parts > 0 { headline.write(", ") }
            parts += 1
            body(&headline)
        }
        var tag: [Field] = []
        tag.reserveCapacity(8)
        if let model = s.model {
            part { $0.write(model.rawValue) }
            tag.append(Field(.tag.model, model.summary))
        } else if let family = ISODEPSummary.family(s.isoDEP) {
            part { $0.write(family) }
            tag.append(Field(.tag.model, family))
        } else if let family = s.familyFromActivation {
            part { $0.write(family) }
            tag.append(Field(.tag.model, "\(family) (no GET_VERSION seen)"))
        }
        if let uid = s.uid {
            part {
                $0.write("UID ")
                $0.hexBytes(uid)
            }
            tag.append(Field(.tag.uid, .hex(uid)))
            if let maker = uid.first, uid.count > 4 {
                tag.append(Field(.tag.manufacturer, manufacturerName(maker)))
            }
        } else if !s.levels.isEmpty {
            part {
                $0.write("partial UID ")
                $0.hexBytes(s.levelUIDBytes)
            }
        }
        if let atqa = s.atqa { tag.append(Field(.tag.atqa, .bigEndian(atqa.value))) }
        if let sak = s.sak { tag.append(Field(.tag.sak, .byte(sak.raw))) }
        if let ats = s.ats { tag.append(Field(.tag.ats, Hex.string(ats.encode()))) }
        if let auth = s.authentication.summary {
            part { $0.write(auth) }
            tag.append(Field(.tag.authentication, auth))
        }
        if let classic = s.classic, let keys = MIFAREClassicSummary.headline(classic) { part { $0.write(keys) } }
        for p in ISODEPSummary.parts(s.isoDEP) { part { $0.write(p) } }
        // Registered frame protocols add their parts (Type 1); only a session that used one
        // has a slice, so the others pay one empty-dictionary check.
        var registered = ISO14443ASummaryParts()
        if !s.slices.isEmpty {
            for p in ISO14443AFrameProtocols.table { p.summarise(s, detail: detail, into: &registered) }
            for h in registered.headline { part { $0.write(h) } }
            tag += registered.tag
        }
        if s.halted { tag.append(Field(.tag.state, "HALT")) }
        if parts == 0 { part { writeUnselected(s, &$0) } }

        var memory: [Field] = registered.memory
        memory.reserveCapacity(8)
        var diagnostics = s.diagnostics + registered.diagnostics
        var content: SessionContent? = nil
        if let classic = s.classic { memory += MIFAREClassicSummary.fields(classic, diagnostics: &diagnostics) }
        let type4 = Type4Frames.summaryFields(s.isoDEP.application, diagnostics: &diagnostics)
        if detail == .full { memory += type4 } else if s.isoDEP.application.type4 { content = .type4(s.isoDEP.application) }
        if !s.memory.knownPages.isEmpty {
            let map = s.memoryMap
            let decoded = Type2MemoryContent.decode(s.memory, map: map)
            if let decoded { diagnostics += decoded.layout.issues.map(Diagnostic.init) }
            if detail == .full {
                memory += memoryFields(s, map: map)
                if let decoded { memory += TagMemoryDescriber.describe(decoded.layout, image: decoded.image).fields }
            } else {
                content = .type2(s, decoded?.layout)
            }
        }
        var summary = SessionSummary(
            number: s.number, technology: .iso14443a, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
            headline: headline.string, tag: tag, memory: memory, diagnostics: diagnostics,
            reconstruction: reconstruction(s))
        summary.content = content
        return summary
    }

    /// The headline of a session that named no tag: what did answer (ATQA, a UID level) when
    /// something did, "no tag answered" only when nothing did.
    static func writeUnselected(_ s: ISO14443ASession, _ w: inout TextWriter) {
        guard s.tagAnswered else {
            w.write("no tag answered")
            return
        }
        w.write("tag answered, not selected")
        if let atqa = s.atqa {
            w.write(": ATQA ")
            w.hexValue(atqa.value, digits: 4)
            w.write(" (")
            w.write(ISO14443ADissector.uidSizeText(atqa.uidSize))
            w.write(")")
        }
        if let uid = s.anticollisionAnswer {
            w.write(s.atqa == nil ? ": " : ", ")
            w.write("UID CL")
            w.decimal(s.levels.count + 1)
            w.write(" ")
            w.hexBytes(uid.uidSlice)
            if uid.hasCascadeTag { w.write(" (more levels follow)") }
        }
    }

    /// The known pages grouped by region, in page order (both views list them so).
    static func regions(_ s: ISO14443ASession, map: Type2MemoryMap) -> [(region: Type2MemoryMap.Region, pages: [Int])] {
        var groups: [(region: Type2MemoryMap.Region, pages: [Int])] = []
        for p in s.memory.knownPages {
            let r = map.region(ofPage: p)
            if groups.last?.region == r { groups[groups.count - 1].pages.append(p) } else { groups.append((r, [p])) }
        }
        return groups
    }

    /// The configuration pages decoded, when the session read both.
    static func configuration(_ s: ISO14443ASession, map: Type2MemoryMap) -> Type2Configuration? {
        guard let family = map.configFamily, let c0 = map.cfg0Page, let c1 = map.cfg1Page,
              let cfg0 = s.memory.page(c0), let cfg1 = s.memory.page(c1) else { return nil }
        return Type2Configuration(family: family, cfg0: cfg0, cfg1: cfg1)
    }

    /// One field per region with one child per known page, then the configuration.
    static func memoryFields(_ s: ISO14443ASession, map: Type2MemoryMap) -> [Field] {
        var memory: [Field] = []
        for (region, known) in regions(s, map: map) {
            var children: [Field] = []
            children.reserveCapacity(known.count)
            for p in known {
                var suffix = s.writtenPages.contains(p) ? " (written)" : ""
                if region == .pwd, case .authenticated(let pwd, _) = s.authentication {
                    suffix = " (reads as zeros; PWD_AUTH used \(Hex.string(pwd)))" + suffix
                }
                children.append(Field(.memory.page, label: pageLabels[p], .hex(s.memory.pageSlice(p), suffix: suffix)))
            }
            let total = map.pages(of: region)?.count ?? known.count
            var label = TextWriter(capacity: 40)
            label.write(region.rawValue)
            label.write(" (")
            writeSpan(map.pages(of: region), &label)
            label.write(")")
            var value = TextWriter(capacity: 32)
            value.decimal(known.count)
            value.write(" of ")
            value.decimal(total)
            value.write(" pages known")
            memory.append(Field(.memory.region, label: FieldName(label.string), value.string, children: children))
        }
        if let config = configuration(s, map: map) { memory.append(Field(.memory.config, configurationText(config))) }
        return memory
    }
    /// `0x04…0x81`, or `0x03` for a one-page region; nothing when the map does not place it.
    static func writeSpan(_ pages: ClosedRange<Int>?, _ w: inout TextWriter) {
        guard let pages else { return }
        w.hexByte(UInt8(truncatingIfNeeded: pages.lowerBound))
        if pages.count != 1 {
            w.write("…")
            w.hexByte(UInt8(truncatingIfNeeded: pages.upperBound))
        }
    }

    /// The tag as far as the session showed it; nil until a UID was seen (ISO-DEP cards and
    /// MIFARE Classic are not Type 2 tags and are not reconstructed).
    static func reconstruction(_ s: ISO14443ASession) -> TagReconstruction? {
        if s.isoDEP.application.type4, let uid = s.uid {
            let app = s.isoDEP.application
            return .type4(Type4Reconstruction(uid: uid, atqa: s.atqa?.value, sak: s.sak?.raw, ats: s.ats?.encode(),
                                              ccFile: app.ccFile, ndefFile: app.ndefFileAsFound))
        }
        if s.ats != nil, let uid = s.uid, !s.isoDEP.exchanges.isEmpty {
            return .isoDEP(ISODEPReconstruction(uid: uid, atqa: s.atqa?.value, sak: s.sak?.raw, ats: s.ats?.encode(), exchanges: s.isoDEP.exchanges))
        }
        if let classic = s.classic, s.isMIFAREClassic, let uid = s.uid {
            let keys = classic.keys.compactMap { k -> MIFAREClassicReconstruction.Key? in
                guard let sector = k.sector, let t = k.keyType else { return nil }
                return MIFAREClassicReconstruction.Key(sector: sector, keyType: t.rawValue, value: k.key.value)
            }
            return .mifareClassic(MIFAREClassicReconstruction(uid: uid, atqa: s.atqa?.value, sak: s.sak?.raw, blocks: classic.firstRead,
                                                              keys: keys, nonces: classic.nonces, encryptedNonces: classic.nestedNonces))
        }
        guard let uid = s.uid, s.ats == nil, s.sak.map({ $0.isType2Platform }) ?? true else { return nil }
        var password: [UInt8]? = nil
        var pack: [UInt8]? = nil
        if case .authenticated(let p, let k) = s.authentication {
            password = p
            pack = k
        }
        return .type2(Type2Reconstruction(
            uid: uid, atqa: s.atqa?.value, sak: s.sak?.raw, model: s.model, version: s.version?.bytes,
            memory: s.memory, password: password, pack: pack, signature: s.signature,
            counters: s.counters, ultralightExchanges: s.ultralightExchanges, ultralightKey: s.ultralightKey))
    }

    static func configurationText(_ c: Type2Configuration) -> String {
        var parts: [String] = []
        parts.append("AUTH0 \(Hex.byte(c.auth0))")
        parts.append(c.readProtected ? "reads and writes need PWD" : "writes need PWD")
        parts.append("AUTHLIM \(c.authenticationLimit == 0 ? "unlimited" : String(c.authenticationLimit))")
        if c.configLocked { parts.append("CFGLCK set") }
        if c.nfcCounterEnabled { parts.append("NFC counter on" + (c.nfcCounterPasswordProtected ? " (PWD protected)" : "")) }
        if let m = c.mirror { parts.append(m) }
        if c.strongModulation { parts.append("strong modulation") }
        if let v = c.vctid { parts.append("VCTID \(Hex.byte(v))") }
        return parts.joined(separator: ", ")
    }

    /// ISO/IEC 7816-6 IC manufacturer codes of the usual NFC tag makers.
    static func manufacturerName(_ code: UInt8) -> String {
        switch code {
        case 0x02: return "02 (STMicroelectronics)"
        case 0x04: return "04 (NXP Semiconductors)"
        case 0x05: return "05 (Infineon)"
        case 0x07: return "07 (Texas Instruments)"
        case 0x08: return "08 (Fujitsu)"
        case 0x16: return "16 (EM Microelectronic)"
        case 0x1D: return "1D (Fudan)"
        case 0x57: return "57 (Shenzhen clone vendors)"
        default: return Hex.value(code, digits: 2)
        }
    }
}
