#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore
import NFCFuzz
import NFCFuzzTargets

/// `nfctrace fuzz --exec 'CMD @@' --shape SHAPE`: a user's parser run on mutated inputs.
struct FuzzExec {
    let command: String
    let shape: FuzzShape
    let seconds: Int?
    let runs: Int?
    let timeout: Double
    let seedFolder: String?
    let out: String
    let crashStatuses: Set<Int32>
    let seed: UInt64
    let maxLength: Int

    func run() throws(CLIFailure) {
        var seeds: [[UInt8]] = []
        if let seedFolder {
            guard FileSystem.isDirectory(seedFolder) else { throw CLIFailure.usage("--seeds \(seedFolder) is not a folder") }
            for name in FileSystem.list(seedFolder) where !FileSystem.isDirectory(seedFolder + "/" + name) {
                seeds.append(try FileSystem.read(seedFolder + "/" + name))
            }
        }
        try FileSystem.makeDirectories(out)
        let usesFile = command.contains("@@")
        let inputPath = FileSystem.absolute(out) + "/.current-input"
        var fuzzer = ExternalFuzzer(shape: shape, seeds: seeds, seed: seed)
        CLI.warn("fuzz: running \(FileSystem.quoted(command)) on \(shape.rawValue) inputs (\(usesFile ? "file @@" : "stdin")), seed \(seed), findings in \(out)")
        let start = MonotonicClock.seconds()
        var lastPrint = start
        var executions = 0
        var findings: [String: (outcome: ExternalFuzzer.Outcome, inputs: [String])] = [:]
        var order: [String] = []
        while runs.map({ executions < $0 }) ?? (MonotonicClock.seconds() - start < Double(seconds ?? 600)) {
            let input = fuzzer.next(maxSize: maxLength)
            executions += 1
            var shell = command
            if usesFile {
                try FileSystem.write(input, to: inputPath)
                shell = command.split(separator: "@@", omittingEmptySubsequences: false).joined(separator: FileSystem.quoted(inputPath))
            }
            let result = try Subprocess(arguments: ["/bin/sh", "-c", shell], environment: FuzzRun.environment, stdin: usesFile ? nil : input,
                                        timeout: timeout, keep: 1 << 16).run()
            let outcome = ExternalFuzzer.classify(status: result.status, signal: result.signal, timedOut: result.timedOut, crashStatuses: crashStatuses)
            fuzzer.record(input, outcome)
            if outcome != .ok {
                let stderr = String(decoding: result.stderr, as: UTF8.self)
                let key = ExternalFuzzer.signature(outcome, stderr: stderr)
                let kind = outcome == .hang ? "hang" : "crash"
                let file = out + "/\(kind)-" + CorpusBuilder.name(for: input).dropFirst(5)
                try FileSystem.write(input, to: file)
                try FileSystem.write(result.stderr, to: file + ".stderr")
                if findings[key] == nil {
                    order.append(key)
                    findings[key] = (outcome, [])
                    CLI.warn("fuzz: new \(kind) after \(executions) runs: \(key) (\(file))")
                }
                findings[key]?.inputs.append(file)
            }
            let now = MonotonicClock.seconds()
            if now - lastPrint >= 10 {
                lastPrint = now
                let rate = Double(executions) / max(0.001, now - start)
                CLI.warn("fuzz: \(executions) runs (\(Int(rate))/s), \(findings.count) distinct findings, pool \(fuzzer.pool.count)")
            }
        }
        FileSystem.remove(inputPath)
        print("\(executions) runs of \(command) on \(shape.rawValue) inputs in \(Int(MonotonicClock.seconds() - start)) s")
        print(findings.isEmpty ? "no crashes or hangs" : "\(findings.count) distinct finding\(findings.count == 1 ? "" : "s")")
        for (i, key) in order.enumerated() {
            guard let f = findings[key], let first = f.inputs.min(by: { (FileSystem.size($0) ?? 0) < (FileSystem.size($1) ?? 0) }) else { continue }
            print(PrintableText.forTerminal("\(i + 1). \(key)"))
            print("   inputs: \(f.inputs.count), smallest \(first)")
            let reproduce = usesFile ? command.split(separator: "@@", omittingEmptySubsequences: false).joined(separator: FileSystem.quoted(first))
                : "\(command) < \(FileSystem.quoted(first))"
            print("   reproduce: \(reproduce)")
        }
        if !findings.isEmpty { throw CLIFailure.findings("\(findings.count) crash\(findings.count == 1 ? "" : "es") or hang\(findings.count == 1 ? "" : "s") of \(command)") }
    }
}
