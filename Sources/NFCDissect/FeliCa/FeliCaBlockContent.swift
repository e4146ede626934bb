import NFCCore

/// What a 16-byte block holds, decided by its service and system: CJRC history records, the
/// Type 3 Tag AIB and NDEF data (with Lite-S system block names), or text / hex.
enum FeliCaBlockContent: Equatable {
    case history
    case type3(lite: Bool)
    case plain

    /// `systemCode` nil: the Polling did not name the system (wildcard), so the service decides.
    static func kind(service: FeliCaServiceCode, systemCode: UInt16?, family: FeliCaPMm.Family?) -> FeliCaBlockContent {
        let lite = family == .lite || family == .liteS || family == .link || systemCode == FeliCaSystemCode.feliCaLite
        switch service {
        case .cjrcHistory where systemCode == nil || systemCode == FeliCaSystemCode.cjrc:
            return .history
        case .ndefRead where isType3System(systemCode), .ndefWrite where isType3System(systemCode):
            return .type3(lite: lite)
        default:
            return .plain
        }
    }

    /// The NDEF services mean Type 3 Tag data only in the NFC Forum and FeliCa Lite systems (or
    /// when the Polling did not name the system).
    private static func isType3System(_ systemCode: UInt16?) -> Bool {
        systemCode == nil || systemCode == FeliCaSystemCode.nfcForumType3 || systemCode == FeliCaSystemCode.feliCaLite
    }

    /// One line for a block: a history record, the AIB, a Lite-S system block, or text.
    func line(_ data: [UInt8], block: UInt16) -> String? {
        switch self {
        case .history:
            guard let r = try? SuicaHistoryRecord.decode(data) else { return nil }
            return r.isEmpty ? "unused history slot" : Self.historyLine(r)
        case .type3(let lite):
            if block == 0, let aib = try? Type3AttributeInformationBlock.decode(data), aib.checksumIsValid {
                return Self.aibLine(aib)
            }
            if lite, let name = FeliCaLiteBlock.name(block), block >= 0x0E {
                return FeliCaLiteBlock.describe(block, data: data).map { "\(name): \($0)" } ?? name
            }
            // Blocks after the AIB hold NDEF data, decoded as a whole message, not block by block.
            return nil
        case .plain:
            return ShiftJIS.text(inBlock: data).map(quoted)
        }
    }

    static func aibLine(_ aib: Type3AttributeInformationBlock) -> String {
        "AIB version \(aib.versionText), Nbr \(aib.nbr), Nbw \(aib.nbw), Nmaxb \(aib.nmaxb), "
            + (aib.isReadOnly ? "read-only" : "read/write") + (aib.isWriting ? ", write in progress" : "") + ", Ln \(aib.ln)"
    }

    // MARK: history

    static func placeText(_ r: SuicaHistoryRecord) -> String {
        switch r.place {
        case .rail(let el, let es, let xl, let xs):
            let entry = "\(Hex.value(el, digits: 2))/\(Hex.value(es, digits: 2))"
            if xl == 0 && xs == 0 { return el == 0 && es == 0 ? "" : "at line/station \(entry)" }
            return "line/station \(entry) → \(Hex.value(xl, digits: 2))/\(Hex.value(xs, digits: 2))"
        case .bus(let line, let stop):
            return "bus line \(Hex.value(line, digits: 4)) stop \(Hex.value(stop, digits: 4))"
        case .sale(let h, let m, let s, let id):
            return "at \(twoDigits(h)):\(twoDigits(m)):\(twoDigits(s)), terminal \(Hex.value(id, digits: 4))"
        }
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `2025-04-15 ticket gate: fare (gate exit), line/station E3/0A → E3/14, balance 1000 yen, #42`.
    static func historyLine(_ r: SuicaHistoryRecord) -> String {
        let place = placeText(r)
        return "\(r.dateText) \(r.terminalName): \(r.processName)" + (place.isEmpty ? "" : ", \(place)")
            + ", balance \(r.balance) yen, #\(r.sequenceNumber)"
    }

    static func historyFields(_ r: SuicaHistoryRecord, at base: Int) -> [Field] {
        func at(_ lower: Int, _ count: Int = 1) -> Range<Int> { base + lower..<base + lower + count }
        var fields = [
            Field(.suica.terminal, "\(Hex.byte(r.terminalType)) (\(r.terminalName))", range: at(0)),
            Field(.suica.process, "\(Hex.byte(r.processByte)) (\(r.processName))", range: at(1)),
            Field(.suica.payment, "\(Hex.byte(r.paymentType)) (\(SuicaCodes.payment(r.paymentType) ?? "unknown"))", range: at(2)),
            Field(.suica.entryExit,
                  "\(Hex.byte(r.entryExitType)) (\(SuicaCodes.entryExit(r.entryExitType) ?? "unknown"))", range: at(3)),
            Field(.suica.date, r.isEmpty ? "none (unused slot)" : r.dateText, range: at(4, 2)),
        ]
        switch r.place {
        case .rail(let el, let es, let xl, let xs):
            fields.append(Field(.suica.entry, "\(Hex.value(el, digits: 2))/\(Hex.value(es, digits: 2))", range: at(6, 2)))
            fields.append(Field(.suica.exit, "\(Hex.value(xl, digits: 2))/\(Hex.value(xs, digits: 2))", range: at(8, 2)))
        case .bus(let line, let stop):
            fields.append(Field(.suica.busLine, Hex.value(line, digits: 4), range: at(6, 2)))
            fields.append(Field(.suica.busStop, Hex.value(stop, digits: 4), range: at(8, 2)))
        case .sale(let h, let m, let s, let id):
            fields.append(Field(.suica.time, "\(twoDigits(h)):\(twoDigits(m)):\(twoDigits(s))", range: at(6, 2)))
            fields.append(Field(.suica.terminalId, Hex.value(id, digits: 4), range: at(8, 2)))
        }
        fields += [
            Field(.suica.balance, "\(r.balance) yen", range: at(10, 2)),
            Field(.suica.byte12, Hex.byte(r.unknownByte), range: at(12)),
            Field(.suica.sequence, "\(r.sequenceNumber)", range: at(13, 2)),
            Field(.suica.region, "\(Hex.byte(r.regionByte)): entry \(SuicaCodes.region(r.entryRegion)), exit \(SuicaCodes.region(r.exitRegion))",
                  range: at(15)),
        ]
        return fields
    }

    /// The field of one block; `base` is where its 16 bytes start in the unit (frame or memory).
    /// `aibFields: false` leaves the AIB's own fields out (the session summary shows them once, with the NDEF message).
    func field(_ data: [UInt8], block: UInt16, service: FeliCaServiceCode, base: Int, field spec: FieldSpec, label: String, written: Bool = false,
               aibFields: Bool = true) -> Field {
        var value = Hex.string(data)
        if let line = line(data, block: block) { value += "  " + line }
        if written { value += " (written)" }
        var children: [Field] = []
        switch self {
        case .history:
            if let r = try? SuicaHistoryRecord.decode(data) { children = Self.historyFields(r, at: base) }
        case .type3:
            if aibFields, block == 0, let aib = try? Type3AttributeInformationBlock.decode(data), aib.checksumIsValid {
                let tree = TagMemoryDescriber.describe(Type3Memory.decode(TagMemoryImage(bytes: data)), image: TagMemoryImage(bytes: data))
                children = tree.fields.filter { $0.key == FieldSpec.t3t.aib.key }.map { $0.shifted(by: base) }
            }
        case .plain:
            break
        }
        return Field(spec, label: FieldName(label), value, range: base..<base + data.count, children: children)
    }
}

/// Blocks 0 … ceil(Ln/16) of a Type 3 Tag's NDEF service as a memory image (unread blocks unknown),
/// with the AIB of block 0. Bounded, so that a wild Ln cannot grow the image.
func type3Image(_ blocks: [UInt16: [UInt8]]) -> (image: TagMemoryImage, aib: Type3AttributeInformationBlock)? {
    guard let aibData = blocks[0], let aib = try? Type3AttributeInformationBlock.decode(aibData) else { return nil }
    var bytes: [UInt8] = []
    var known: [Bool] = []
    for n in 0...min(aib.ndefBlockCount, 1024) {
        let data = blocks[UInt16(n)]
        bytes += data ?? [UInt8](repeating: 0, count: 16)
        known += [Bool](repeating: data != nil, count: 16)
    }
    return (TagMemoryImage(bytes: bytes, known: known), aib)
}

/// `NDEF URI https://…` when `blocks` hold a complete, readable message; the AIB line otherwise.
func type3Summary(_ blocks: [UInt16: [UInt8]]) -> String? {
    guard let (image, aib) = type3Image(blocks) else { return nil }
    let layout = Type3Memory.decode(image)
    if let ndef = layout.ndef, !ndef.records.isEmpty,
       layout.issues.allSatisfy({ $0.severity != .error && $0.rule != "t3t.ndef.unread" }) {
        return "NDEF " + NDEFDescriber.summaries(ndef).joined(separator: "; ")
    }
    return FeliCaBlockContent.aibLine(aib)
}

extension Field {
    /// The same field with every range moved by `offset` (a memory field placed in a frame).
    func shifted(by offset: Int) -> Field {
        Field(keyName, labelName, content, range: range.map { $0.lowerBound + offset..<$0.upperBound + offset },
              children: children.map { $0.shifted(by: offset) })
    }
}
