import Benchmark
import NFCCapture
import NFCCore
import NFCEmulator
import NFCReplay

/// The sessions of Traces/ntag215-password-read.nfctrace repeated until 100,000 reader frames:
/// each benchmark iteration replays them all, so exchanges/s = throughput × 100,000.
func replayWorkload() -> (frames: [Frame], exchanges: Int) {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    guard let reader = try? Capture.open(path + "/Traces/ntag215-password-read.nfctrace") else { fatalError("cannot open the NTAG215 trace") }
    var one: [Frame] = []
    while let f = try? reader.next() { one.append(f) }
    let perCopy = one.filter(\.isReaderFrame).count
    var frames: [Frame] = []
    var exchanges = 0
    while exchanges < 100_000 {
        frames += one
        exchanges += perCopy
    }
    return (frames, exchanges)
}

func replayBenchmarks() {
    let (frames, exchanges) = replayWorkload()
    var k = 0
    guard let rebuilt = try? TraceTag.rebuild(next: { defer { k += 1 }; return k < frames.count ? frames[k] : nil }) else {
        fatalError("the NTAG215 trace rebuilds no tag")
    }
    let dump = rebuilt.dump
    Benchmark("Replay against the emulator (throughput × \(exchanges) = exchanges/s)",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
                                   maxDuration: .seconds(5), maxIterations: 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            guard let tag = dump.makeTag() else { fatalError("no tag") }
            var i = 0
            let result = Replayer(target: EmulatorTarget(tag: tag)).replay(trace: "benchmark") {
                defer { i += 1 }
                return i < frames.count ? frames[i] : nil
            }
            guard result.passed, result.exchanges == exchanges else { fatalError("replay diverged: \(ReplayReport.text(result))") }
            blackHole(result)
        }
    }
}
