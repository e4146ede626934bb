// Times a fuzz target's body and its structure-aware mutator on a folder of inputs, natively:
// no libFuzzer and no coverage instrumentation. What the code under test costs by itself per
// input bounds the executions per second any fuzzing of those inputs can reach
// (scripts/bench-fuzz-speed --body; docs/fuzzing.md, "Speed from Corpus/").
//
// usage: FuzzBodyTiming TARGET FOLDER [ROUNDS]
// prints: inputs=N mean_bytes=B body_us=T mutate_us=M (microseconds per input, mean over ROUNDS passes)
import Foundation
import NFCFuzz
import NFCFuzzTargets

let arguments = CommandLine.arguments
guard arguments.count >= 3, let body = FuzzTargets.body(arguments[1]), let info = FuzzTargetInfo.named(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FuzzBodyTiming TARGET FOLDER [ROUNDS] (TARGET as `nfctrace fuzz --list` names it)\n".utf8))
    exit(2)
}
let folder = arguments[2]
let rounds = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 5) : 5
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
let inputs = names.compactMap { FileManager.default.contents(atPath: folder + "/" + $0).map { [UInt8]($0) } }
guard !inputs.isEmpty else {
    FileHandle.standardError.write(Data("FuzzBodyTiming: no inputs in \(folder)\n".utf8))
    exit(1)
}

/// Mean microseconds per call of `work` over every input, `rounds` times.
func microseconds(_ work: (Int, [UInt8]) -> Void) -> Double {
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for round in 0..<rounds { for input in inputs { work(round, input) } }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return seconds * 1e6 / Double(rounds * inputs.count)
}

var failed = 0
let bodyTime = microseconds { _, input in if body(input) != .ok { failed += 1 } }
let mutator = StructuredMutator(shape: info.shape)
var sink = 0
let mutateTime = microseconds { round, input in sink &+= mutator.mutate(input, seed: UInt64(round) &* 0x9E37_79B9 &+ UInt64(input.count), maxSize: 4096).count }
let meanBytes = inputs.reduce(0) { $0 + $1.count } / inputs.count
print(String(format: "inputs=%d mean_bytes=%d body_us=%.1f mutate_us=%.1f", inputs.count, meanBytes, bodyTime, mutateTime) + (failed > 0 ? " failed=\(failed / rounds)" : ""))
