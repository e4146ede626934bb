/// One progress line of libFuzzer, read from its stderr:
///
///     #12345	NEW    cov: 101 ft: 340 corp: 104/2Kb lim: 4096 exec/s: 229081 rss: 44Mb L: 3/4 MS: …
///     #7194657: cov: 101 ft: 340 corp: 104 exec/s: 229081 oom/timeout/crash: 0/0/0 time: 20s job: 7
///
/// The second form is fork mode's (several jobs); it also counts crashes, timeouts and OOMs.
public struct LibFuzzerProgress: Sendable, Equatable {
    /// Inputs run so far (`#N`).
    public var executions: Int
    /// Coverage counters hit (`cov:`).
    public var coverage: Int?
    /// Coverage features (`ft:`).
    public var features: Int?
    /// Inputs in the corpus (`corp:`).
    public var corpus: Int?
    /// Current speed (`exec/s:`).
    public var executionsPerSecond: Int?
    /// Crash inputs found, fork mode only (`oom/timeout/crash:`).
    public var crashes: Int?
    /// Timeouts, fork mode only.
    public var timeouts: Int?
    /// Out-of-memory inputs, fork mode only.
    public var ooms: Int?
    /// `NEW`, `REDUCE`, `pulse`, `INITED`, `DONE` …; nil in fork mode.
    public var event: String?

    /// A progress line's figures; what the line does not carry stays nil.
    public init(executions: Int, coverage: Int? = nil, features: Int? = nil, corpus: Int? = nil, executionsPerSecond: Int? = nil,
                crashes: Int? = nil, timeouts: Int? = nil, ooms: Int? = nil, event: String? = nil) {
        self.executions = executions
        self.coverage = coverage
        self.features = features
        self.corpus = corpus
        self.executionsPerSecond = executionsPerSecond
        self.crashes = crashes
        self.timeouts = timeouts
        self.ooms = ooms
        self.event = event
    }

    /// Nil for lines that are not progress lines.
    public static func parse(_ line: Substring) -> LibFuzzerProgress? {
        guard line.first == "#" else { return nil }
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = tokens.first, let executions = Int(first.dropFirst().filter { $0 != ":" }) else { return nil }
        var p = LibFuzzerProgress(executions: executions)
        var i = 1
        if i < tokens.count, !tokens[i].hasSuffix(":") { p.event = String(tokens[i]); i += 1 }
        while i + 1 < tokens.count {
            let key = tokens[i], value = tokens[i + 1]
            switch key {
            case "cov:": p.coverage = Int(value)
            case "ft:": p.features = Int(value)
            case "corp:": p.corpus = Int(value.prefix { $0 != "/" })
            case "exec/s:": p.executionsPerSecond = Int(value)
            case "oom/timeout/crash:":
                let parts = value.split(separator: "/").map { Int($0) }
                if parts.count == 3 { (p.ooms, p.timeouts, p.crashes) = (parts[0], parts[1], parts[2]) }
            default: break
            }
            i += key.hasSuffix(":") ? 2 : 1
        }
        return p
    }

    /// `1.2M`, `15.3k`, `812`.
    public static func short(_ count: Int) -> String {
        if count >= 1_000_000 { return "\(count / 1_000_000).\(count / 100_000 % 10)M" }
        if count >= 10_000 { return "\(count / 1000).\(count / 100 % 10)k" }
        return "\(count)"
    }

    /// The stderr line `nfctrace fuzz` prints.
    public func line(target: String, seconds: Int) -> String {
        let time = "\(seconds / 3600):" + String(repeating: "0", count: seconds / 60 % 60 < 10 ? 1 : 0) + "\(seconds / 60 % 60):"
            + String(repeating: "0", count: seconds % 60 < 10 ? 1 : 0) + "\(seconds % 60)"
        var parts = ["\(target) \(time)", "\(Self.short(executions)) execs" + (executionsPerSecond.map { " (\(Self.short($0))/s)" } ?? "")]
        if let coverage { parts.append("cov \(coverage)" + (features.map { " ft \($0)" } ?? "")) }
        if let corpus { parts.append("corpus \(corpus)") }
        parts.append("crashes \(crashes ?? 0)" + ((timeouts ?? 0) > 0 ? " timeouts \(timeouts ?? 0)" : "") + ((ooms ?? 0) > 0 ? " ooms \(ooms ?? 0)" : ""))
        return parts.joined(separator: " | ")
    }
}
