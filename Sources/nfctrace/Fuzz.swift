import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
import MachO   // _NSGetExecutablePath (<mach-o/dyld.h>)
#endif
import NFCFuzz

/// `nfctrace fuzz`: runs the libFuzzer targets of FuzzTesting/ (building them first), or fuzzes
/// a user's own program with inputs of one shape.
struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fuzz nfctrace's parsers (libFuzzer, structure-aware) or your own program.",
        discussion: """
            nfctrace fuzz TARGET builds FuzzTesting/ if needed (its own scratch folder), runs the target with \
            Corpus/TARGET as seeds and .fuzz/TARGET/corpus as the working corpus (a later run resumes from it), \
            prints progress on stderr, then minimizes the corpus, groups crashes by their stack and prints one \
            reproduction command per crash. --list shows the targets.

            nfctrace fuzz --all fuzzes every target in turn, --time shared among them (at least 10 s each), \
            --jobs libFuzzer jobs each; at the end, or when Ctrl-C stops it, it writes a summary per target \
            (executions, exec/s, coverage and features over time, corpus size, crashes grouped by stack with a \
            reproduction command and a minimized input for Tests/NFCFuzzTests/FuzzRegressions/) as \
            WORK/summary-TIME.md and .json. For a night: nfctrace fuzz --all --time 8h --jobs 2.

            nfctrace fuzz --exec 'CMD @@' --shape SHAPE runs CMD on mutated inputs of SHAPE (@@ is replaced by a \
            file; without @@ the input goes to stdin), keeps the inputs that crash it or hang it.

            Exit codes: 0 no crash, 1 crashes or hangs found, 2 usage error, 74 build or I/O failure.
            """
    )

    @Argument(help: "The fuzz target (see --list).")
    var target: String?

    @Flag(help: "List the fuzz targets and shapes.")
    var list = false

    @Flag(help: "Fuzz every target in turn and write a summary (Markdown and JSON) in the working folder.")
    var all = false

    @Option(help: "How long to fuzz: 30s, 10m, 8h, or seconds (default 10m).")
    var time: String = "10m"

    @Option(help: "Parallel fuzzing jobs (libFuzzer fork mode; fuzzing then continues after a crash).")
    var jobs: Int = 1

    @Flag(name: .customLong("keep-going"), help: "Continue after a crash with one job too (fork mode with 1 job).")
    var keepGoing = false

    @Option(help: "Seconds one input may run before it counts as a hang.")
    var timeout: Int = 5

    @Option(name: .customLong("max-len"), help: "Largest input in bytes.")
    var maxLength: Int = 4096

    @Option(name: .customLong("len-control"), help: ArgumentHelp("libFuzzer's -len_control: inputs start no longer than the longest seed and grow when coverage stalls, the faster the smaller N; 0 allows --max-len at once.", valueName: "N"))
    var lengthControl: Int = FuzzRun.lengthControl

    @Option(help: ArgumentHelp("Sanitizer besides libFuzzer's instrumentation: none or address (ASan; UBSan for the C parts, Swift has no UBSan on Linux). Slower; its own scratch folder.", valueName: "name"))
    var sanitizer: String = "none"

    @Flag(help: .hidden)
    var asan = false

    @Option(help: ArgumentHelp("The fuzz build's configuration: release (fastest fuzzing) or debug (builds in well under half the time, runs inputs 2-3 times slower; for short checks).", valueName: "name"))
    var configuration: String = "release"

    @Flag(name: .customLong("no-build"), help: "Run the binary already built.")
    var noBuild = false

    @Flag(name: .customLong("no-minimize"), help: "Keep the working corpus as it is at the end.")
    var noMinimize = false

    @Option(name: .customLong("package-path"), help: "The nfctrace checkout (default: found from the current folder).")
    var packagePath: String?

    @Option(help: "Working folder for corpora, crashes and logs (default: CHECKOUT/.fuzz).")
    var work: String?

    @Option(name: .customLong("make-corpus"), help: "Write seeds and dictionaries of every target into this folder (Corpus/) and exit.")
    var makeCorpus: String?

    @Option(help: "Fuzz an external program: CMD with @@ for the input file (else stdin).")
    var exec: String?

    @Option(help: "With --exec: the shape of the inputs (\(FuzzShape.allCases.map(\.rawValue).joined(separator: ", "))).")
    var shape: String?

    @Option(help: "With --exec: runs to make (default: until --time).")
    var runs: Int?

    @Option(help: "With --exec: a folder of inputs to start from (besides the shape's seeds).")
    var seeds: String?

    @Option(help: "With --exec: where to keep inputs that crash or hang the program (default: fuzz-findings).")
    var out: String = "fuzz-findings"

    @Option(name: .customLong("crash-status"), help: "With --exec: exit statuses that count as crashes too (e.g. 1 for a Python traceback).")
    var crashStatus: [Int32] = []

    @Option(help: "Random seed (mutations are deterministic for a seed).")
    var seed: UInt64?

    func run() throws {
        if list { return printList() }
        let seconds = try Self.duration(time)
        if let exec {
            guard let name = shape, let shape = FuzzShape(rawValue: name) else {
                throw CLIFailure.usage("--exec needs --shape, one of \(FuzzShape.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let run = FuzzExec(command: exec, shape: shape, seconds: runs == nil ? seconds : nil, runs: runs, timeout: Double(timeout),
                               seedFolder: seeds, out: out, crashStatuses: Set(crashStatus), seed: seed ?? Self.clockSeed(), maxLength: maxLength)
            return try run.run()
        }
        let root = try Self.checkout(packagePath)
        if let makeCorpus { return try FuzzCorpus.write(into: makeCorpus, traces: root + "/Traces") }
        guard jobs >= 1, timeout >= 1, maxLength >= 16, lengthControl >= 0 else {
            throw CLIFailure.usage("--jobs and --timeout must be at least 1, --max-len at least 16, --len-control at least 0")
        }
        guard let chosen = FuzzSanitizer(rawValue: sanitizer) else {
            throw CLIFailure.usage("unknown sanitizer \"\(sanitizer)\" (\(FuzzSanitizer.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        // --asan: the earlier spelling of --sanitizer address.
        let sanitizer = asan ? .address : chosen
        guard let configuration = FuzzRun.Configuration(rawValue: configuration) else {
            throw CLIFailure.usage("unknown configuration \"\(self.configuration)\" (\(FuzzRun.Configuration.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        if all {
            guard target == nil else { throw CLIFailure.usage("give a target or --all, not both") }
            let (work, jobs, timeout, maxLength, lengthControl, seed) = (work ?? root + "/.fuzz", jobs, timeout, maxLength, lengthControl, seed)
            let campaign = FuzzCampaign(
                targets: FuzzTargetInfo.all, work: work, seconds: seconds, minimizeCorpus: !noMinimize,
                build: noBuild ? nil : { () throws(CLIFailure) in try FuzzRun.buildAll(root: root, sanitizer: sanitizer, configuration: configuration) },
                makeRun: { target, slot in
                    FuzzRun(target: target, root: root, work: work, seconds: slot, jobs: jobs, forkMode: jobs > 1,
                            timeout: timeout, maxLength: maxLength, lengthControl: lengthControl, sanitizer: sanitizer, configuration: configuration, seed: seed)
                })
            return try campaign.run()
        }
        guard let target else { throw CLIFailure.usage("give a target (nfctrace fuzz --list), --all, --exec or --make-corpus") }
        guard let info = FuzzTargetInfo.named(target) else {
            throw CLIFailure.usage("unknown target \"\(target)\" (\(FuzzTargetInfo.all.map(\.name).joined(separator: ", ")))")
        }
        var run = FuzzRun(target: info, root: root, work: work ?? root + "/.fuzz", seconds: seconds, jobs: jobs, forkMode: jobs > 1 || keepGoing,
                          timeout: timeout, maxLength: maxLength, lengthControl: lengthControl, sanitizer: sanitizer, configuration: configuration, seed: seed)
        if !noBuild { try run.build() }
        try run.fuzz()
        if !noMinimize { try run.minimize() }
        let crashes = try run.report()
        if crashes > 0 { throw CLIFailure.findings("\(crashes) crash\(crashes == 1 ? "" : "es") in \(info.name)") }
    }

    func printList() {
        print("targets (FuzzTesting/, nfctrace fuzz TARGET):")
        for t in FuzzTargetInfo.all {
            print("  " + t.name.padding(20) + t.shape.rawValue.padding(16) + t.summary)
        }
        print("\nshapes (nfctrace fuzz --exec CMD --shape SHAPE, emulate --fuzz ndef|type2):")
        for s in FuzzShape.allCases { print("  " + s.rawValue.padding(16) + s.summary) }
    }

    /// `30s`, `10m`, `8h`, `1d` or plain seconds.
    static func duration(_ text: String) throws(CLIFailure) -> Int {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        guard let n = Int(unit == nil ? text : String(text.dropLast())), n > 0 else {
            throw CLIFailure.usage("--time takes a duration like 30s, 10m or 8h, not \"\(text)\"")
        }
        return n * (unit ?? 1)
    }

    static func clockSeed() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return UInt64(t.tv_sec) &* 1_000_000_007 &+ UInt64(t.tv_nsec)
    }

    /// The checkout holding FuzzTesting/: given, or the first folder up from the current one
    /// (then from the nfctrace binary's own location) that has it.
    static func checkout(_ given: String?) throws(CLIFailure) -> String {
        if let given {
            let path = FileSystem.absolute(given)
            guard FileSystem.exists(path + "/FuzzTesting/Package.swift") else { throw CLIFailure.usage("\(given) has no FuzzTesting/Package.swift") }
            return path
        }
        #if canImport(Glibc)
        var binary = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &binary, binary.count - 1)
        let exe = n > 0 ? String(decoding: binary.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        #elseif canImport(Darwin)
        // No /proc on Darwin: dyld has the path the binary was started by; links resolved here.
        var size = UInt32(4096)
        var binary = [CChar](repeating: 0, count: Int(size))
        var exe = ""
        if _NSGetExecutablePath(&binary, &size) == 0, let resolved = realpath(binary, nil) {
            exe = String(cString: resolved)
            free(resolved)
        }
        #endif
        for start in [FileSystem.currentDirectory(), exe] {
            var dir = start
            while !dir.isEmpty && dir != "/" {
                if FileSystem.exists(dir + "/FuzzTesting/Package.swift") { return dir }
                dir = String(dir[..<(dir.lastIndex(of: "/") ?? dir.startIndex)])
            }
        }
        throw CLIFailure.usage("no nfctrace checkout with FuzzTesting/ here or above; give --package-path")
    }
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(1, width - count)) }
}
