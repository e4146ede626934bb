import NFCCore

/// The field registry as text: `nfctrace dissect --list-fields` (tab-separated like
/// `tshark -G fields`, or JSON Lines) and the key list of docs/json-output.md (Markdown).
public enum FieldListing {
    public enum Format: Sendable { case text, json, markdown }

    /// The tables whose prefix is `protocolName`, or all of them.
    public static func tables(named protocolName: String?) -> [any FieldTable] {
        guard let protocolName else { return FieldRegistry.tables }
        return FieldRegistry.tables.filter { $0.name == protocolName }
    }

    /// `P` lines for the tables and `F` lines for their fields (text); one object per field (JSON);
    /// a table per protocol (Markdown).
    public static func render(_ tables: [any FieldTable], format: Format) -> String {
        var out = ""
        for table in tables {
            switch format {
            case .text:
                out += "P\t\(table.title)\t\(table.name)\n"
                for spec in table.specs {
                    out += "F\t\(spec.label)\t\(spec.key)\t\(spec.kind.rawValue)\t\(table.name)\t\(place(spec))\n"
                    for v in spec.values { out += "V\t\(spec.key)\t\(hex(v.value))\t\(v.name)\n" }
                }
            case .json:
                for spec in table.specs {
                    var line: [UInt8] = []
                    func member(_ name: String, _ value: String, first: Bool = false) {
                        line += Array((first ? "{" : ",").utf8)
                        JSONText.appendString(name, to: &line)
                        line.append(UInt8(ascii: ":"))
                        JSONText.appendString(value, to: &line)
                    }
                    member("key", spec.key, first: true)
                    member("label", spec.label)
                    member("kind", spec.kind.rawValue)
                    member("protocol", table.name)
                    if let layout = spec.layout {
                        line += Array(",\"range\":[\(layout.offset),\(layout.end)]".utf8)
                    }
                    if !spec.values.isEmpty {
                        line += Array(",\"values\":{".utf8)
                        for (i, v) in spec.values.enumerated() {
                            if i > 0 { line.append(UInt8(ascii: ",")) }
                            JSONText.appendString(hex(v.value), to: &line)
                            line.append(UInt8(ascii: ":"))
                            JSONText.appendString(v.name, to: &line)
                        }
                        line.append(UInt8(ascii: "}"))
                    }
                    line += Array("}\n".utf8)
                    out += String(decoding: line, as: UTF8.self)
                }
            case .markdown:
                out += "### `\(table.name)`: \(table.title)\n\n| key | label | value | where |\n|---|---|---|---|\n"
                for spec in table.specs {
                    let values = spec.values.isEmpty ? "" : "; values: " + spec.values.map { "\(hex($0.value)) \($0.name)" }.joined(separator: ", ")
                    out += "| `\(spec.key)` | \(markdownCell(spec.label)) | \(spec.kind.rawValue) | \(markdownCell(place(spec) + values)) |\n"
                }
                out += "\n"
            }
        }
        return out
    }

    /// `bytes 1–2 (page address)` for a field whose place is fixed by its codec; empty otherwise
    /// (the dissector places it from the data).
    static func place(_ spec: FieldSpec) -> String {
        guard let layout = spec.layout else { return "" }
        let bytes = layout.width == 1 ? "byte \(layout.offset)" : "bytes \(layout.offset)–\(layout.end - 1)"
        return "\(bytes) (\(layout.expected))"
    }

    static func hex(_ value: UInt64) -> String {
        value <= 0xFF ? Hex.byte(UInt8(value)) : "0x" + Hex.value(value, digits: value <= 0xFFFF ? 4 : 16)
    }

    static func markdownCell(_ text: String) -> String {
        text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
