import NFCCore

/// Fields and diagnostics of one dissected unit (an NDEF message, a memory image): what the
/// describers return and the renderers read.
public struct FieldTree: Sendable, Equatable {
    public var fields: [Field]
    public var diagnostics: [Diagnostic]

    public init(fields: [Field] = [], diagnostics: [Diagnostic] = []) {
        self.fields = fields
        self.diagnostics = diagnostics
    }

    public func first(key: String) -> Field? { fields.first(key: key) }

    /// Every field with `key`, depth first.
    public func all(key: String) -> [Field] {
        var out: [Field] = []
        func visit(_ f: Field) {
            if f.key == key { out.append(f) }
            f.children.forEach(visit)
        }
        fields.forEach(visit)
        return out
    }
}

extension Diagnostic {
    /// An NDEF issue as a diagnostic: advisories are notes, tolerated breaches warnings, the
    /// ones decoding could not get past errors.
    init(_ issue: NDEFIssue, range: Range<Int>?) {
        let severity: Severity = !issue.isBreach ? .note : (issue.tolerated ? .warning : .error)
        self.init(severity, "\(issue.message) [\(issue.rule.rawValue)]", range: range)
    }

    init(_ issue: TagMemoryIssue) {
        let severity: Severity
        switch issue.severity {
        case .note: severity = .note
        case .warning: severity = .warning
        case .error: severity = .error
        }
        self.init(severity, "\(issue.message) [\(issue.rule)]", range: issue.range)
    }
}

/// Short hex for field values: the whole value, since nothing may be dropped.
func hexValue(_ bytes: some Collection<UInt8>) -> String {
    bytes.isEmpty ? "(none)" : Hex.string(bytes)
}

/// `"text"` with control characters shown as escapes, so a value stays on one line.
func quoted(_ s: String) -> String {
    // Plain text (the usual case) is copied whole; scalar by scalar only when something needs escaping.
    var text = s
    let plain = text.withUTF8 { bytes in !bytes.contains { $0 == 0x22 || $0 == 0x5C } } && PrintableText.isTerminalSafe(text)
    if plain {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        out += text
        out += "\""
        return out
    }
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if PrintableText.isUnsafeForTerminal(scalar) {   // C0, DEL, C1, bidirectional controls
                out += "\\u{\(Hex.value(scalar.value, digits: scalar.value > 0xFF ? 4 : 2))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// Bytes as text when they are printable UTF-8, otherwise as hex.
func textOrHex(_ bytes: [UInt8]) -> String {
    if let s = String(validating: bytes, as: UTF8.self),
       !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
        return quoted(s)
    }
    return hexValue(bytes)
}

func plural(_ n: Int, _ word: String) -> String {
    // Written in one go: an interpolation of three parts cost several times more, and session
    // summaries use this for most of their counts.
    var word = word
    return word.withUTF8 { w in
        String(unsafeUninitializedCapacity: 23 + w.count) { out in
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            var i = 0
            withUnsafeMutableBytes(of: &digits) { d in
                var v = n.magnitude
                var k = 0
                repeat {
                    d[k] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                    k &+= 1
                } while v > 0
                if n < 0 { out[i] = 0x2D; i &+= 1 }
                while k > 0 {
                    k &-= 1
                    out[i] = d[k]
                    i &+= 1
                }
            }
            out[i] = 0x20
            i &+= 1
            for b in w {
                out[i] = b
                i &+= 1
            }
            if n != 1 {
                out[i] = 0x73
                i &+= 1
            }
            return i
        }
    }
}
