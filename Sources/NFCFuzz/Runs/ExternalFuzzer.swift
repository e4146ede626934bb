/// Black-box fuzzing of a user's program (`nfctrace fuzz --exec 'CMD @@' --shape …`): a pool of
/// inputs of one shape, each child made by the structure-aware engine, each run judged by how
/// the program ended. There is no coverage feedback, so the pool grows a little with children
/// that ran cleanly (diversity) and is capped.
public struct ExternalFuzzer: Sendable {
    /// How one run of the program ended.
    public enum Outcome: Sendable, Hashable {
        case ok
        /// Killed by a signal (SIGSEGV, SIGABRT, SIGILL …), or an exit status the user called a crash.
        case crash(String)
        /// Still running at the time limit (killed).
        case hang
    }

    /// The shape of the inputs the program reads.
    public let shape: FuzzShape
    let mutator: StructuredMutator
    /// The inputs children are made from: the seeds, then children that ran cleanly, at most
    /// `poolLimit`.
    public private(set) var pool: [[UInt8]]
    var random: FuzzRandom
    /// The most inputs the pool grows to: below it, one clean child in ten joins the pool.
    public static let poolLimit = 512

    /// A fuzzer over `shape`, its pool started from `seeds` and the shape's own seeds; `seed` makes
    /// the children repeatable.
    public init(shape: FuzzShape, seeds: [[UInt8]] = [], seed: UInt64) {
        self.shape = shape
        self.mutator = StructuredMutator(shape: shape)
        let start = seeds.filter { !$0.isEmpty } + mutator.seeds()
        self.pool = start.isEmpty ? [[0]] : start
        self.random = FuzzRandom(seed: seed)
    }

    /// The next input to run.
    public mutating func next(maxSize: Int = 4096) -> [UInt8] {
        let parent = random.element(pool) ?? [0]
        return mutator.mutate(parent, seed: random.next(), maxSize: maxSize)
    }

    /// Keeps some clean children as parents (one in ten, while the pool has room).
    public mutating func record(_ input: [UInt8], _ outcome: Outcome) {
        guard outcome == .ok, pool.count < Self.poolLimit, random.below(10) == 0 else { return }
        pool.append(input)
    }

    /// Signals that mean the program crashed (a timeout's SIGKILL is a hang, decided by the caller).
    static let crashSignals: [Int32: String] = [4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV", 31: "SIGSYS"]

    /// Judges a run: killed by a crash signal, or a shell reporting one as 128 + N, or an exit
    /// status listed in `crashStatuses` (e.g. 1 for a Python traceback, when asked).
    public static func classify(status: Int32?, signal: Int32?, timedOut: Bool, crashStatuses: Set<Int32> = []) -> Outcome {
        if timedOut { return .hang }
        if let signal { return .crash(crashSignals[signal] ?? "signal \(signal)") }
        guard let status else { return .ok }
        if status > 128, let name = crashSignals[status - 128] { return .crash(name) }
        if crashStatuses.contains(status) { return .crash("exit status \(status)") }
        return .ok
    }

    /// What findings are grouped by: the outcome and the last line the program printed on stderr
    /// (an exception, a sanitizer report, a Swift trap), or its top frames when it printed a stack.
    public static func signature(_ outcome: Outcome, stderr: String) -> String {
        let report = CrashReport.parse(stderr)
        if !report.frames.isEmpty { return "\(outcome) | \(report.reason) | " + report.frames.joined(separator: " | ") }
        let last = stderr.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } } ?? ""
        return "\(outcome) | " + String(last.prefix(160))
    }
}
