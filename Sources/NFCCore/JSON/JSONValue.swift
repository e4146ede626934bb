/// nfctrace's one JSON reader: dump files (Proxmark3 writes its dumps as JSON), read by the
/// emulator and mutated by the fuzzer. Written here rather than taken from Foundation so that
/// NFCCore stays dependency-free for the fuzz build, and like every nfctrace parser it never
/// traps: bad input is a `DecodeError` with the byte offset. Object members keep their order
/// and duplicates; numbers keep their text, so that what is written back is what was read.
public indirect enum JSONValue: Sendable, Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    /// A number as written (`1`, `-0.5e3`).
    case number(String)
    case bool(Bool)
    case null

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.last { $0.0 == key }?.1 }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var number: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }

    /// A number as an integer (its fraction dropped), nil when it is none or beyond Int's range:
    /// a file's `1e308` must not trap a conversion.
    public var integer: Int? { number.flatMap(JSONValue.integer) }

    /// `d` without its fraction, nil when it is not finite or beyond Int's range.
    public static func integer(_ d: Double) -> Int? {
        guard d.isFinite, d > -9.2e18, d < 9.2e18 else { return nil }
        return Int(d)
    }

    /// Sets (or appends) a member of an object; other values are left as they are.
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let i = members.lastIndex(where: { $0.0 == key }) { members[i].1 = value } else { members.append((key, value)) }
        self = .object(members)
    }

    /// The value as JSON text (`{"a": 1, "b": [true, null]}`), strings escaped by `JSONText`.
    public var text: String {
        switch self {
        case .object(let members): return "{" + members.map { "\(JSONText.quoted($0.0)): \($0.1.text)" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .string(let s): return JSONText.quoted(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    public var members: [(String, JSONValue)] {
        if case .object(let m) = self { return m }
        return []
    }

    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 64

    public static func parse(_ bytes: [UInt8]) throws(DecodeError) -> JSONValue { try parse(bytes[...]) }

    /// A document that is part of a larger buffer (an nfc-laboratory frame object where it was
    /// read), parsed in place; error offsets count from the slice's start.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.endIndex else { throw DecodeError(offset: p.i - bytes.startIndex, expected: "end of the JSON document") }
        return v
    }
}

private struct JSONParser {
    let bytes: ArraySlice<UInt8>
    var i: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        i = bytes.startIndex
    }

    func error(_ expected: String) -> DecodeError {
        DecodeError(offset: i - bytes.startIndex, expected: expected, found: i < bytes.endIndex ? "'\(Character(Unicode.Scalar(bytes[i])))'" : "end of data")
    }

    mutating func skipSpace() {
        while i < bytes.endIndex, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    mutating func expect(_ b: UInt8, _ what: String) throws(DecodeError) {
        guard i < bytes.endIndex, bytes[i] == b else { throw error(what) }
        i += 1
    }

    mutating func value(depth: Int) throws(DecodeError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("JSON nested at most \(JSONValue.maximumDepth) deep") }
        guard i < bytes.endIndex else { throw error("a JSON value") }
        switch bytes[i] {
        case 0x7B: return try object(depth: depth)
        case 0x5B: return try array(depth: depth)
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func literal(_ word: String) throws(DecodeError) {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.endIndex, Array(bytes[i..<i + w.count]) == w else { throw error(word) }
        i += w.count
    }

    mutating func object(depth: Int) throws(DecodeError) -> JSONValue {
        i += 1
        var members: [(String, JSONValue)] = []
        skipSpace()
        if i < bytes.endIndex, bytes[i] == 0x7D { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.endIndex, bytes[i] == 0x22 else { throw error("a member name in quotes") }
            let key = try string()
            skipSpace()
            try expect(0x3A, "':' after the member name")
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < bytes.endIndex else { throw error("',' or '}'") }
            if bytes[i] == 0x2C { i += 1; continue }
            try expect(0x7D, "',' or '}'")
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws(DecodeError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.endIndex, bytes[i] == 0x5D { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.endIndex else { throw error("',' or ']'") }
            if bytes[i] == 0x2C { i += 1; continue }
            try expect(0x5D, "',' or ']'")
            return .array(items)
        }
    }

    mutating func string() throws(DecodeError) -> String {
        i += 1
        // Most strings have no escape: taken straight from the input, without a copy growing
        // byte by byte (an nfc-laboratory frameData can be hundreds of MB; issue 51).
        if let close = bytes[i...].firstIndex(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }), bytes[close] == 0x22 {
            defer { i = close + 1 }
            return String(decoding: bytes[i..<close], as: UTF8.self)
        }
        var out: [UInt8] = []
        while true {
            guard i < bytes.endIndex else { throw error("the closing '\"' of a string") }
            let b = bytes[i]
            i += 1
            switch b {
            case 0x22:
                return String(decoding: out, as: UTF8.self)
            case 0x5C:
                guard i < bytes.endIndex else { throw error("an escape after '\\'") }
                let e = bytes[i]
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard i + 4 <= bytes.endIndex else { throw error("4 hex digits after \\u") }
                    var v: UInt32 = 0
                    for d in bytes[i..<i + 4] {
                        guard let x = Hex.digit(d) else { throw error("4 hex digits after \\u") }
                        v = v << 4 | UInt32(x)
                    }
                    i += 4
                    let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(scalar).utf8))
                default:
                    throw error("a valid escape")
                }
            case 0..<0x20:
                i -= 1
                throw error("no control character inside a string")
            default:
                out.append(b)
            }
        }
    }

    mutating func number() throws(DecodeError) -> String {
        let start = i
        while i < bytes.endIndex, (0x30...0x39).contains(bytes[i]) || bytes[i] == 0x2D || bytes[i] == 0x2B || bytes[i] == 0x2E || bytes[i] | 0x20 == 0x65 {
            i += 1
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard i > start, Double(text) != nil else {
            i = start
            throw error("a JSON value")
        }
        return text
    }
}
