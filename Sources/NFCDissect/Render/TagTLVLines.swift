import NFCCore

/// The text view of a TLV area (Type 2 or Type 5): one line per TLV, the NDEF records of the
/// NDEF Message TLV under it.
enum TagTLVLines {
    static func lines(_ area: TagTLVArea) -> [String] {
        var out: [String] = []
        for (index, tlv) in area.tlvs.enumerated() {
            var line = "byte \(tlv.tagOffset): \(tlv.tag.name)"
            switch tlv.tag {
            case .null:
                if tlv.repeatCount > 1 { line += " × \(tlv.repeatCount)" }
            case .terminator:
                break
            default:
                line += ", L=\(tlv.length ?? 0)"
                if !tlv.isComplete { line += ", \(tlv.value.count) of \(tlv.length ?? 0) bytes read" }
            }
            out.append(line)
            if let ndef = area.ndef, ndef.tlvIndex == index {
                for (k, record) in ndef.result.records.enumerated() {
                    out.append("  record \(k + 1): \(NDEFSummary.line(record))")
                }
            }
        }
        return out
    }
}
