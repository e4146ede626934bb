import Benchmark
import NFCCore

// Throughput benchmarks: every iteration decodes exactly 1 MiB of input, so the throughput
// column (iterations per second) reads directly as MiB/s.

let mebibyte = 1 << 20

/// NDEF messages of the kinds tags carry: URI, Text, Smart Poster, vCard, an AAR pair, a chunked record.
func sampleMessages() -> [[UInt8]] {
    var out: [[UInt8]] = []
    func add(_ records: [NDEFRecord], chunk: Int? = nil) {
        if let m = try? NDEFMessage(records).encode(chunkSize: chunk) { out.append(m) }
    }
    add([.uri("https://example.com/products/nfctrace?id=4242")])
    if let t = try? NDEFRecord.text("Hello from an NTAG215, a little longer than one page", language: "en") { add([t]) }
    if let sp = try? NDEFRecord.smartPoster(uri: "https://example.com/poster", titles: [NDEFText("A poster", language: "en")]) { add([sp]) }
    add([.vCard("BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane\r\nFN:Jane Doe\r\nTEL:+123456789\r\nEMAIL:jane@example.com\r\nEND:VCARD\r\n")])
    add([.uri("https://example.com/app"), .androidApplication("com.example.app")])
    add([.mime("application/octet-stream", payload: [UInt8](repeating: 0xA5, count: 600))], chunk: 128)
    return out
}

/// Concatenates `unit` until exactly 1 MiB of inputs: returns the list of inputs.
func corpus(_ units: [[UInt8]]) -> [[UInt8]] {
    guard !units.isEmpty else { fatalError("benchmark corpus has no inputs: an encoder failed") }
    var inputs: [[UInt8]] = []
    var total = 0
    var i = 0
    while total < mebibyte {
        var u = units[i % units.count]
        if total + u.count > mebibyte { u = Array(u.prefix(mebibyte - total)) }
        inputs.append(u)
        total += u.count
        i += 1
    }
    return inputs
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 1_000)

    let messages = corpus(sampleMessages())
    Benchmark("NDEF decode, lenient (throughput = MiB/s)") { benchmark in
        for m in messages { blackHole(NDEFMessage.decode(m, mode: .lenient)) }
    }
    Benchmark("NDEF decode, strict (throughput = MiB/s)") { benchmark in
        for m in messages { blackHole(NDEFMessage.decode(m, mode: .strict)) }
    }

    // NTAG216 images (924 bytes): header, CC, the NDEF TLV, a terminator, configuration pages.
    let type2Images = corpus(sampleMessages().compactMap { try? Type2Memory.image(model: .ntag216, message: $0) })
        .map { TagMemoryImage(bytes: $0) }
    Benchmark("Type 2 TLV + NDEF decode (throughput = MiB/s)") { benchmark in
        for image in type2Images { blackHole(Type2Memory.decode(image)) }
    }

    let type5Images = corpus(sampleMessages().compactMap { try? Type5Memory.image(message: $0, memorySize: 2048) })
        .map { TagMemoryImage(bytes: $0) }
    Benchmark("Type 5 CC + TLV + NDEF decode (throughput = MiB/s)") { benchmark in
        for image in type5Images { blackHole(Type5Memory.decode(image)) }
    }

    replayBenchmarks()
    apduBenchmarks()
    mifareBenchmarks()
}
