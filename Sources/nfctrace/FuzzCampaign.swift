#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCFuzz

/// `nfctrace fuzz --all`: every target in turn, the time shared among them, each run kept in its
/// own folder under the working folder (its corpus resumed next time); at the end, or when Ctrl-C
/// stops it, a summary per target in Markdown and JSON beside them.
struct FuzzCampaign {
    let targets: [FuzzTargetInfo]
    let work: String
    /// The whole campaign's time, shared among the targets.
    let seconds: Int
    let minimizeCorpus: Bool
    /// Builds every target (nil with --no-build).
    let build: (() throws(CLIFailure) -> Void)?
    /// One target's run for so many seconds, with the command's other settings.
    let makeRun: (FuzzTargetInfo, Int) -> FuzzRun

    /// Each target fuzzes at least this long, whatever the total.
    static let shortestSlot = 10

    func run() throws {
        let started = Self.timestamp()
        let slot = max(Self.shortestSlot, seconds / max(1, targets.count))
        // A signal outside libFuzzer's runs (building, minimizing) ends the campaign after the
        // current step instead of the process: the summary is still written.
        nonisolated(unsafe) var stopRequested = false
        SignalPath.onStop = { _ in stopRequested = true }
        defer { SignalPath.onStop = nil }
        try build?()
        CLI.warn("fuzz: \(targets.count) targets, \(slot) s each")
        var summaries: [FuzzTargetSummary] = []
        var interrupted = false
        for target in targets {
            if interrupted || stopRequested {
                interrupted = true
                summaries.append(FuzzTargetSummary(target: target.name, outcome: .notRun))
                continue
            }
            var run = makeRun(target, slot)
            do {
                try run.fuzz()
                interrupted = run.wasInterrupted || stopRequested
                if minimizeCorpus && !interrupted { try run.minimize() }
                let summary = try run.summarize(minimizeCrashes: true)
                CLI.warn("fuzz: \(target.name): \(summary.outcome.text), \(summary.executions) executions, \(summary.crashes.count) crash\(summary.crashes.count == 1 ? "" : "es")")
                summaries.append(summary)
            } catch {
                summaries.append(FuzzTargetSummary(target: target.name, outcome: .failed(error.message)))
            }
        }
        let name = work + "/summary-" + started.filter { $0.isNumber || $0 == "T" }
        try FileSystem.makeDirectories(work)
        let markdown = FuzzCampaignSummary.markdown(summaries, started: started, plannedSeconds: slot * targets.count, interrupted: interrupted)
        try FileSystem.write(Array(markdown.utf8), to: name + ".md")
        try FileSystem.write(Array(FuzzCampaignSummary.json(summaries, started: started, plannedSeconds: slot * targets.count, interrupted: interrupted).utf8), to: name + ".json")
        for s in summaries {
            print(s.target.padding(24) + s.outcome.text.padding(12) + "\(s.executions) executions, \(s.crashes.count) crash\(s.crashes.count == 1 ? "" : "es")")
        }
        print("summary: \(name).md, \(name).json")
        let crashes = summaries.reduce(0) { $0 + $1.crashes.count }
        let failed = summaries.filter { if case .failed = $0.outcome { return true } else { return false } }.count
        if crashes > 0 || failed > 0 {
            throw CLIFailure.findings("\(crashes) crash\(crashes == 1 ? "" : "es"), \(failed) target\(failed == 1 ? "" : "s") that did not run as they should; see \(name).md")
        }
        if interrupted {
            let ran = summaries.filter { $0.outcome != .notRun }.count
            throw CLIFailure.findings("stopped by Ctrl-C: \(ran) of \(targets.count) targets ran, no crash so far; see \(name).md")
        }
    }

    /// UTC, ISO 8601 (`2026-11-27T16:40:00Z`).
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
