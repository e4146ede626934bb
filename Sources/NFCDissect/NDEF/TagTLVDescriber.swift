import NFCCore

/// Fields for the TLV area of a Type 2 or Type 5 tag (`t2t.tlv.ndef.length`, `t5t.tlv.terminator` …).
enum TagTLVDescriber {
    /// The key part of each TLV kind, in `kindIndex` order.
    static let kinds = ["null", "lock_control", "memory_control", "ndef", "proprietary", "terminator", "rfu"]

    static func kindIndex(_ tag: TagTLV.Tag) -> Int {
        switch tag {
        case .null: return 0
        case .lockControl: return 1
        case .memoryControl: return 2
        case .ndef: return 3
        case .proprietary: return 4
        case .terminator: return 5
        case .rfu: return 6
        }
    }

    /// The keys of one TLV's fields (`t2t.tlv.ndef`, `t2t.tlv.ndef.type` …), made once per
    /// prefix and kind for Type 2 and Type 5: every session summary names the TLVs it decodes.
    struct Keys {
        let base, type, length, value, bytes, position, size, bytesLockedPerBit, bytesPerPage: FieldName

        init(_ base: String) {
            self.base = FieldName(base)
            type = "\(base).type"
            length = "\(base).length"
            value = "\(base).value"
            bytes = "\(base).bytes"
            position = "\(base).position"
            size = "\(base).size"
            bytesLockedPerBit = "\(base).bytes_locked_per_bit"
            bytesPerPage = "\(base).bytes_per_page"
        }
    }

    private static let t2tKeys = kinds.map { Keys("t2t.tlv.\($0)") }
    private static let t5tKeys = kinds.map { Keys("t5t.tlv.\($0)") }

    static func keys(prefix: String, _ tag: TagTLV.Tag) -> Keys {
        let i = kindIndex(tag)
        switch prefix {
        case "t2t": return t2tKeys[i]
        case "t5t": return t5tKeys[i]
        default: return Keys("\(prefix).tlv.\(kinds[i])")
        }
    }

    static func fields(_ area: TagTLVArea, prefix: String) -> [Field] {
        area.tlvs.enumerated().map { index, tlv in
            let control: Type2ControlArea?
            switch tlv.tag {
            case .lockControl where tlv.isComplete: control = Type2ControlArea(.lock, value: tlv.value)
            case .memoryControl where tlv.isComplete: control = Type2ControlArea(.reserved, value: tlv.value)
            default: control = nil
            }
            return field(tlv, prefix: prefix, ndef: area.ndef?.tlvIndex == index ? area.ndef : nil, control: control)
        }
    }

    static func field(_ tlv: TagTLV, prefix: String, ndef: TagNDEFMessage?, control: Type2ControlArea?) -> Field {
        let keys = Self.keys(prefix: prefix, tlv.tag)
        let k = keys.base
        let name = FieldName(tlv.tag.name)
        let tagRange = tlv.tagOffset..<(tlv.tagOffset + 1)
        if tlv.tag == .null {
            return Field(k, name, tlv.repeatCount == 1 ? "padding" : "\(tlv.repeatCount) bytes of padding", range: tlv.range)
        }
        if tlv.tag == .terminator {
            return Field(k, name, "end of the TLVs", range: tlv.range)
        }
        var children: [Field] = []
        children.reserveCapacity(3)
        children.append(Field(keys.type, "T", Hex.byte(tlv.tag.byte), range: tagRange))
        if let length = tlv.length, let lengthRange = tlv.lengthRange {
            children.append(Field(keys.length, "L", "\(length)" + (lengthRange.count == 3 ? " (3-byte form)" : ""), range: lengthRange))
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
            valueChildren.append(Field(keys.bytes, "Bytes", hexValue(tlv.value), range: valueRange))
        }
        children.append(Field(keys.value, "V", read, range: valueRange, children: valueChildren))
        let summary: String
        if let ndef, let first = ndef.result.records.first {
            summary = NDEFSummary.line(first) + (ndef.result.records.count > 1 ? " + \(ndef.result.records.count - 1) more" : "")
        } else {
            summary = "L=\(tlv.length ?? 0)"
        }
        return Field(k, name, summary, range: tlv.range, children: children)
    }

    static func controlFields(_ a: Type2ControlArea, keys k: Keys, range: Range<Int>?) -> [Field] {
        guard let v = a.tlvValue, v.count == 3 else { return [] }
        let n = Int(v[2] & 0x0F)
        var out = [
            Field(k.position, "Position", "byte \(a.range.lowerBound) (PageAddr \(v[0] >> 4) × \(a.bytesPerPage) + ByteOffset \(v[0] & 0x0F))",
                  range: range.map { $0.lowerBound..<($0.lowerBound + 1) }),
        ]
        let sizeRange = range.map { ($0.lowerBound + 1)..<($0.lowerBound + 2) }
        let thirdRange = range.map { ($0.lowerBound + 2)..<($0.lowerBound + 3) }
        switch a.kind {
        case .lock:
            out.append(Field(k.size, "Size", "\(a.lockBits ?? 0) lock bits (\(plural(a.range.count, "byte")))", range: sizeRange))
            out.append(Field(k.bytesLockedPerBit, "Bytes locked per bit", "\(a.bytesLockedPerBit ?? 0) (2^\(v[2] >> 4))",
                             range: thirdRange))
        case .reserved:
            out.append(Field(k.size, "Size", plural(a.range.count, "byte"), range: sizeRange))
        }
        out.append(Field(k.bytesPerPage, "Bytes per page", "\(a.bytesPerPage) (2^\(n))", range: thirdRange))
        return out
    }
}
