#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore
import NFCFuzz

/// One `nfctrace fuzz TARGET` run: build, fuzz with progress, minimize the corpus, report crashes.
struct FuzzRun {
    let target: FuzzTargetInfo
    let root: String
    let work: String
    let seconds: Int
    let jobs: Int
    let forkMode: Bool
    let timeout: Int
    let maxLength: Int
    /// libFuzzer's `-len_control`: how fast the length of mutated inputs may grow (0: up to
    /// `maxLength` at once).
    let lengthControl: Int
    let sanitizer: FuzzSanitizer
    let configuration: Configuration
    let seed: UInt64?

    /// SwiftPM's build configuration of the fuzz binaries. Release fuzzes fastest; debug builds
    /// in well under half the time and runs each input 2 to 3 times slower: for short checks
    /// (CI's fuzz-smoke), where the build is most of the time.
    enum Configuration: String, CaseIterable {
        case release, debug
    }

    /// The Swift runtime's backtracer must not catch the trap before libFuzzer does
    /// (notes/fuzzing-swift.md: no crash file, exit 132 otherwise).
    static let environment = ["SWIFT_BACKTRACE": "enable=no"]
    /// With the sanitizer runtimes' options of this build.
    var environment: [String: String] { Self.environment.merging(sanitizer.environment) { a, _ in a } }

    var scratch: String { Self.scratch(root: root, sanitizer: sanitizer) }
    var binary: String { scratch + "/" + configuration.rawValue + "/" + target.name }
    var folder: String { work + "/" + target.name }
    var corpus: String { folder + "/corpus" }
    var artifacts: String { folder + "/artifacts" }
    var seeds: String { root + "/Corpus/" + target.name }
    var dictionary: String { root + "/Corpus/" + target.name + ".dict" }

    private var before: Set<String> = []
    private var last: LibFuzzerProgress?
    private var sawDone = false
    /// How libFuzzer ended: exit status or signal, and whether it had to be killed.
    private var ending: (status: Int32?, signal: Int32?, timedOut: Bool)?
    private var corpusBefore = 0
    /// libFuzzer's figures over the run (every 10 s at most), and how long it ran.
    private(set) var timeline: [FuzzTargetSummary.Sample] = []
    private(set) var elapsed = 0

    /// libFuzzer's own default for `-len_control`, which it turns off (0) whenever a target has a
    /// custom mutator, as all of ours do: mutated inputs then grow to `--max-len` at once, and an
    /// execution of a dissect target costs about as much as the session its input holds. With it
    /// on, inputs start no longer than the longest seed and grow when coverage stalls
    /// (docs/fuzzing.md, "Input length").
    static let lengthControl = 100

    /// libFuzzer's exit status after Ctrl-C (its `-interrupted_exit_code` default).
    static let interruptedStatus: Int32 = 72

    init(target: FuzzTargetInfo, root: String, work: String, seconds: Int, jobs: Int, forkMode: Bool, timeout: Int, maxLength: Int,
         lengthControl: Int, sanitizer: FuzzSanitizer, configuration: Configuration = .release, seed: UInt64?) {
        self.target = target
        self.root = root
        self.work = work
        self.seconds = seconds
        self.jobs = jobs
        self.forkMode = forkMode
        self.timeout = timeout
        self.maxLength = maxLength
        self.lengthControl = lengthControl
        self.sanitizer = sanitizer
        self.configuration = configuration
        self.seed = seed
    }

    /// `swift build` of this target only, fuzzer-instrumented, with the sanitizer's flags.
    func build() throws(CLIFailure) {
        try Self.build(root: root, sanitizer: sanitizer, configuration: configuration, product: target.name)
    }

    /// Every target (`nfctrace fuzz --all`, scripts/fuzz-smoke): the whole FuzzTesting package in
    /// one `swift build`, which compiles and links in parallel (the root package leaves its
    /// command-line tool out of fuzz builds for this).
    static func buildAll(root: String, sanitizer: FuzzSanitizer, configuration: Configuration) throws(CLIFailure) {
        try build(root: root, sanitizer: sanitizer, configuration: configuration, product: nil)
    }

    static func scratch(root: String, sanitizer: FuzzSanitizer) -> String { root + "/FuzzTesting/.build-fuzz" + sanitizer.scratchSuffix }

    private static func build(root: String, sanitizer: FuzzSanitizer, configuration: Configuration, product: String?) throws(CLIFailure) {
        let scratch = scratch(root: root, sanitizer: sanitizer)
        let what = product ?? "every target"
        CLI.warn("fuzz: building \(what) (\(configuration.rawValue), \(sanitizer.instrumentation)) in \(scratch)")
        let arguments = ["swift", "build", "--package-path", root + "/FuzzTesting", "-c", configuration.rawValue]
            + sanitizer.buildArguments + ["--scratch-path", scratch] + (product.map { ["--product", $0] } ?? [])
        var result = try Subprocess(arguments: arguments, environment: sanitizer.buildEnvironment, ownProcessGroup: false).run()
        if result.status != 0, removeBuildPlan(scratch, configuration: configuration) {
            // SwiftPM keeps a build plan in the scratch folder; when the root package's targets
            // gain files or dependencies, an old plan fails the build ("missing required modules",
            // "cannot find … in scope"). Once without it, as scripts/fuzz-smoke does before building.
            CLI.warn("fuzz: the build failed with the build plan in \(scratch); building again without it")
            result = try Subprocess(arguments: arguments, environment: sanitizer.buildEnvironment, ownProcessGroup: false).run()
        }
        guard result.status == 0 else {
            let text = String(decoding: result.stdout + result.stderr, as: UTF8.self)
            FileHandleOutput.standardError(String(text.suffix(4000)))
            throw CLIFailure(message: "building \(what) failed: NFCTRACE_FUZZ_SANITIZE=\(sanitizer.instrumentedWith) \(arguments.joined(separator: " "))", code: .ioError)
        }
    }

    /// Removes SwiftPM's build plan of the scratch folder; whether there was one.
    static func removeBuildPlan(_ scratch: String, configuration: Configuration) -> Bool {
        var removed = false
        let yaml = scratch + "/" + configuration.rawValue + ".yaml"
        if FileSystem.exists(yaml) {
            FileSystem.remove(yaml)
            removed = true
        }
        for entry in FileSystem.list(scratch) {
            let plan = scratch + "/" + entry + "/" + configuration.rawValue + "/description.json"
            if FileSystem.exists(plan) {
                FileSystem.remove(plan)
                removed = true
            }
        }
        return removed
    }

    /// The libFuzzer command line: working corpus first (new inputs go there), seeds after.
    var fuzzArguments: [String] {
        var a = [binary, corpus]
        if FileSystem.isDirectory(seeds) { a.append(seeds) }
        if FileSystem.exists(dictionary) { a.append("-dict=" + dictionary) }
        a += ["-max_total_time=\(seconds)", "-timeout=\(timeout)", "-rss_limit_mb=2048", "-max_len=\(maxLength)",
              "-len_control=\(lengthControl)", "-artifact_prefix=" + artifacts + "/", "-print_final_stats=1"]
        if forkMode { a += ["-fork=\(jobs)", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1"] }
        if let seed { a.append("-seed=\(UInt32(truncatingIfNeeded: seed))") }
        return a
    }

    mutating func fuzz() throws(CLIFailure) {
        guard FileSystem.exists(binary) else { throw CLIFailure(message: "\(binary) is not built (drop --no-build)", code: .ioError) }
        try FileSystem.makeDirectories(corpus)
        try FileSystem.makeDirectories(artifacts)
        before = Set(FileSystem.list(artifacts))
        corpusBefore = FileSystem.list(corpus).count
        CLI.warn("fuzz: \(target.name) for \(seconds) s, \(jobs) job\(jobs == 1 ? "" : "s")\(forkMode ? " (fork mode)" : ""), corpus \(corpus) (\(corpusBefore) files\(corpusBefore > 0 ? ", resuming" : ""))")
        let start = MonotonicClock.seconds()
        var lastPrint = 0.0
        var lastSample = -10.0
        var samples: [FuzzTargetSummary.Sample] = []
        var latest: LibFuzzerProgress?
        var done = false
        let name = target.name
        let log = fopen(folder + "/fuzz.log", "a")
        defer { if let log { fclose(log) } }
        // Ctrl-C reaches libFuzzer (same process group), which stops cleanly; we go on to the report.
        signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, SIG_DFL) }
        var process = Subprocess(arguments: fuzzArguments, environment: environment, timeout: Double(seconds) + Double(timeout) * 4 + 120,
                                 ownProcessGroup: false, keep: 1 << 16)
        process.onStderrLine = { line in
            if let log { fputs(String(line) + "\n", log) }
            guard let p = LibFuzzerProgress.parse(line) else { return }
            latest = p
            if p.event == "DONE" { done = true }
            let now = MonotonicClock.seconds()
            if now - lastSample >= 10 || p.event == "DONE" {
                lastSample = now
                samples.append(FuzzTargetSummary.Sample(seconds: Int(now - start), executions: p.executions, coverage: p.coverage, features: p.features))
            }
            if now - lastPrint >= 10 || p.event == "INITED" || p.event == "DONE" {
                lastPrint = now
                CLI.warn("fuzz: " + p.line(target: name, seconds: Int(now - start)))
            }
        }
        let result = try process.run()
        last = latest
        sawDone = done
        ending = (result.status, result.signal, result.timedOut)
        elapsed = Int(MonotonicClock.seconds() - start)
        if let p = latest, samples.last?.executions != p.executions {
            samples.append(FuzzTargetSummary.Sample(seconds: elapsed, executions: p.executions, coverage: p.coverage, features: p.features))
        }
        timeline = samples
    }

    /// Whether Ctrl-C ended the run.
    var wasInterrupted: Bool { ending?.status == Self.interruptedStatus && ending?.timedOut == false }

    /// `-merge=1` into a fresh folder, which then replaces the working corpus.
    func minimize() throws(CLIFailure) {
        let fresh = folder + "/corpus.min", old = folder + "/corpus.old"
        FileSystem.removeTree(fresh)
        FileSystem.removeTree(old)
        try FileSystem.makeDirectories(fresh)
        let count = FileSystem.list(corpus).count
        guard count > 0 else { return }
        let result = try Subprocess(arguments: [binary, "-merge=1", "-timeout=\(timeout)", "-rss_limit_mb=2048", "-max_len=\(maxLength)", fresh, corpus],
                                    environment: environment, timeout: Double(max(600, count / 10)), ownProcessGroup: true, keep: 1 << 16).run()
        let kept = FileSystem.list(fresh).count
        guard result.status == 0, kept > 0 else {
            CLI.warn("fuzz: corpus minimisation failed (status \(result.status.map(String.init) ?? "signal \(result.signal ?? 0)")); corpus kept as it is")
            FileSystem.removeTree(fresh)
            return
        }
        try FileSystem.rename(corpus, old)
        try FileSystem.rename(fresh, corpus)
        FileSystem.removeTree(old)
        CLI.warn("fuzz: corpus minimised: \(count) → \(kept) files")
    }

    /// This run as a summary: crash, timeout and OOM inputs grouped by their stack, each with a
    /// reproduction command (and, with `minimizeCrashes`, a minimized input for the regression
    /// folder), the figures and the outcome (`LibFuzzerVerdict`; Ctrl-C is its own).
    func summarize(minimizeCrashes: Bool = false) throws(CLIFailure) -> FuzzTargetSummary {
        let found = FileSystem.list(artifacts).filter { !before.contains($0) && ($0.hasPrefix("crash-") || $0.hasPrefix("timeout-") || $0.hasPrefix("oom-") || $0.hasPrefix("leak-")) }
        var groups: [String: (report: CrashReport, inputs: [String])] = [:]
        var order: [String] = []
        for name in found.prefix(200) {
            let path = artifacts + "/" + name
            let result = try Subprocess(arguments: [binary, "-timeout=\(timeout)", "-rss_limit_mb=2048", path], environment: environment,
                                        timeout: Double(timeout * 3 + 30), keep: 1 << 18).run()
            var report = CrashReport.parse(Self.demangle(result.stderr))
            if name.hasPrefix("timeout-") && report.kind == .crash { report.kind = .timeout }
            if result.status == 0 && result.signal == nil { report.reason = "did not reproduce: " + report.reason }
            if groups[report.signature] == nil { order.append(report.signature); groups[report.signature] = (report, []) }
            groups[report.signature]?.inputs.append(path)
        }
        let regressions = root + "/Tests/NFCFuzzTests/FuzzRegressions/" + target.name
        var crashes: [FuzzTargetSummary.Crash] = []
        for key in order {
            guard let g = groups[key] else { continue }
            let smallest = g.inputs.min { (FileSystem.size($0) ?? 0) < (FileSystem.size($1) ?? 0) } ?? ""
            let minimized = minimizeCrashes ? try minimize(smallest, kind: g.report.kind) : nil
            crashes.append(FuzzTargetSummary.Crash(kind: g.report.kind.rawValue, reason: g.report.reason, frames: g.report.frames, inputs: g.inputs.count,
                                                   smallest: smallest, reproduce: "SWIFT_BACKTRACE=enable=no \(FileSystem.quoted(binary)) \(FileSystem.quoted(smallest))",
                                                   minimized: minimized, regressionFolder: regressions))
        }
        let p = last
        var outcome: FuzzTargetSummary.Outcome
        switch LibFuzzerVerdict.judge(status: ending?.status, signal: ending?.signal, timedOut: ending?.timedOut ?? false, last: p,
                                      sawDone: sawDone, newArtifacts: found.count, forkMode: forkMode) {
        case .finished: outcome = .finished
        case .crashed: outcome = .crashed
        case .failed(let why): outcome = wasInterrupted && p != nil ? .interrupted : .failed(why)
        }
        return FuzzTargetSummary(target: target.name, outcome: outcome, seconds: elapsed, executions: p?.executions ?? 0, coverage: p?.coverage,
                                 features: p?.features, corpusFiles: FileSystem.list(corpus).count, timeline: timeline, crashes: crashes,
                                 log: folder + "/fuzz.log")
    }

    /// libFuzzer's crash minimization of `input` (30 s at most) into `regressions/` of this
    /// target's folder; the input itself when that cannot be done (a timeout, an OOM).
    func minimize(_ input: String, kind: CrashReport.Kind) throws(CLIFailure) -> String {
        let folder = self.folder + "/regressions"
        try FileSystem.makeDirectories(folder)
        let name = FileSystem.baseName(input)
        let out = folder + "/" + name
        guard kind == .crash else {
            try FileSystem.write(FileSystem.read(input), to: out)
            return out
        }
        _ = try Subprocess(arguments: [binary, "-minimize_crash=1", "-max_total_time=30", "-timeout=\(timeout)", "-exact_artifact_path=" + out, input],
                           environment: environment, timeout: 120, keep: 1 << 16).run()
        if !FileSystem.exists(out) { try FileSystem.write(FileSystem.read(input), to: out) }
        return out
    }

    /// Prints the summary of a single run (`nfctrace fuzz TARGET`): the figures, then one line per
    /// crash group with its reproduction command. Returns the number of groups; throws when the
    /// run found nothing because it did not really run.
    func report() throws(CLIFailure) -> Int {
        let s = try summarize()
        var line = "\(target.name): \(last.map { "\($0.executions) executions" } ?? "no progress line")"
        if let cov = s.coverage { line += ", cov \(cov)" }
        if let ft = s.features { line += ", ft \(ft)" }
        line += ", corpus \(s.corpusFiles) files"
        print(PrintableText.forTerminal(line))
        if case .failed(let why) = s.outcome {
            // The log has what libFuzzer printed; its tail says why it stopped.
            throw CLIFailure(message: "\(target.name): \(why) (log: \(folder)/fuzz.log)", code: .findings)
        }
        if s.outcome == .interrupted, s.crashes.isEmpty {
            // Stopped by Ctrl-C: no verdict on a run that did not finish.
            throw CLIFailure(message: "\(target.name): stopped by Ctrl-C after \(s.executions) executions, no crash so far (log: \(folder)/fuzz.log)", code: .findings)
        }
        let inputs = s.crashes.reduce(0) { $0 + $1.inputs }
        print(s.crashes.isEmpty ? "no crashes" : "\(s.crashes.count) distinct crash\(s.crashes.count == 1 ? "" : "es") (\(inputs) input\(inputs == 1 ? "" : "s"))")
        for (i, c) in s.crashes.enumerated() {
            print(PrintableText.forTerminal("\(i + 1). \(c.kind): \(c.reason)"))
            for f in c.frames { print(PrintableText.forTerminal("     at \(f)")) }
            print("   inputs: \(c.inputs), smallest \(c.smallest) (\(FileSystem.size(c.smallest) ?? 0) bytes)")
            print("   reproduce: \(c.reproduce)")
        }
        return s.crashes.count
    }

    /// Swift symbols in a libFuzzer stack, readable (`swift demangle --simplified`).
    static func demangle(_ bytes: [UInt8]) -> String {
        guard let result = try? Subprocess(arguments: ["swift", "demangle", "--simplified"], stdin: bytes, timeout: 60).run(), result.status == 0 else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
