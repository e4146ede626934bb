import NFCCore

/// What one target's run did (`nfctrace fuzz`), for the summary of a campaign over every target
/// (`nfctrace fuzz --all`): figures, coverage over time, crashes grouped by stack.
public struct FuzzTargetSummary: Sendable, Equatable {
    /// libFuzzer's figures at one moment of the run.
    public struct Sample: Sendable, Equatable {
        /// Seconds since the run started.
        public var seconds: Int
        /// Inputs run so far (libFuzzer's `#N`).
        public var executions: Int
        /// Coverage counters hit so far (`cov:`), nil when libFuzzer did not print it.
        public var coverage: Int?
        /// Coverage features so far (`ft:`), nil when not printed.
        public var features: Int?
        /// A sample of the run's figures at `seconds`.
        public init(seconds: Int, executions: Int, coverage: Int?, features: Int?) {
            self.seconds = seconds
            self.executions = executions
            self.coverage = coverage
            self.features = features
        }
    }

    /// One crash (or timeout, OOM, leak), however many inputs reached it.
    public struct Crash: Sendable, Equatable {
        /// crash, timeout, oom or leak.
        public var kind: String
        /// The reason line (`Fatal error: …`, `deadly signal`, `out-of-memory`).
        public var reason: String
        /// The topmost stack frames in project code: what tells this crash from others.
        public var frames: [String]
        /// How many crash inputs reached it.
        public var inputs: Int
        /// The path of the smallest of those inputs.
        public var smallest: String
        /// The command that runs the target on the smallest input again.
        public var reproduce: String
        /// The minimized input, ready for the regression folder that `swift test` replays.
        public var minimized: String?
        /// The folder of saved crash inputs `swift test` replays for this target.
        public var regressionFolder: String
        /// A crash with its stack, the inputs that reached it and how to reproduce and keep it.
        public init(kind: String, reason: String, frames: [String], inputs: Int, smallest: String, reproduce: String, minimized: String?, regressionFolder: String) {
            self.kind = kind
            self.reason = reason
            self.frames = frames
            self.inputs = inputs
            self.smallest = smallest
            self.reproduce = reproduce
            self.minimized = minimized
            self.regressionFolder = regressionFolder
        }
    }

    /// How the target's run ended.
    public enum Outcome: Sendable, Equatable {
        /// libFuzzer ran to its time limit and exited as a finished run does.
        case finished
        /// Crash inputs were found (the crashes say which).
        case crashed
        /// It did not really run, or ended otherwise (`LibFuzzerVerdict.failed`).
        case failed(String)
        /// Ctrl-C stopped it (libFuzzer's interrupt exit).
        case interrupted
        /// The campaign ended before its turn.
        case notRun

        /// The outcome in words, as the Markdown and JSON summaries show it.
        public var text: String {
            switch self {
            case .finished: return "finished"
            case .crashed: return "crashed"
            case .failed(let why): return "failed: " + why
            case .interrupted: return "interrupted"
            case .notRun: return "not run"
            }
        }
    }

    /// The fuzz target's executable name.
    public var target: String
    /// How its run ended.
    public var outcome: Outcome
    /// Seconds the run took (wall clock), and libFuzzer's last figures.
    public var seconds: Int
    /// Inputs run in total.
    public var executions: Int
    /// Coverage counters hit at the end, nil when libFuzzer did not print them.
    public var coverage: Int?
    /// Coverage features at the end, nil when not printed.
    public var features: Int?
    /// Files in the target's corpus folder after the run.
    public var corpusFiles: Int
    /// libFuzzer's figures over the run, for the coverage-over-time list.
    public var timeline: [Sample]
    /// Distinct crashes, grouped by stack.
    public var crashes: [Crash]
    /// Path of libFuzzer's full output.
    public var log: String

    /// A target's summary; a target that never ran needs only its name and `.notRun`.
    public init(target: String, outcome: Outcome, seconds: Int = 0, executions: Int = 0, coverage: Int? = nil, features: Int? = nil,
                corpusFiles: Int = 0, timeline: [Sample] = [], crashes: [Crash] = [], log: String = "") {
        self.target = target
        self.outcome = outcome
        self.seconds = seconds
        self.executions = executions
        self.coverage = coverage
        self.features = features
        self.corpusFiles = corpusFiles
        self.timeline = timeline
        self.crashes = crashes
        self.log = log
    }

    /// Executions per second over the whole run (0 when it took no time).
    public var executionsPerSecond: Int { seconds > 0 ? executions / seconds : 0 }

    /// Neither a crash nor a run that failed to run.
    public var isClean: Bool {
        switch outcome {
        case .finished, .interrupted, .notRun: return crashes.isEmpty
        case .crashed, .failed: return false
        }
    }
}

/// The summary of a campaign, as Markdown (people) and JSON (machines).
public enum FuzzCampaignSummary {
    /// At most this many samples per target are shown (evenly picked, the last always).
    public static let timelinePoints = 12

    static func thin(_ samples: [FuzzTargetSummary.Sample]) -> [FuzzTargetSummary.Sample] {
        guard samples.count > timelinePoints else { return samples }
        let step = Double(samples.count - 1) / Double(timelinePoints - 1)
        return (0..<timelinePoints).map { samples[Int((Double($0) * step).rounded())] }
    }

    /// The campaign as Markdown: a table of every target, then each target's coverage over time and
    /// crashes with how to reproduce them.
    public static func markdown(_ runs: [FuzzTargetSummary], started: String, plannedSeconds: Int, interrupted: Bool) -> String {
        let ran = runs.filter { $0.outcome != .notRun }
        let crashes = runs.reduce(0) { $0 + $1.crashes.count }
        let failed = runs.filter { if case .failed = $0.outcome { return true } else { return false } }.count
        var out = "# nfctrace fuzz --all, \(started)\n\n"
        out += "\(ran.count) of \(runs.count) targets ran (\(plannedSeconds) s planned)"
        out += interrupted ? "; stopped by Ctrl-C.\n" : ".\n"
        out += "\(crashes) distinct crash\(crashes == 1 ? "" : "es"), \(failed) target\(failed == 1 ? "" : "s") that did not run as they should.\n\n"
        out += "| target | outcome | seconds | executions | exec/s | cov | ft | corpus | crashes |\n"
        out += "|---|---|---:|---:|---:|---:|---:|---:|---:|\n"
        for r in runs {
            out += "| \(r.target) | \(r.outcome.text) | \(r.seconds) | \(r.executions) | \(r.executionsPerSecond) | "
            out += "\(r.coverage.map(String.init) ?? "–") | \(r.features.map(String.init) ?? "–") | \(r.corpusFiles) | \(r.crashes.count) |\n"
        }
        for r in runs where !r.timeline.isEmpty || !r.crashes.isEmpty {
            out += "\n## \(r.target)\n\n"
            if !r.timeline.isEmpty {
                out += "Coverage over time (seconds: executions, cov, ft):\n\n"
                for s in thin(r.timeline) {
                    out += "- \(s.seconds) s: \(s.executions), cov \(s.coverage.map(String.init) ?? "–"), ft \(s.features.map(String.init) ?? "–")\n"
                }
            }
            for (i, c) in r.crashes.enumerated() {
                out += "\n\(i + 1). **\(c.kind)**: \(c.reason)\n"
                for f in c.frames { out += "   - at `\(f)`\n" }
                out += "   - inputs: \(c.inputs), smallest `\(c.smallest)`\n"
                out += "   - reproduce: `\(c.reproduce)`\n"
                if let m = c.minimized {
                    out += "   - minimized: `\(m)`; `swift test` replays it once copied: `mkdir -p \(c.regressionFolder) && cp \(m) \(c.regressionFolder)/`\n"
                }
            }
            if !r.log.isEmpty { out += "\nlog: `\(r.log)`\n" }
        }
        return out
    }

    /// The campaign as one JSON object: start, planned seconds, interruption, and per target its
    /// figures, timeline and crashes.
    public static func json(_ runs: [FuzzTargetSummary], started: String, plannedSeconds: Int, interrupted: Bool) -> String {
        func int(_ n: Int?) -> JSONValue { n.map { .number(String($0)) } ?? .null }
        let targets: [JSONValue] = runs.map { r in
            .object([
                ("target", .string(r.target)), ("outcome", .string(r.outcome.text)), ("seconds", int(r.seconds)),
                ("executions", int(r.executions)), ("executions_per_second", int(r.executionsPerSecond)),
                ("coverage", int(r.coverage)), ("features", int(r.features)), ("corpus_files", int(r.corpusFiles)),
                ("timeline", .array(r.timeline.map { s in
                    .object([("seconds", int(s.seconds)), ("executions", int(s.executions)), ("coverage", int(s.coverage)), ("features", int(s.features))])
                })),
                ("crashes", .array(r.crashes.map { c in
                    .object([("kind", .string(c.kind)), ("reason", .string(c.reason)), ("frames", .array(c.frames.map { .string($0) })),
                             ("inputs", int(c.inputs)), ("smallest", .string(c.smallest)), ("reproduce", .string(c.reproduce)),
                             ("minimized", c.minimized.map { .string($0) } ?? .null), ("regression_folder", .string(c.regressionFolder))])
                })),
                ("log", .string(r.log)),
            ])
        }
        let summary: JSONValue = .object([
            ("type", .string("fuzz-campaign")), ("started", .string(started)), ("planned_seconds", int(plannedSeconds)),
            ("interrupted", .bool(interrupted)), ("targets", .array(targets)),
        ])
        return summary.text + "\n"
    }
}
