import NFCCore

/// Plain text for a field tree (no colour), in the layout of `dissect -V` (see `FieldText`).
///
///     [0..16] NDEF message: 1 record
///         [0..16] Record 1: URI https://example.com
///             [0..1] Header: 0xD1: MB ME SR
public enum FieldTreeText {
    public static func render(_ tree: FieldTree) -> String {
        render(tree.fields, diagnostics: tree.diagnostics)
    }

    public static func render(_ fields: [Field], diagnostics: [Diagnostic] = []) -> String {
        var out: [UInt8] = []
        append(fields, diagnostics: diagnostics, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same text, as UTF-8 at the end of `out`.
    public static func append(_ fields: [Field], diagnostics: [Diagnostic] = [], into out: inout [UInt8]) {
        let style = Style(enabled: false)
        FieldText.append(fields, depth: 0, style: style, into: &out)
        for d in diagnostics { FieldText.append(d, indent: "", style: style, into: &out) }
    }
}
