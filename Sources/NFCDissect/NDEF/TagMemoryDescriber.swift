import NFCCore

/// Fields for tag memory images: Type 2 (header, CC, TLVs, lock and reserved areas), Type 3
/// (Attribute Information Block and NDEF data) and Type 5 (CC and TLVs).
public enum TagMemoryDescriber {
    // MARK: Type 2

    public static func describe(_ layout: Type2MemoryLayout, image: TagMemoryImage) -> FieldTree {
        var fields: [Field] = []
        fields.reserveCapacity(4 + layout.lockAreas.count + layout.reservedAreas.count)
        fields.append(header(image))
        if let cc = layout.capabilityContainer {
            let ccRange = Type2Memory.capabilityContainerRange
            func byte(_ i: Int) -> Range<Int> { (ccRange.lowerBound + i)..<(ccRange.lowerBound + i + 1) }
            fields.append(Field(.t2t.cc, .hex(cc.bytes), range: ccRange, children: [
                Field(.t2t.ccMagic, .byte(cc.magic, suffix: cc.isNDEF ? " (NDEF data present)" : " (not NDEF formatted)"),
                      range: byte(0)),
                Field(.t2t.ccVersion, .named(cc.versionText, code: cc.version), range: byte(1)),
                Field(.t2t.ccSize, .byte(cc.size, suffix: sizeText(cc.dataAreaSize, " → ")), range: byte(2)),
                Field(.t2t.ccAccess, .byte(cc.access, suffix: accessText(cc)), range: byte(3)),
            ]))
        } else {
            fields.append(Field(.t2t.cc, "(not read)", range: Type2Memory.capabilityContainerRange))
        }
        if let area = layout.tlvArea {
            let size = layout.capabilityContainer.map { sizeText($0.dataAreaSize, "") } ?? "size unknown"
            let start = Type2Memory.dataAreaStart
            let declared = layout.capabilityContainer.map { start..<(start + $0.dataAreaSize) } ?? area.range
            fields.append(Field(.t2t.dataArea, size, range: declared,
                                children: TagTLVDescriber.fields(area, table: FieldSpec.t2t.tlv)))
        }
        for a in layout.lockAreas + layout.reservedAreas {
            var value = TextWriter(capacity: 80)
            value.write("bytes ")
            value.write(TagMemoryImage.describe(a.range))
            if let bits = a.lockBits {
                value.write(": ")
                value.decimal(bits)
                value.write(" lock bits, ")
                value.decimal(a.bytesLockedPerBit ?? 0)
                value.write(" bytes each")
            }
            if a.isDefault { value.write(" (default: no Lock Control TLV)") }
            fields.append(Field(a.kind == .lock ? .t2t.lockArea : .t2t.reservedArea, value.string, range: a.range))
        }
        return FieldTree(fields: fields, diagnostics: layout.issues.map(Diagnostic.init))
    }

    /// `lead` + `496 bytes`.
    static func sizeText(_ n: Int, _ lead: StaticString) -> String {
        var w = TextWriter(capacity: 16)
        w.write(lead)
        w.decimal(n)
        w.write(" bytes")
        return w.string
    }

    /// `: read granted without security, write granted without security`.
    static func accessText(_ cc: Type2CapabilityContainer) -> String {
        var w = TextWriter(capacity: 72)
        w.write(": read ")
        w.write(cc.readAccess.name)
        w.write(", write ")
        w.write(cc.writeAccess.name)
        return w.string
    }

    /// Pages 0–2: UID, check bytes, internal byte and static lock bytes.
    static func header(_ image: TagMemoryImage) -> Field {
        func part(_ spec: FieldSpec) -> Field {
            let range = spec.layout?.range ?? 0..<0
            let value = image.firstUnknown(in: range) == nil ? hexValue(image.bytes[range]) : "(not read)"
            return Field(spec, value, range: range)
        }
        let t2t = FieldSpec.t2t
        let known = image.firstUnknown(in: Type2Memory.HeaderLayout.all.range) == nil
        return Field(.t2t.header, known ? hexValue(image.bytes[Type2Memory.HeaderLayout.all.range]) : "(not read completely)",
                     children: [part(t2t.uid0), part(t2t.bcc0), part(t2t.uid1), part(t2t.bcc1), part(t2t.internal), part(t2t.lockStatic)])
    }

    // MARK: Type 5

    public static func describe(_ layout: Type5MemoryLayout, image: TagMemoryImage) -> FieldTree {
        var fields: [Field] = []
        if let cc = layout.capabilityContainer {
            let mlenRange = cc.mlenRange
            var children = [
                Field(.t5t.ccMagic, Hex.byte(cc.magic) + (cc.magic == 0xE1
                        ? " (1-byte block addresses reach the data area)"
                        : cc.magic == 0xE2 ? " (the data area needs 2-byte block addresses)" : " (not NDEF formatted)")),
                Field(.t5t.ccVersion, "\(cc.versionText) (b8–b5 of \(Hex.byte(cc.versionAndAccess)))"),
                Field(.t5t.ccReadAccess, "\(cc.readAccess.name) (b4–b3)"),
                Field(.t5t.ccWriteAccess, "\(cc.writeAccess.name) (b2–b1)"),
                Field(.t5t.ccMlen, "0x\(Hex.value(cc.mlen, digits: cc.isExtended ? 4 : 2)) → \(cc.dataAreaSize)-byte data area",
                      range: mlenRange),
                Field(.t5t.ccFeatures,
                      "\(Hex.byte(cc.features))" + (cc.featureNames.isEmpty ? ": none" : ": " + cc.featureNames.joined(separator: ", "))),
            ]
            if cc.isExtended { children.insert(Field(.t5t.ccRfu, hexValue(cc.rfu)), at: 5) }
            fields.append(Field(.t5t.cc, hexValue(cc.bytes), range: cc.range, children: children))
        } else {
            fields.append(Field(.t5t.cc, "(not read)", range: Type5CapabilityContainer.shortForm.range.clamped(to: image.bytes.indices)))
        }
        if let area = layout.tlvArea, let cc = layout.capabilityContainer {
            fields.append(Field(.t5t.dataArea, "\(cc.dataAreaSize) bytes", range: cc.length..<(cc.length + cc.dataAreaSize),
                                children: TagTLVDescriber.fields(area, table: FieldSpec.t5t.tlv)))
        }
        return FieldTree(fields: fields, diagnostics: layout.issues.map(Diagnostic.init))
    }

    // MARK: Type 3

    public static func describe(_ layout: Type3MemoryLayout, image: TagMemoryImage) -> FieldTree {
        var fields: [Field] = []
        guard let aib = layout.attributeInformationBlock else {
            return FieldTree(fields: [Field(.t3t.aib, "(not read)")],
                             diagnostics: layout.issues.map(Diagnostic.init))
        }
        let checksum = aib.checksumIsValid ? "\(Hex.value(aib.checksum, digits: 4)) (valid)"
            : "\(Hex.value(aib.checksum, digits: 4)) (invalid: bytes 0–13 sum to \(Hex.value(aib.computedChecksum, digits: 4)))"
        let writeF = aib.writeF == 0 ? "done" : aib.writeF == 0x0F ? "write in progress" : "undefined"
        let rw = aib.rwFlag == 0 ? "read-only" : aib.rwFlag == 1 ? "read/write" : "undefined"
        fields.append(Field(.t3t.aib, "version \(aib.versionText), Ln \(aib.ln)", children: [
            Field(.t3t.aibVersion, "\(aib.versionText) (\(Hex.byte(aib.version)))"),
            Field(.t3t.aibNbr, "\(aib.nbr) blocks per Check"),
            Field(.t3t.aibNbw, "\(aib.nbw) blocks per Update"),
            Field(.t3t.aibNmaxb, "\(aib.nmaxb) blocks (\(Int(aib.nmaxb) * 16) bytes) for NDEF"),
            Field(.t3t.aibReserved, hexValue(aib.reserved)),
            Field(.t3t.aibWritef, "\(Hex.byte(aib.writeF)) (\(writeF))"),
            Field(.t3t.aibRwflag, "\(Hex.byte(aib.rwFlag)) (\(rw))"),
            Field(.t3t.aibLn, "\(plural(Int(aib.ln), "byte")) in \(plural(aib.ndefBlockCount, "block"))"),
            Field(.t3t.aibChecksum, checksum),
        ]))
        if let range = layout.ndefRange {
            var children: [Field] = []
            if let result = layout.ndef {
                children = [NDEFFieldBuilder(place: { ($0.lowerBound + 16)..<($0.upperBound + 16) }).message(result)]
            }
            fields.append(Field(.t3t.ndef, plural(range.count, "byte"), range: range, children: children))
        }
        return FieldTree(fields: fields, diagnostics: layout.issues.map(Diagnostic.init))
    }
}
