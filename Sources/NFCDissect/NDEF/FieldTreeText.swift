import NFCCore

/// Plain text for a field tree: one field per line, indented by depth, with its byte range as
/// `[start..end]` (both ends included; an empty range shows as `[start..<start]`), then the
/// diagnostics.
///
///     NDEF message: 1 record [0..15]
///       Record 1: URI https://example.com [0..15]
///         Header: 0xD1: MB ME SR [0..0]
public enum FieldTreeText {
    public static func render(_ tree: FieldTree, indent: String = "  ") -> String {
        render(tree.fields, diagnostics: tree.diagnostics, indent: indent)
    }

    public static func render(_ fields: [Field], diagnostics: [Diagnostic] = [], indent: String = "  ") -> String {
        var out = ""
        func visit(_ f: Field, depth: Int) {
            out += String(repeating: indent, count: depth)
            out += f.value.isEmpty ? f.label : "\(f.label): \(f.value)"
            if let r = f.range { out += " " + range(r) }
            out += "\n"
            for child in f.children { visit(child, depth: depth + 1) }
        }
        for f in fields { visit(f, depth: 0) }
        for d in diagnostics {
            out += "\(d.severity.rawValue)\(d.range.map { " " + range($0) } ?? ""): \(d.message)\n"
        }
        return out
    }

    public static func range(_ r: Range<Int>) -> String {
        r.isEmpty ? "[\(r.lowerBound)..<\(r.lowerBound)]" : "[\(r.lowerBound)..\(r.upperBound - 1)]"
    }
}
