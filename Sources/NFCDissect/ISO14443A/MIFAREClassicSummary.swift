import NFCCore

/// The MIFARE Classic part of a session summary, as fields only: the keys that opened each
/// sector and the blocks seen in clear, by sector. The text renderer prints them in both views.
enum MIFAREClassicSummary {
    /// `keys: sector 0 A A0A1A2A3A4A5, sector 2 A 3B7E4FD575AD` for the headline.
    static func headline(_ c: MIFAREClassicSession) -> String? {
        guard !c.keys.isEmpty else { return nil }
        return "keys: " + c.keys.map { k in "\(k.sector.map { "sector \($0)" } ?? "sector ?") \(k.keyType?.rawValue ?? "?") \(k.shown)" }.joined(separator: ", ")
    }

    /// `sector 2, key A`, or `sector unknown, key ?` for an authentication no key opened.
    static func target(_ sector: Int?, _ keyType: MIFAREClassicCommand.KeyType?) -> String {
        "\(sector.map { "sector \($0)" } ?? "sector unknown"), key \(keyType?.rawValue ?? "?")"
    }

    static func fields(_ c: MIFAREClassicSession, diagnostics: inout [Diagnostic]) -> [Field] {
        var out: [Field] = []
        for k in c.keys {
            out.append(Field(.mfc.key, label: "Key (\(target(k.sector, k.keyType)))", "\(k.shown) (\(k.key.source), frame \(k.frame))"))
        }
        var failed = c.failedAuthentications
        // An authentication the card never answered before the session ended failed too.
        if let a = c.authentication, a.readerAnswered { failed.append((a.frame, a.sector, a.keyType)) }
        for f in failed {
            out.append(Field(.mfc.failedAuth, "frame \(f.frame) (\(target(f.sector, f.keyType))): the card did not answer {nR}{aR}"))
        }
        let bySector = Dictionary(grouping: c.blocks.keys, by: { MIFAREClassicLayout.sector(ofBlock: $0) })
        for sector in bySector.keys.sorted() {
            let blocks = bySector[sector, default: []].sorted()
            let total = MIFAREClassicLayout.blockCount(ofSector: sector)
            let trailerCondition = c.blocks[MIFAREClassicLayout.trailer(ofSector: sector)].map(MIFAREClassicTrailer.accessBits)
            let children = blocks.map { b in block(b, c, sector: sector, access: trailerCondition, diagnostics: &diagnostics) }
            out.append(Field(.mfc.memorySector, label: "Sector \(sector)", "\(blocks.count) of \(total) blocks known", children: children))
        }
        if let mad = mad(c, diagnostics: &diagnostics) { out.append(mad) }
        return out
    }

    /// One block as the card holds it: the manufacturer block, a sector trailer (keys, access
    /// bits decoded per block), a value block, or data.
    static func block(_ b: Int, _ c: MIFAREClassicSession, sector: Int, access: MIFAREClassicAccessBits?, diagnostics: inout [Diagnostic]) -> Field {
        let data = c.blocks[b] ?? []
        let label = "Block \(Hex.byte(UInt8(truncatingIfNeeded: b)))"
        let written = c.written.contains(b) ? " (written)" : ""
        if b == 0, let m = MIFAREClassicManufacturerBlock(data) {
            return Field(.mfc.memoryBlock, label: FieldName(label + " (manufacturer)"), Hex.string(data) + written, children: [
                Field(.mfc.manufacturerUid, .hex(m.uid)),
                Field(.mfc.manufacturerBcc, .byte(m.bcc, suffix: m.bccIsValid ? " (correct)" : " (wrong, expected \(Hex.byte(m.uid.reduce(0, ^))))")),
                Field(.mfc.manufacturerData, Hex.string(m.rest)),
            ])
        }
        if MIFAREClassicLayout.isTrailer(b), data.count == 16 {
            typealias L = MIFAREClassicTrailer.Layout
            let bits = MIFAREClassicTrailer.accessBits(data)
            let keyA = data[L.keyA.range]
            var children: [Field] = [Field(.mfc.trailerKeyA, keyA.allSatisfy { $0 == 0 } ? "00 00 00 00 00 00 (key A always reads as zeros)" : Hex.string(keyA), range: L.keyA.range)]
            var accessChildren: [Field] = []
            if let problem = bits.inconsistency {
                diagnostics.append(Diagnostic(.warning, "sector \(sector) trailer: access bits \(Hex.string(bits.bytes)) are inconsistent: \(problem); the card locks the sector for good"))
            } else {
                let groups = MIFAREClassicLayout.blockCount(ofSector: sector) == 16 ? ["blocks 0–4", "blocks 5–9", "blocks 10–14"] : ["block 0", "block 1", "block 2"]
                for j in 0..<3 {
                    let cond = bits.condition(j)
                    accessChildren.append(Field(.mfc.accessData, label: "\(groups[j].prefix(1).uppercased() + groups[j].dropFirst()) (C1C2C3 \(String(cond, radix: 2).leftPadded(3)))", MIFAREClassicAccessBits.dataBlockRights(cond)))
                }
                let t = bits.condition(3)
                accessChildren.append(Field(.mfc.accessTrailer, label: "Trailer (C1C2C3 \(String(t, radix: 2).leftPadded(3)))", MIFAREClassicAccessBits.trailerRights(t)))
            }
            children.append(Field(.mfc.trailerAccess, Hex.string(bits.bytes) + (bits.isConsistent ? " (consistent)" : " (inconsistent)"), range: L.accessBits.range, children: accessChildren))
            children.append(Field(.mfc.trailerGpb, .byte(data[L.generalPurpose.offset]), range: L.generalPurpose.range))
            let keyBIsData = bits.isConsistent && MIFAREClassicAccessBits.keyBReadable(bits.condition(3))
            children.append(Field(.mfc.trailerKeyB, label: keyBIsData ? "Key B (readable: data, not a key)" : "Key B", Hex.string(data[L.keyB.range]), range: L.keyB.range))
            return Field(.mfc.memoryBlock, label: FieldName(label + " (trailer)"), Hex.string(data) + written, children: children)
        }
        if let v = MIFAREClassicValueBlock(data) {
            var value = Field(.mfc.memoryBlock, label: FieldName(label + " (value block)"), Hex.string(data) + written, children: [
                Field(.mfc.value, "\(v.value)"),
                Field(.mfc.valueAddress, .byte(v.address)),
            ])
            if let access, bits(access, allowsValueFor: b, sector: sector) == false {
                value.children.append(Field(.mfc.valueNote, "the access bits do not make this block a value block"))
            }
            return value
        }
        return Field(.mfc.memoryBlock, label: FieldName(label), Hex.string(data) + written)
    }

    /// Whether the block's condition is one of the two value-block ones (110, 001).
    static func bits(_ access: MIFAREClassicAccessBits, allowsValueFor block: Int, sector: Int) -> Bool? {
        guard access.isConsistent else { return nil }
        return [0b110, 0b001].contains(access.condition(MIFAREClassicLayout.accessGroup(ofBlock: block)))
    }

    /// MAD1 from sector 0 blocks 1–2, with the NDEF it points to.
    static func mad(_ c: MIFAREClassicSession, diagnostics: inout [Diagnostic]) -> Field? {
        guard let b1 = c.blocks[1], let b2 = c.blocks[2], let mad = MIFAREApplicationDirectory(b1 + b2) else { return nil }
        let gpb = c.blocks[3].map { $0[9] }
        let declared = gpb.map { $0 & 0x80 != 0 } ?? false
        guard declared || mad.crcIsValid else { return nil }
        if !mad.crcIsValid {
            diagnostics.append(Diagnostic(.warning, "MAD CRC \(Hex.byte(mad.crc)) is wrong, expected \(Hex.byte(mad.expectedCRC))"))
        }
        var children: [Field] = [
            Field(.mfc.madCrc, .byte(mad.crc, suffix: mad.crcIsValid ? " (correct)" : " (wrong)")),
            Field(.mfc.madInfo, .byte(mad.info, note: mad.info & 0x3F == 0 ? "no card publisher sector" : "card publisher in sector \(mad.info & 0x3F)")),
        ]
        for (i, aid) in mad.aids.enumerated() where aid != 0 {
            children.append(Field(.mfc.madAid, label: "Sector \(mad.firstSector + i)", Hex.value(aid, digits: 4) + (MIFAREApplicationDirectory.name(aid).map { " (\($0))" } ?? "")))
        }
        let ndefSectors = mad.aids.enumerated().filter { $0.element == MIFAREApplicationDirectory.ndefAID }.map { mad.firstSector + $0.offset }
        if !ndefSectors.isEmpty {
            let area = MIFAREClassicNDEF.area(sectors: ndefSectors, blocks: c.blocks)
            children.append(Field(.mfc.ndef, label: "NDEF (sectors \(ndefSectors.map(String.init).joined(separator: ", ")))", area.ndef == nil ? "no complete NDEF message read" : "",
                                  children: TagTLVDescriber.fields(area, table: FieldSpec.mfc.tlv)))
        }
        let allocated = mad.aids.filter { $0 != 0 }.count
        return Field(.mfc.mad, label: "MAD v\(mad.version)", "\(allocated) sector\(allocated == 1 ? "" : "s") allocated", children: children)
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}

