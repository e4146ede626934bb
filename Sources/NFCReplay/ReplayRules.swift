import NFCCore

/// What may legitimately differ between a recorded answer and the target's, written against
/// dissected field names (not byte offsets), so a rule reads like the protocol:
///
///     # a rules file: one rule per line
///     ignore ntag.signature          # another tag has another originality signature
///     ignore ntag.counter            # counters move on
///     substitute iso14443a.uid_cln   # another UID: later SELECTs use the target's
///     substitute iso14443a.bcc
///
/// `ignore KEY` accepts a difference in fields with that key. `substitute KEY` accepts it too, and
/// from then on replaces the recorded bytes of that field by the target's in the reader frames
/// sent (CRCs recomputed): the way a replay follows another tag's UID or IDm. Keys may use `*`
/// (`*.signature`, `felica.idm*`). A key that no dissector writes (`FieldRegistry`, listed by
/// `nfctrace dissect --list-fields`) is an error naming the closest known key, not a rule that
/// silently never matches; so is a pattern that matches none. A rules file can sit beside a trace (`NAME.rules` for
/// `NAME.nfctrace` / `NAME.pcap`) or be given with `--rules`.
public struct ReplayRules: Sendable, Equatable {
    public enum Verb: String, Sendable, Equatable { case ignore, substitute }

    public struct Rule: Sendable, Equatable {
        public var verb: Verb
        public var pattern: String
        /// Where the rule comes from (`file:line`), for reports.
        public var source: String
    }

    public var rules: [Rule] = []

    public init(rules: [Rule] = []) { self.rules = rules }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var message: String
        public var description: String { "\(file):\(line): \(message)" }
    }

    public init(text: String, file: String) throws(ParseError) {
        var n = 0
        // LF, CRLF (one Character) or CR alone.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            n += 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            guard words.count == 2 else {
                throw ParseError(file: file, line: n, message: "expected \"ignore KEY\" or \"substitute KEY\", found \"\(line.prefix(60))\"")
            }
            guard let verb = Verb(rawValue: String(words[0])) else {
                throw ParseError(file: file, line: n, message: "unknown rule \"\(words[0])\" (ignore, substitute)")
            }
            let pattern = String(words[1])
            guard pattern.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "*" }) else {
                throw ParseError(file: file, line: n, message: "a field key holds letters, digits, . _ and *, not \"\(pattern)\"")
            }
            if let problem = Self.unknownKeyProblem(pattern) {
                throw ParseError(file: file, line: n, message: problem)
            }
            rules.append(Rule(verb: verb, pattern: pattern, source: "\(file):\(n)"))
        }
    }

    /// Why `pattern` can never match a field, or nil when some registered key matches it.
    static func unknownKeyProblem(_ pattern: String) -> String? {
        if pattern.contains("*") {
            if FieldRegistry.byKey.keys.contains(where: { matches(pattern, $0) }) { return nil }
            return "no field key matches \"\(pattern)\" (nfctrace dissect --list-fields lists them)"
        }
        if FieldRegistry.spec(forKey: pattern) != nil { return nil }
        let closest = FieldRegistry.closestKey(to: pattern).map { "; the closest known key is \($0)" } ?? ""
        return "unknown field key \"\(pattern)\"\(closest) (nfctrace dissect --list-fields lists them)"
    }

    public static func + (lhs: ReplayRules, rhs: ReplayRules) -> ReplayRules { ReplayRules(rules: lhs.rules + rhs.rules) }

    /// The first rule whose pattern matches `key`.
    public func rule(for key: String) -> Rule? { rules.first { Self.matches($0.pattern, key) } }

    public func substitutes(_ key: String) -> Bool { rule(for: key)?.verb == .substitute }

    /// Glob match where `*` stands for any run of characters.
    static func matches(_ pattern: String, _ key: String) -> Bool {
        let p = Array(pattern.utf8), k = Array(key.utf8)
        var pi = 0, ki = 0, star = -1, mark = 0
        while ki < k.count {
            if pi < p.count && (p[pi] == k[ki]) {
                pi += 1; ki += 1
            } else if pi < p.count && p[pi] == UInt8(ascii: "*") {
                star = pi; mark = ki; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ki = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}
