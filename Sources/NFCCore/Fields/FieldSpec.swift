/// One field a dissector can write: its key, its label, what kind of value it holds and, where
/// the value always sits at the same place of its command or answer, the codec's layout row
/// (Wireshark's `hf_register_info`, typed). Every protocol lists its specs in one `FieldTable`;
/// `FieldRegistry` holds the tables, so the keys are known before any frame is dissected:
/// `nfctrace dissect --list-fields` prints them, replay rules and filters check theirs against
/// them, and docs/json-output.md's key list is generated from them.
public struct FieldSpec: Sendable, Hashable, CustomStringConvertible {
    /// The stable machine name (`ntag.page`): JSON key, replay rule and filter key.
    public let key: String
    /// The name people read (`Page`). A dissector may label one occurrence more exactly
    /// (`Page 4`); the key stays.
    public let label: String
    public let kind: FieldKind
    /// Where the value sits in its payload when that place is fixed: the codec's row, so the
    /// dissector's byte range comes from the same table decode reads.
    public let layout: FieldLayout?
    /// The names of the values a code field can hold (a command's opcodes), from its codec:
    /// `--list-fields` prints them as `tshark -G values` does.
    public let values: [(value: UInt64, name: String)]

    public init(_ key: String, _ label: String, _ kind: FieldKind, layout: FieldLayout? = nil,
                values: [(value: UInt64, name: String)] = []) {
        self.key = key
        self.label = label
        self.kind = kind
        self.layout = layout
        self.values = values
    }

    /// The names of a codec's code enum (`Type2Command.Code`), by raw value.
    public static func names<Code: CaseIterable & RawRepresentable>(_ code: Code.Type, _ name: (Code) -> String) -> [(value: UInt64, name: String)]
    where Code.RawValue: FixedWidthInteger {
        code.allCases.map { (UInt64($0.rawValue), name($0)) }
    }

    public var description: String { key }

    // Two specs are the same field when their keys are: the registry checks that no key is
    // listed twice.
    public static func == (a: FieldSpec, b: FieldSpec) -> Bool { a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// How a field's value is written, for `--list-fields` and the JSON documentation (the value
/// itself is always text in the output).
public enum FieldKind: String, Sendable, CaseIterable {
    /// Words: a count, a state, a decoded name (`7-byte UID`, `3 records`).
    case text
    /// Bytes in hex (`04 A2 2C 12`).
    case hex
    /// One byte in hex, with a note (`0x04 (user memory)`).
    case byte
    /// A command or code: its name and its value (`READ (0x30)`).
    case code
}

/// The field specs of one protocol or layer, as stored properties of a final class (one shared
/// instance: a dissector reading `FieldSpec.ntag.page` loads one spec, where a struct table would
/// be copied whole, every spec retained, at each use): the table is the list, read through reflection, so a spec is written once (as its property) and listed without a second
/// enumeration to keep in step. Nested tables (the TLV fields every tag type shares) are listed
/// with the table that holds them.
public protocol FieldTable: Sendable {
    /// The key prefix (`ntag`).
    var name: String { get }
    /// What the fields describe (`NTAG / MIFARE Ultralight commands`).
    var title: String { get }
}

extension FieldTable {
    /// Every spec of the table, in the order the properties are declared.
    public var specs: [FieldSpec] {
        var out: [FieldSpec] = []
        func collect(_ value: Any) {
            for child in Mirror(reflecting: value).children {
                switch child.value {
                case let spec as FieldSpec: out.append(spec)
                case let specs as [FieldSpec]: out += specs
                case let nested as any FieldTable: collect(nested)
                case let nested as [any FieldTable]: nested.forEach(collect)
                default: break
                }
            }
        }
        collect(self)
        return out
    }
}
