import NFCCore

/// A small JSON value for mutating Proxmark3 dump files structurally (object member order and
/// duplicate keys are kept; numbers keep their text so that odd spellings survive).
indirect enum FuzzJSON: Equatable, Sendable {
    case object([(String, FuzzJSON)])
    case array([FuzzJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    static func == (a: FuzzJSON, b: FuzzJSON) -> Bool { a.text == b.text }

    var text: String {
        switch self {
        case .object(let members): return "{" + members.map { "\(JSONText.quoted($0.0)): \($0.1.text)" }.joined(separator: ", ") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ", ") + "]"
        case .string(let s): return JSONText.quoted(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        }
    }

    subscript(key: String) -> FuzzJSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// Sets (or appends) a member of an object.
    mutating func set(_ key: String, _ value: FuzzJSON) {
        guard case .object(var members) = self else { return }
        if let i = members.lastIndex(where: { $0.0 == key }) { members[i].1 = value } else { members.append((key, value)) }
        self = .object(members)
    }

    /// Parses `bytes`; nil on anything that is not JSON (depth limited, no recursion bombs here).
    static func parse(_ bytes: [UInt8]) -> FuzzJSON? {
        var p = Parser(bytes: bytes)
        guard let v = p.value(depth: 0) else { return nil }
        p.skipSpace()
        return p.i == bytes.count ? v : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }

        mutating func value(depth: Int) -> FuzzJSON? {
            skipSpace()
            guard i < bytes.count, depth < 32 else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, FuzzJSON)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object([]) }
                while true {
                    skipSpace()
                    guard case .string(let key)? = string(), expect(":"), let v = value(depth: depth + 1) else { return nil }
                    members.append((key, v))
                    skipSpace()
                    if expect(",") { continue }
                    return expect("}") ? .object(members) : nil
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [FuzzJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array([]) }
                while true {
                    guard let v = value(depth: depth + 1) else { return nil }
                    items.append(v)
                    skipSpace()
                    if expect(",") { continue }
                    return expect("]") ? .array(items) : nil
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default:
                let start = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                return i > start ? .number(String(decoding: bytes[start..<i], as: UTF8.self)) : nil
            }
        }

        mutating func expect(_ c: Character) -> Bool {
            skipSpace()
            guard i < bytes.count, let a = c.asciiValue, bytes[i] == a else { return false }
            i += 1
            return true
        }

        mutating func literal(_ word: String, _ v: FuzzJSON) -> FuzzJSON? {
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else { return nil }
            i += w.count
            return v
        }

        /// Strings with simple escapes (`\"`, `\\`, `\n`, `\uXXXX` kept as written).
        mutating func string() -> FuzzJSON? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                i += 1
                if c == UInt8(ascii: "\"") { return .string(String(decoding: out, as: UTF8.self)) }
                if c == UInt8(ascii: "\\"), i < bytes.count {
                    let e = bytes[i]
                    i += 1
                    out.append(e == UInt8(ascii: "n") ? 0x0A : e)
                } else {
                    out.append(c)
                }
            }
            return nil
        }
    }
}
