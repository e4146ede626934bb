import NFCCore

/// How a field tree reads as text, everywhere (`dissect -V`, session trees, `ndef decode`): one
/// field per line, indented by depth, its byte range first as `[start..end]` (end excluded, like
/// the JSON `range`), then `label: value`; diagnostics after the fields.
enum FieldText {
    static func append(_ fields: [Field], depth: Int, style: Style, into out: inout [UInt8]) {
        // Read in place, as the JSON writer does: iterating the array (or `field.value`, which
        // builds a String of the hex digits) would copy each field and retain its strings.
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            for i in fields.indices { append(base + i, depth: depth, style: style, into: &out) }
        }
    }

    private static func append(_ f: UnsafePointer<Field>, depth: Int, style: Style, into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x20, count: depth * 4))
        if let r = f.pointee.range {
            if style.enabled { out.append(contentsOf: Style.dimOn) }
            out.append(0x5B)
            Decimal.append(Int64(r.lowerBound), width: 0, into: &out)
            out.append(0x2E)
            out.append(0x2E)
            Decimal.append(Int64(r.upperBound), width: 0, into: &out)
            out.append(0x5D)
            out.append(0x20)
            if style.enabled { out.append(contentsOf: Style.off) }
        }
        let start = out.count
        TextRenderer.appendUTF8(f.pointee.labelName.text, to: &out)
        if !f.pointee.content.isEmpty {
            out.append(0x3A)
            out.append(0x20)
            f.pointee.content.appendText(into: &out)
        }
        // Values quote the input (text records, file data, names): escaped for the terminal.
        PrintableText.makeTerminalSafe(&out, from: start)
        out.append(0x0A)
        if !f.pointee.children.isEmpty { append(f.pointee.children, depth: depth + 1, style: style, into: &out) }
    }

    static func append(_ diag: Diagnostic, indent: String, style: Style, into out: inout [UInt8]) {
        var text = "\(diag.severity.rawValue): \(PrintableText.forTerminal(diag.message))"
        if let r = diag.range { text += " [\(r.lowerBound)..\(r.upperBound)]" }
        switch diag.severity {
        case .error: text = style.bad(text)
        case .warning: text = style.warn(text)
        case .note: break
        }
        out.append(contentsOf: "\(indent)\(text)\n".utf8)
    }
}
