import Benchmark
import NFCCapture
import NFCCore
import NFCDissect

/// ISO-DEP sessions (issue 20): the Type 4 trace recorded from nfcpy and the Proxmark3's VISA
/// phone sniff (PPSE, a chained FCI, GPO, WTX) when ../shared is beside the checkout, repeated
/// until 1 MiB of frame bytes; each iteration dissects them all with field trees, so the
/// throughput column reads as MiB/s of ISO-DEP frames.
func apduWorkload() -> [Frame] {
    var path = #filePath
    for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    var one: [Frame] = []
    for trace in [path + "/Traces/type4-ndef-nfcpy.nfctrace", path + "/../shared/pm3-traces/hf_visa_apple_ecp.trace"] {
        guard let reader = try? Capture.open(trace) else { continue }
        while let f = try? reader.next() { one.append(f) }
    }
    guard !one.isEmpty else { fatalError("no ISO-DEP trace to dissect") }
    var frames: [Frame] = []
    var bytes = 0
    while bytes < mebibyte {
        frames += one
        bytes += one.reduce(0) { $0 + $1.bytes.count }
    }
    return frames
}

func apduBenchmarks() {
    let frames = apduWorkload()
    Benchmark("ISO-DEP + APDU + BER-TLV dissection, full detail (throughput = MiB/s)",
              configuration: .init(metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
                                   maxDuration: .seconds(5), maxIterations: 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Dissector.dissect(frames, detail: .full).count)
        }
    }
    // The codecs alone: the response APDUs and TLV trees of the same frames.
    let answers = frames.filter { !$0.isReaderFrame && $0.bytes.count > 4 }.map { Array($0.payloadDroppingValidCRC().dropFirst()) }
    Benchmark("Response APDU + BER-TLV decode (throughput × \(answers.count) answers/s)") { benchmark in
        for _ in benchmark.scaledIterations {
            for a in answers {
                if let r = try? ResponseAPDU.decode(a) { blackHole(BERTLV.parse(r.data).objects.count) }
            }
        }
    }
}
