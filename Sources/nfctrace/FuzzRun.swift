#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    let asan: Bool
    let seed: UInt64?

    /// The Swift runtime's backtracer must not catch the trap before libFuzzer does
    /// (notes/fuzzing-swift.md: no crash file, exit 132 otherwise).
    static let environment = ["SWIFT_BACKTRACE": "enable=no"]

    var scratch: String { root + "/FuzzTesting/.build-fuzz" + (asan ? "-asan" : "") }
    var binary: String { scratch + "/release/" + target.name }
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

    init(target: FuzzTargetInfo, root: String, work: String, seconds: Int, jobs: Int, forkMode: Bool, timeout: Int, maxLength: Int,
         asan: Bool, seed: UInt64?) {
        self.target = target
        self.root = root
        self.work = work
        self.seconds = seconds
        self.jobs = jobs
        self.forkMode = forkMode
        self.timeout = timeout
        self.maxLength = maxLength
        self.asan = asan
        self.seed = seed
    }

    /// `swift build` of this target only, fuzzer-instrumented (ASan with the one combined flag).
    func build() throws(CLIFailure) {
        CLI.warn("fuzz: building \(target.name) (release, \(asan ? "fuzzer+address" : "fuzzer")) in \(scratch)")
        let arguments = ["swift", "build", "--package-path", root + "/FuzzTesting", "-c", "release", "--sanitize=fuzzer"]
            + (asan ? ["-Xswiftc", "-sanitize=fuzzer,address"] : []) + ["--scratch-path", scratch, "--product", target.name]
        var result = try Subprocess(arguments: arguments, ownProcessGroup: false).run()
        if result.status != 0, removeBuildPlan() {
            // SwiftPM keeps a build plan in the scratch folder; when the root package's targets
            // gain files or dependencies, an old plan fails the build ("missing required modules",
            // "cannot find … in scope"). Once without it, as scripts/fuzz-smoke does before building.
            CLI.warn("fuzz: the build failed with the build plan in \(scratch); building again without it")
            result = try Subprocess(arguments: arguments, ownProcessGroup: false).run()
        }
        guard result.status == 0 else {
            let text = String(decoding: result.stdout + result.stderr, as: UTF8.self)
            FileHandleOutput.standardError(String(text.suffix(4000)))
            throw CLIFailure(message: "building \(target.name) failed: \(arguments.joined(separator: " "))", code: .ioError)
        }
    }

    /// Removes SwiftPM's build plan of the scratch folder; whether there was one.
    func removeBuildPlan() -> Bool {
        var removed = false
        let yaml = scratch + "/release.yaml"
        if FileSystem.exists(yaml) {
            FileSystem.remove(yaml)
            removed = true
        }
        for entry in FileSystem.list(scratch) {
            let plan = scratch + "/" + entry + "/release/description.json"
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
              "-artifact_prefix=" + artifacts + "/", "-print_final_stats=1"]
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
        let start = Subprocess.now()
        var lastPrint = 0.0
        var latest: LibFuzzerProgress?
        var done = false
        let name = target.name
        let log = fopen(folder + "/fuzz.log", "a")
        defer { if let log { fclose(log) } }
        // Ctrl-C reaches libFuzzer (same process group), which stops cleanly; we go on to the report.
        signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, SIG_DFL) }
        var process = Subprocess(arguments: fuzzArguments, environment: Self.environment, timeout: Double(seconds) + Double(timeout) * 4 + 120,
                                 ownProcessGroup: false, keep: 1 << 16)
        process.onStderrLine = { line in
            if let log { fputs(String(line) + "\n", log) }
            guard let p = LibFuzzerProgress.parse(line) else { return }
            latest = p
            if p.event == "DONE" { done = true }
            let now = Subprocess.now()
            if now - lastPrint >= 10 || p.event == "INITED" || p.event == "DONE" {
                lastPrint = now
                CLI.warn("fuzz: " + p.line(target: name, seconds: Int(now - start)))
            }
        }
        let result = try process.run()
        last = latest
        sawDone = done
        ending = (result.status, result.signal, result.timedOut)
    }

    /// `-merge=1` into a fresh folder, which then replaces the working corpus.
    func minimize() throws(CLIFailure) {
        let fresh = folder + "/corpus.min", old = folder + "/corpus.old"
        FileSystem.removeTree(fresh)
        FileSystem.removeTree(old)
        try FileSystem.makeDirectories(fresh)
        let count = FileSystem.list(corpus).count
        guard count > 0 else { return }
        let result = try Subprocess(arguments: [binary, "-merge=1", "-timeout=\(timeout)", "-rss_limit_mb=2048", "-max_len=\(maxLength)", fresh, corpus],
                                    environment: Self.environment, timeout: Double(max(600, count / 10)), ownProcessGroup: true, keep: 1 << 16).run()
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

    /// Groups this run's crash, timeout and OOM inputs by their stack and prints one line per
    /// group with a reproduction command. Returns the number of groups; throws when the run
    /// found nothing because it did not really run (`LibFuzzerVerdict`).
    func report() throws(CLIFailure) -> Int {
        let found = FileSystem.list(artifacts).filter { !before.contains($0) && ($0.hasPrefix("crash-") || $0.hasPrefix("timeout-") || $0.hasPrefix("oom-") || $0.hasPrefix("leak-")) }
        var groups: [String: (report: CrashReport, inputs: [String])] = [:]
        var order: [String] = []
        for name in found.prefix(200) {
            let path = artifacts + "/" + name
            let result = try Subprocess(arguments: [binary, "-timeout=\(timeout)", "-rss_limit_mb=2048", path], environment: Self.environment,
                                        timeout: Double(timeout * 3 + 30), keep: 1 << 18).run()
            var report = CrashReport.parse(Self.demangle(result.stderr))
            if name.hasPrefix("timeout-") && report.kind == .crash { report.kind = .timeout }
            if result.status == 0 && result.signal == nil { report.reason = "did not reproduce: " + report.reason }
            if groups[report.signature] == nil { order.append(report.signature); groups[report.signature] = (report, []) }
            groups[report.signature]?.inputs.append(path)
        }
        let p = last
        var summary = "\(target.name): \(p.map { "\($0.executions) executions" } ?? "no progress line")"
        if let cov = p?.coverage { summary += ", cov \(cov)" }
        if let ft = p?.features { summary += ", ft \(ft)" }
        summary += ", corpus \(FileSystem.list(corpus).count) files"
        print(summary)
        let verdict = LibFuzzerVerdict.judge(status: ending?.status, signal: ending?.signal, timedOut: ending?.timedOut ?? false, last: p,
                                             sawDone: sawDone, newArtifacts: found.count, forkMode: forkMode)
        if case .failed(let why) = verdict {
            // The log has what libFuzzer printed; its tail says why it stopped.
            throw CLIFailure(message: "\(target.name): \(why) (log: \(folder)/fuzz.log)", code: .findings)
        }
        print(groups.isEmpty ? "no crashes" : "\(groups.count) distinct crash\(groups.count == 1 ? "" : "es") (\(found.count) input\(found.count == 1 ? "" : "s"))")
        for (i, key) in order.enumerated() {
            guard let g = groups[key] else { continue }
            let smallest = g.inputs.min { (FileSystem.size($0) ?? 0) < (FileSystem.size($1) ?? 0) } ?? ""
            print("\(i + 1). \(g.report.kind.rawValue): \(g.report.reason)")
            for f in g.report.frames { print("     at \(f)") }
            print("   inputs: \(g.inputs.count), smallest \(smallest) (\(FileSystem.size(smallest) ?? 0) bytes)")
            print("   reproduce: SWIFT_BACKTRACE=enable=no \(FileSystem.quoted(binary)) \(FileSystem.quoted(smallest))")
        }
        return groups.count
    }

    /// Swift symbols in a libFuzzer stack, readable (`swift demangle --simplified`).
    static func demangle(_ bytes: [UInt8]) -> String {
        guard let result = try? Subprocess(arguments: ["swift", "demangle", "--simplified"], stdin: bytes, timeout: 60).run(), result.status == 0 else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: result.stdout, as: UTF8.self)
    }
}
