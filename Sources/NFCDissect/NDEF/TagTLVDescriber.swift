import NFCCore

/// Fields for the TLV area of a Type 2 or Type 5 tag (`t2t.tlv.ndef.length`, `t5t.tlv.terminator` …).
enum TagTLVDescriber {
    /// The fields of `tag`'s TLV kind, or nil for NULL and Terminator (a lone T byte).
    static func fields(of tag: TagTLV.Tag, in table: TagTLVFields) -> TagTLVFields.TLV? {
        switch tag {
        case .null, .terminator: return nil
        case .lockControl: return table.lockControl
        case .memoryControl: return table.memoryControl
        case .ndef: return table.ndef
        case .proprietary: return table.proprietary
        case .rfu: return table.rfu
        }
    }

    static func fields(_ area: TagTLVArea, table: TagTLVFields) -> [Field] {
        area.tlvs.enumerated().map { index, tlv in
            let control: Type2ControlArea?
            switch tlv.tag {
            case .lockControl where tlv.isComplete: control = Type2ControlArea(.lock, value: tlv.value)
            case .memoryControl where tlv.isComplete: control = Type2ControlArea(.reserved, value: tlv.value)
            default: control = nil
            }
            return field(tlv, table: table, ndef: area.ndef?.tlvIndex == index ? area.ndef : nil, control: control)
        }
    }

    static func field(_ tlv: TagTLV, table: TagTLVFields, ndef: TagNDEFMessage?, control: Type2ControlArea?) -> Field {
        let tagRange = tlv.tagOffset..<(tlv.tagOffset + 1)
        guard let keys = fields(of: tlv.tag, in: table) else {
            if tlv.tag == .null {
                return Field(table.null, tlv.repeatCount == 1 ? "padding" : "\(tlv.repeatCount) bytes of padding", range: tlv.range)
            }
            return Field(table.terminator, "end of the TLVs", range: tlv.range)
        }
        let name = FieldName(tlv.tag.name)
        var children: [Field] = []
        children.reserveCapacity(3)
        children.append(Field(keys.type, Hex.byte(tlv.tag.byte), range: tagRange))
        if let length = tlv.length, let lengthRange = tlv.lengthRange {
            children.append(Field(keys.length, "\(length)" + (lengthRange.count == 3 ? " (3-byte form)" : ""), range: lengthRange))
        }
        let valueRange = tlv.valueSegments.first.flatMap { first in tlv.valueSegments.last.map { first.lowerBound..<$0.upperBound } }
        let read = tlv.isComplete ? plural(tlv.value.count, "byte") : "\(tlv.value.count) of \(tlv.length ?? 0) bytes read"
        var valueChildren: [Field] = []
        if let ndef {
            let builder = NDEFFieldBuilder(place: { ndef.imageRange(ofMessageRange: $0) })
            if !ndef.result.records.isEmpty || ndef.result.unparsedRange != nil {
                valueChildren.append(builder.message(ndef.result))
            }
        } else if let control {
            valueChildren = controlFields(control, keys: keys, range: valueRange)
        } else if !tlv.value.isEmpty {
            valueChildren.append(Field(keys.bytes, hexValue(tlv.value), range: valueRange))
        }
        children.append(Field(keys.value, read, range: valueRange, children: valueChildren))
        let summary: String
        if let ndef, let first = ndef.result.records.first {
            summary = NDEFSummary.line(first) + (ndef.result.records.count > 1 ? " + \(ndef.result.records.count - 1) more" : "")
        } else {
            summary = "L=\(tlv.length ?? 0)"
        }
        return Field(keys.base, label: name, summary, range: tlv.range, children: children)
    }

    static func controlFields(_ a: Type2ControlArea, keys k: TagTLVFields.TLV, range: Range<Int>?) -> [Field] {
        guard let position = k.position, let size = k.size, let bytesPerPage = k.bytesPerPage else { return [] }
        guard let v = a.tlvValue, v.count == 3 else { return [] }
        let n = Int(v[2] & 0x0F)
        var out = [
            Field(position, "byte \(a.range.lowerBound) (PageAddr \(v[0] >> 4) × \(a.bytesPerPage) + ByteOffset \(v[0] & 0x0F))",
                  range: range.map { $0.lowerBound..<($0.lowerBound + 1) }),
        ]
        let sizeRange = range.map { ($0.lowerBound + 1)..<($0.lowerBound + 2) }
        let thirdRange = range.map { ($0.lowerBound + 2)..<($0.lowerBound + 3) }
        switch a.kind {
        case .lock:
            out.append(Field(size, "\(a.lockBits ?? 0) lock bits (\(plural(a.range.count, "byte")))", range: sizeRange))
            if let bytesLockedPerBit = k.bytesLockedPerBit {
                out.append(Field(bytesLockedPerBit, "\(a.bytesLockedPerBit ?? 0) (2^\(v[2] >> 4))", range: thirdRange))
            }
        case .reserved:
            out.append(Field(size, plural(a.range.count, "byte"), range: sizeRange))
        }
        out.append(Field(bytesPerPage, "\(a.bytesPerPage) (2^\(n))", range: thirdRange))
        return out
    }
}
