import NFCCore

/// One node of a dissection tree: a named value at a byte range, with sub-fields.
///
/// `key` is the stable machine name (`ntag.read.page`, `ndef.record.type`): JSON output, replay
/// comparison rules and filters use it. `label` and `value` are for people.
public struct Field: Sendable, Equatable {
    public var key: String
    public var label: String
    public var value: String
    /// Byte offsets inside the unit being dissected (the frame, or the memory image).
    public var range: Range<Int>?
    public var children: [Field]

    public init(_ key: String, _ label: String, _ value: String, range: Range<Int>? = nil, children: [Field] = []) {
        self.key = key
        self.label = label
        self.value = value
        self.range = range
        self.children = children
    }

    /// Depth-first search by key.
    public func first(key: String) -> Field? {
        if self.key == key { return self }
        for c in children { if let f = c.first(key: key) { return f } }
        return nil
    }
}

extension Array where Element == Field {
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
