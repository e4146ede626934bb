import NFCCore

/// EMV on top of the APDUs (protocols-wave2.md §6): the data object lists a card asks for are
/// remembered from its answers (PDOL `9F38` in the application's FCI, CDOL1/CDOL2 `8C`/`8D` in
/// its records), and the values the terminal then sends — GET PROCESSING OPTIONS' `83` template,
/// GENERATE AC's data — are split along them, each named and read (TTQ bits, amounts…).
enum EMVFrames {
    /// The lists a card's answer defines, kept for the commands that follow. Only the answers
    /// that carry them are parsed again: SELECT's FCI (PDOL) and READ RECORD's records (CDOLs).
    static func response(to command: CommandAPDU?, _ response: ResponseAPDU, _ s: inout some ISODEPCarrier) {
        guard let ins = command?.ins, ins == ISO7816Instruction.select || ins == ISO7816Instruction.readRecord,
              response.status.isSuccess, !response.data.isEmpty else { return }
        let (objects, _) = BERTLV.parse(response.data)
        for o in objects {
            if let pdol = o.first(0x9F38).flatMap({ EMV.dataObjectList($0.value) }) { s.isoDEP.application.emvPDOL = pdol }
            if let cdol = o.first(0x8C).flatMap({ EMV.dataObjectList($0.value) }) { s.isoDEP.application.emvCDOL1 = cdol }
            if let cdol = o.first(0x8D).flatMap({ EMV.dataObjectList($0.value) }) { s.isoDEP.application.emvCDOL2 = cdol }
        }
    }

    static func command(_ apdu: CommandAPDU, _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier, fields: inout [Field]) {
        guard apdu.cla & 0xF0 == 0x80, let dataStart = apdu.layout.data?.offset else { return }
        switch apdu.ins {
        case 0xA8:
            // `83 L values`: the values of the PDOL, or nothing (`83 00`) when the card gave none.
            let (objects, _) = BERTLV.parse(apdu.data)
            guard let template = objects.first, template.tag == 0x83 else { return }
            let list = s.isoDEP.application.emvPDOL ?? []
            fields.append(contentsOf: values(template.value, list, "PDOL", base: dataStart + template.valueRange.lowerBound, placement))
        case 0xAE:
            fields.append(Field(.emv.generateAcP1, EMV.generateACRequest(p1: apdu.p1),
                                range: placement.place(CommandAPDU.Layout.p1.range)))
            ctx.summary += ": " + EMV.generateACRequest(p1: apdu.p1)
            // The first GENERATE AC sends CDOL1's values, a second one CDOL2's.
            let app = s.isoDEP.application
            let (list, name) = app.emvGenerateACs == 0 ? (app.emvCDOL1, "CDOL1") : (app.emvCDOL2, "CDOL2")
            s.isoDEP.application.emvGenerateACs += 1
            fields.append(contentsOf: values(apdu.data, list ?? [], name, base: dataStart, placement))
        default:
            break
        }
    }

    /// The values sent for `list`, one field each; a note when they do not match the list.
    static func values(_ data: [UInt8], _ list: [EMV.DataObjectListEntry], _ name: String, base: Int, _ placement: APDUFrames.Placement) -> [Field] {
        guard !list.isEmpty else {
            return data.isEmpty ? [] : [Field(.emv.dolValues, "\(data.count) bytes (no \(name) seen in this session)")]
        }
        guard let split = EMV.values(data, for: list) else {
            return [Field(.emv.dolValues, "\(data.count) bytes, but the \(name) asks for \(list.reduce(0) { $0 + $1.length })")]
        }
        let children = split.map { e, r -> Field in
            let value = Array(data[r])
            let text = Hex.string(value) + (EMV.describe(tag: e.tag, value: value).map { ": " + $0 } ?? "")
            return Field(.emv.dolValue, label: FieldName(e.tagHex + (BERTLVTags.name(e.tag).map { " " + $0 } ?? "")), text,
                         range: placement.place(base + r.lowerBound..<base + r.upperBound))
        }
        return [Field(.emv.dolValues, label: "Values (\(name))", "\(list.count) data objects", children: children)]
    }
}
