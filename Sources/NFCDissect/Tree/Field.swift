import NFCCore

/// One node of a dissection tree: a named value at a byte range, with sub-fields.
///
/// `key` is the stable machine name (`ntag.read.page`, `ndef.record.type`): JSON output, replay
/// comparison rules and filters use it. `label` and `value` are for people.
public struct Field: Sendable, Equatable {
    /// The key and label as the dissector wrote them.
    public var keyName: FieldName
    public var labelName: FieldName
    /// The value as the dissector found it; `value` is its text.
    public var content: FieldValue
    /// Byte offsets inside the unit being dissected (the frame, or the memory image).
    public var range: Range<Int>?
    public var children: [Field]

    public var key: String {
        get { keyName.text }
        set { keyName = FieldName(newValue) }
    }

    public var label: String {
        get { labelName.text }
        set { labelName = FieldName(newValue) }
    }

    public var value: String {
        get { content.text }
        set { content = FieldValue(newValue) }
    }

    public init(_ key: FieldName, _ label: FieldName, _ value: String, range: Range<Int>? = nil, children: [Field] = []) {
        self.init(key, label, FieldValue(value), range: range, children: children)
    }

    public init(_ key: FieldName, _ label: FieldName, _ value: FieldValue, range: Range<Int>? = nil, children: [Field] = []) {
        self.keyName = key
        self.labelName = label
        self.content = value
        self.range = range
        self.children = children
    }

    /// A field of `spec`: its key and label, and its byte range from the spec's layout unless
    /// `range` places it elsewhere (a value inside a larger unit, a data-dependent place).
    public init(_ spec: FieldSpec, _ value: FieldValue, range: Range<Int>? = nil, children: [Field] = []) {
        self.init(FieldName(spec.key), FieldName(spec.label), value, range: range ?? spec.layout?.range, children: children)
    }

    public init(_ spec: FieldSpec, _ value: String, range: Range<Int>? = nil, children: [Field] = []) {
        self.init(spec, FieldValue(value), range: range, children: children)
    }

    /// A field of `spec` labelled more exactly than the spec's label (`Page 4`, `CRC_A`).
    public init(_ spec: FieldSpec, label: FieldName, _ value: FieldValue, range: Range<Int>? = nil, children: [Field] = []) {
        self.init(FieldName(spec.key), label, value, range: range ?? spec.layout?.range, children: children)
    }

    public init(_ spec: FieldSpec, label: FieldName, _ value: String, range: Range<Int>? = nil, children: [Field] = []) {
        self.init(spec, label: label, FieldValue(value), range: range, children: children)
    }

    /// Depth-first search by key.
    public func first(key: String) -> Field? {
        if keyName.text == key { return self }
        for c in children { if let f = c.first(key: key) { return f } }
        return nil
    }
}

/// A field's value: text, or up to eight bytes in hex between a fixed prefix and suffix.
///
/// Most values of a frame are a byte or a few bytes in hex with a fixed note (`0x93 (cascade
/// level 1)`, `EB 68 (correct)`, `03 28 D1 01`, `READ (0x30)`). Kept as bytes (inline, so a value
/// allocates nothing), they cost the dissector no string building; the renderers write the
/// digits into their output. Two values are equal when their text is.
public struct FieldValue: Sendable, Equatable, CustomStringConvertible {
    public enum HexStyle: UInt8, Sendable {
        /// `04 A2 2C`
        case spaced
        /// `0x04A22C`
        case prefixed
        /// `04A22C`
        case plain
    }

    /// The whole text when there are no bytes; otherwise what comes before them.
    public let prefix: String
    /// The bytes and how they are written.
    let digits: HexDigits
    /// The suffix is written as ` (…)`.
    let suffixInParentheses: Bool
    public let suffix: String

    /// The most bytes a value keeps as bytes; longer runs become text.
    public static var maxBytes: Int { 8 }
    /// The most UTF-8 bytes `HexDigits.write` writes: ` (0x` + 16 digits + `)`.
    static var maxHexLength: Int { 24 }

    public init(_ text: String) {
        self.init(text, bytes: 0, count: 0, style: .spaced, "")
    }

    private init(_ prefix: String, bytes: UInt64, count: Int, style: HexStyle, hexInParentheses: Bool = false,
                 _ suffix: String, suffixInParentheses: Bool = false) {
        self.prefix = prefix
        self.digits = HexDigits(bytes: bytes, count: UInt8(count), style: style, inParentheses: hexInParentheses)
        self.suffix = suffix
        self.suffixInParentheses = suffixInParentheses
    }

    /// `prefix`, the bytes in hex, `suffix`. More than `maxBytes` bytes are kept as text.
    public static func hex<C: Collection>(_ bytes: C, style: HexStyle = .spaced, prefix: String = "",
                                          suffix: String = "") -> FieldValue where C.Element == UInt8 {
        guard bytes.count <= maxBytes else {
            let digits: String
            switch style {
            case .spaced: digits = Hex.string(bytes)
            case .prefixed: digits = "0x" + Hex.string(bytes, separator: "")
            case .plain: digits = Hex.string(bytes, separator: "")
            }
            return FieldValue(prefix + digits + suffix)
        }
        var packed: UInt64 = 0
        var shift: UInt64 = 0
        for b in bytes {
            packed |= UInt64(b) << shift
            shift &+= 8
        }
        return FieldValue(prefix, bytes: packed, count: bytes.count, style: style, suffix)
    }

    /// An integer's bytes, most significant first (`0x0044` → `0044` in `.plain` style).
    public static func bigEndian<T: FixedWidthInteger>(_ v: T, style: HexStyle = .plain) -> FieldValue {
        let n = min(T.bitWidth / 8, maxBytes)
        var packed: UInt64 = 0
        for i in 0..<n { packed |= UInt64(UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - i)))) << (8 * UInt64(i)) }
        return FieldValue("", bytes: packed, count: n, style: style, "")
    }

    /// `0x3A` and `suffix`.
    public static func byte(_ b: UInt8, suffix: String = "") -> FieldValue {
        FieldValue("", bytes: UInt64(b), count: 1, style: .prefixed, suffix)
    }

    /// `0x3A (note)`.
    public static func byte(_ b: UInt8, note: String) -> FieldValue {
        FieldValue("", bytes: UInt64(b), count: 1, style: .prefixed, note, suffixInParentheses: true)
    }

    /// `NAME (0x30)`: a command's name and code.
    public static func named(_ name: String, code: UInt8) -> FieldValue {
        FieldValue(name, bytes: UInt64(code), count: 1, style: .prefixed, hexInParentheses: true, "")
    }

    var hasHex: Bool { digits.count > 0 }

    public var text: String {
        guard hasHex else { return prefix }
        var out: [UInt8] = []
        out.reserveCapacity(prefix.utf8.count + Self.maxHexLength + suffix.utf8.count + 3)
        appendText(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as UTF-8 at the end of `out`, without making the String: the text renderers write
    /// every field's value this way.
    public func appendText(into out: inout [UInt8]) {
        out.append(contentsOf: prefix.utf8)
        guard hasHex else { return }
        digits.write { out.append($0) }
        if suffixInParentheses {
            out.append(0x20)
            out.append(0x28)
            out.append(contentsOf: suffix.utf8)
            out.append(0x29)
        } else {
            out.append(contentsOf: suffix.utf8)
        }
    }

    /// `text` is empty.
    public var isEmpty: Bool { !hasHex && prefix.isEmpty }

    public var description: String { text }

    public static func == (a: FieldValue, b: FieldValue) -> Bool { a.text == b.text }
}

/// The hex part of a `FieldValue`.
struct HexDigits {
    /// Byte `i` in bits `8 i ..< 8 i + 8`.
    let bytes: UInt64
    let count: UInt8
    let style: FieldValue.HexStyle
    /// The hex digits are written as ` (0x…)` after the prefix.
    let inParentheses: Bool

    /// Hands the hex part's UTF-8 bytes to `put`, in order: at most `FieldValue.maxHexLength`.
    @inline(__always)
    func write(_ put: (UInt8) -> Void) {
        if inParentheses {
            put(0x20)
            put(0x28)
        }
        if style == .prefixed {
            put(0x30)
            put(0x78)
        }
        var w = bytes
        for n in 0..<Int(count) {
            if n > 0 && style == .spaced { put(0x20) }
            let b = UInt8(truncatingIfNeeded: w)
            put(Hex.digit(ofNibble: b >> 4))
            put(Hex.digit(ofNibble: b & 0x0F))
            w >>= 8
        }
        if inParentheses { put(0x29) }
    }
}

extension Array where Element == Field {
    /// The first field of `spec`, depth first.
    public func first(_ spec: FieldSpec) -> Field? { first(key: spec.key) }

    public func first(key: String) -> Field? {
        for f in self { if let hit = f.first(key: key) { return hit } }
        return nil
    }
}

/// Something a dissector noticed: a breach of a rule, a mismatch, a tolerated oddity.
public struct Diagnostic: Sendable, Equatable {
    public enum Severity: String, Sendable, Comparable {
        case note, warning, error
        var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public var severity: Severity
    public var message: String
    /// Byte offsets the diagnostic is about, in the same unit as the fields.
    public var range: Range<Int>?

    public init(_ severity: Severity, _ message: String, range: Range<Int>? = nil) {
        self.severity = severity
        self.message = message
        self.range = range
    }
}
