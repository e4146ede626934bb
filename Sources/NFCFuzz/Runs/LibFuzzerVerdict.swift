/// What one libFuzzer run amounts to, from how it ended: a run is good only when libFuzzer
/// started (printed a progress line), ran its time and exited 0 (a `DONE` line outside fork
/// mode). Crash inputs it wrote are findings whatever the exit; any other end is a failure with
/// its reason, never "no crashes".
public enum LibFuzzerVerdict: Sendable, Equatable, CustomStringConvertible {
    case finished(executions: Int)
    case crashed(inputs: Int)
    case failed(String)

    /// The verdict on a run from how it ended: its exit status or signal, whether it was killed at
    /// the time limit, the last progress line, whether `DONE` was seen, how many crash inputs it
    /// wrote, and whether it ran in fork mode.
    public static func judge(status: Int32?, signal: Int32?, timedOut: Bool, last: LibFuzzerProgress?, sawDone: Bool,
                             newArtifacts: Int, forkMode: Bool) -> LibFuzzerVerdict {
        if newArtifacts > 0 { return .crashed(inputs: newArtifacts) }
        if timedOut { return .failed("libFuzzer did not stop at its time limit and was killed") }
        if let signal { return .failed("libFuzzer died of signal \(signal) and wrote no crash input") }
        guard let last else { return .failed("libFuzzer printed no progress line: the target did not start") }
        if let status, status != 0 { return .failed("libFuzzer exited with status \(status) and wrote no crash input") }
        if !forkMode && !sawDone { return .failed("libFuzzer stopped after \(last.executions) executions without finishing its run (no DONE line)") }
        if last.executions == 0 { return .failed("libFuzzer ran no input") }
        return .finished(executions: last.executions)
    }

    /// The verdict in words, for the CLI's output.
    public var description: String {
        switch self {
        case .finished(let n): return "finished, \(n) executions"
        case .crashed(let n): return "\(n) crash input\(n == 1 ? "" : "s")"
        case .failed(let why): return "failed: \(why)"
        }
    }
}
