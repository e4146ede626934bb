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
            fields.append(Field("t2t.cc", "Capability Container", .hex(cc.bytes), range: ccRange, children: [
                Field("t2t.cc.magic", "CC0 magic", .byte(cc.magic, suffix: cc.isNDEF ? " (NDEF data present)" : " (not NDEF formatted)"),
                      range: byte(0)),
                Field("t2t.cc.version", "CC1 version", .named(cc.versionText, code: cc.version), range: byte(1)),
                Field("t2t.cc.size", "CC2 data area size", .byte(cc.size, suffix: sizeText(cc.dataAreaSize, " → ")), range: byte(2)),
                Field("t2t.cc.access", "CC3 access", .byte(cc.access, suffix: accessText(cc)), range: byte(3)),
            ]))
        } else {
            fields.append(Field("t2t.cc", "Capability Container", "(not read)", range: Type2Memory.capabilityContainerRange))
        }
        if let area = layout.tlvArea {
            let size = layout.capabilityContainer.map { sizeText($0.dataAreaSize, "") } ?? "size unknown"
            let start = Type2Memory.dataAreaStart
            let declared = layout.capabilityContainer.map { start..<(start + $0.dataAreaSize) } ?? area.range
            fields.append(Field("t2t.data_area", "Data area", size, range: declared,
                                children: TagTLVDescriber.fields(area, prefix: "t2t")))
        }
        for a in layout.lockAreas + layout.reservedAreas {
            let key: FieldName = a.kind == .lock ? "t2t.lock_area" : "t2t.reserved_area"
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
            fields.append(Field(key, a.kind == .lock ? "Lock area" : "Reserved area", value.string, range: a.range))
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
        func part(_ key: FieldName, _ label: FieldName, _ range: Range<Int>) -> Field {
            let value = image.firstUnknown(in: range) == nil ? hexValue(image.bytes[range]) : "(not read)"
            return Field(key, label, value, range: range)
        }
        let known = image.firstUnknown(in: Type2Memory.HeaderLayout.all.range) == nil
        return Field("t2t.header", "Header (pages 0–2)", known ? hexValue(image.bytes[Type2Memory.HeaderLayout.all.range]) : "(not read completely)", range: Type2Memory.HeaderLayout.all.range,
                     children: [
                        part("t2t.uid0", "UID0–UID2", Type2Memory.HeaderLayout.uid0.range), part("t2t.bcc0", "BCC0", Type2Memory.HeaderLayout.bcc0.range), part("t2t.uid1", "UID3–UID6", Type2Memory.HeaderLayout.uid1.range),
                        part("t2t.bcc1", "BCC1", Type2Memory.HeaderLayout.bcc1.range), part("t2t.internal", "Internal", Type2Memory.HeaderLayout.internalByte.range),
                        part("t2t.lock.static", "Static lock bytes", Type2Memory.HeaderLayout.staticLock.range),
                     ])
    }

    // MARK: Type 5

    public static func describe(_ layout: Type5MemoryLayout, image: TagMemoryImage) -> FieldTree {
        var fields: [Field] = []
        if let cc = layout.capabilityContainer {
            let mlenRange = cc.mlenRange
            var children = [
                Field("t5t.cc.magic", "CC0 magic", Hex.byte(cc.magic) + (cc.magic == 0xE1
                        ? " (1-byte block addresses reach the data area)"
                        : cc.magic == 0xE2 ? " (the data area needs 2-byte block addresses)" : " (not NDEF formatted)"),
                      range: Type5CapabilityContainer.Layout.magic.range),
                Field("t5t.cc.version", "CC1 version", "\(cc.versionText) (b8–b5 of \(Hex.byte(cc.versionAndAccess)))", range: Type5CapabilityContainer.Layout.versionAndAccess.range),
                Field("t5t.cc.read_access", "CC1 read access", "\(cc.readAccess.name) (b4–b3)", range: Type5CapabilityContainer.Layout.versionAndAccess.range),
                Field("t5t.cc.write_access", "CC1 write access", "\(cc.writeAccess.name) (b2–b1)", range: Type5CapabilityContainer.Layout.versionAndAccess.range),
                Field("t5t.cc.mlen", "MLEN", "0x\(Hex.value(cc.mlen, digits: cc.isExtended ? 4 : 2)) → \(cc.dataAreaSize)-byte data area",
                      range: mlenRange),
                Field("t5t.cc.features", "CC3 features",
                      "\(Hex.byte(cc.features))" + (cc.featureNames.isEmpty ? ": none" : ": " + cc.featureNames.joined(separator: ", ")),
                      range: Type5CapabilityContainer.Layout.features.range),
            ]
            if cc.isExtended { children.insert(Field("t5t.cc.rfu", "RFU", hexValue(cc.rfu), range: Type5CapabilityContainer.Layout.rfu.range), at: 5) }
            fields.append(Field("t5t.cc", "Capability Container", hexValue(cc.bytes), range: cc.range, children: children))
        } else {
            fields.append(Field("t5t.cc", "Capability Container", "(not read)", range: Type5CapabilityContainer.shortForm.range.clamped(to: image.bytes.indices)))
        }
        if let area = layout.tlvArea, let cc = layout.capabilityContainer {
            fields.append(Field("t5t.data_area", "Data area", "\(cc.dataAreaSize) bytes", range: cc.length..<(cc.length + cc.dataAreaSize),
                                children: TagTLVDescriber.fields(area, prefix: "t5t")))
        }
        return FieldTree(fields: fields, diagnostics: layout.issues.map(Diagnostic.init))
    }

    // MARK: Type 3

    public static func describe(_ layout: Type3MemoryLayout, image: TagMemoryImage) -> FieldTree {
        var fields: [Field] = []
        guard let aib = layout.attributeInformationBlock else {
            return FieldTree(fields: [Field("t3t.aib", "Attribute Information Block", "(not read)", range: Type3AttributeInformationBlock.Layout.all.range)],
                             diagnostics: layout.issues.map(Diagnostic.init))
        }
        let checksum = aib.checksumIsValid ? "\(Hex.value(aib.checksum, digits: 4)) (valid)"
            : "\(Hex.value(aib.checksum, digits: 4)) (invalid: bytes 0–13 sum to \(Hex.value(aib.computedChecksum, digits: 4)))"
        let writeF = aib.writeF == 0 ? "done" : aib.writeF == 0x0F ? "write in progress" : "undefined"
        let rw = aib.rwFlag == 0 ? "read-only" : aib.rwFlag == 1 ? "read/write" : "undefined"
        fields.append(Field("t3t.aib", "Attribute Information Block", "version \(aib.versionText), Ln \(aib.ln)", range: Type3AttributeInformationBlock.Layout.all.range, children: [
            Field("t3t.aib.version", "Ver", "\(aib.versionText) (\(Hex.byte(aib.version)))", range: Type3AttributeInformationBlock.Layout.version.range),
            Field("t3t.aib.nbr", "Nbr", "\(aib.nbr) blocks per Check", range: Type3AttributeInformationBlock.Layout.nbr.range),
            Field("t3t.aib.nbw", "Nbw", "\(aib.nbw) blocks per Update", range: Type3AttributeInformationBlock.Layout.nbw.range),
            Field("t3t.aib.nmaxb", "Nmaxb", "\(aib.nmaxb) blocks (\(Int(aib.nmaxb) * 16) bytes) for NDEF", range: Type3AttributeInformationBlock.Layout.nmaxb.range),
            Field("t3t.aib.reserved", "Reserved", hexValue(aib.reserved), range: Type3AttributeInformationBlock.Layout.reserved.range),
            Field("t3t.aib.writef", "WriteF", "\(Hex.byte(aib.writeF)) (\(writeF))", range: Type3AttributeInformationBlock.Layout.writeF.range),
            Field("t3t.aib.rwflag", "RWFlag", "\(Hex.byte(aib.rwFlag)) (\(rw))", range: Type3AttributeInformationBlock.Layout.rwFlag.range),
            Field("t3t.aib.ln", "Ln", "\(plural(Int(aib.ln), "byte")) in \(plural(aib.ndefBlockCount, "block"))", range: Type3AttributeInformationBlock.Layout.ln.range),
            Field("t3t.aib.checksum", "Checksum", checksum, range: Type3AttributeInformationBlock.Layout.checksum.range),
        ]))
        if let range = layout.ndefRange {
            var children: [Field] = []
            if let result = layout.ndef {
                children = [NDEFFieldBuilder(place: { ($0.lowerBound + 16)..<($0.upperBound + 16) }).message(result)]
            }
            fields.append(Field("t3t.ndef", "NDEF data", plural(range.count, "byte"), range: range, children: children))
        }
        return FieldTree(fields: fields, diagnostics: layout.issues.map(Diagnostic.init))
    }
}
