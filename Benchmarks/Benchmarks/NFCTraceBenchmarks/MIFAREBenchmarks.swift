import Benchmark
import NFCCore

/// MIFARE Classic key recovery (issue 19), one search per iteration: the sample trace's whole
/// authentication (mfkey64, goal under 10 ms) and the mfkey32v2 example's two reader answers
/// (goal under 1 s). The warm-up iteration makes the search tables, which a process pays once
/// (`nfctrace mfkey` too; docs/performance.md gives both figures).
func mifareBenchmarks() {
    func word(_ hex: String) -> UInt32 { MIFARENonce.value(Hex.parse(hex)!) }
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1,
                                                maxDuration: .seconds(5), maxIterations: 200)
    Benchmark("mfkey64: key from one whole authentication", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Crypto1Recovery.key(uid: word("56DD8978"), nt: word("1ED24A6A"), encryptedNR: word("440D5913"),
                                          encryptedAR: word("C2611A1B"), encryptedAT: word("58B8142C")))
        }
    }
    Benchmark("mfkey32: key from two reader answers", configuration: .init(metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Crypto1Recovery.key(uid: word("52B0F519"),
                                          .init(nt: word("5417D1F8"), encryptedNR: word("4D545EA7"), encryptedAR: word("E15AC8C2")),
                                          .init(nt: word("A1BA88C6"), encryptedNR: word("DAC1A7F4"), encryptedAR: word("5AE5C37F"))))
        }
    }
}
