import NFCCore

/// How a field tree reads as text, everywhere (`dissect -V`, session trees, `ndef decode`): one
/// field per line, indented by depth, its byte range first as `[start..end]` (end excluded, like
/// the JSON `range`), then `label: value`; diagnostics after the fields.
enum FieldText {
    static func append(_ field: Field, depth: Int, style: Style, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: depth * 4))
        if let r = field.range { out.append(contentsOf: style.dim("[\(r.lowerBound)..\(r.upperBound)] ").utf8) }
        out.append(contentsOf: field.label.utf8)
        let value = field.value
        if !value.isEmpty {
            out.append(0x3A)
            out.append(0x20)
            out.append(contentsOf: value.utf8)
        }
        out.append(0x0A)
        for c in field.children { append(c, depth: depth + 1, style: style, into: &out) }
    }

    static func append(_ diag: Diagnostic, indent: String, style: Style, into out: inout [UInt8]) {
        var text = "\(diag.severity.rawValue): \(diag.message)"
        if let r = diag.range { text += " [\(r.lowerBound)..\(r.upperBound)]" }
        switch diag.severity {
        case .error: text = style.bad(text)
        case .warning: text = style.warn(text)
        case .note: break
        }
        out.append(contentsOf: "\(indent)\(text)\n".utf8)
    }
}
