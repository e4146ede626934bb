// swift-tools-version:6.1
import PackageDescription

// Benchmarks live in their own package so that `swift test` of nfctrace never builds
// package-benchmark. Run: cd Benchmarks && swift package benchmark
let package = Package(
    name: "NFCTraceBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "nfctrace", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "NFCTraceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NFCCore", package: "nfctrace"),
                .product(name: "NFCCapture", package: "nfctrace"),
                .product(name: "NFCDissect", package: "nfctrace"),
                .product(name: "NFCEmulator", package: "nfctrace"),
                .product(name: "NFCReplay", package: "nfctrace"),
            ],
            path: "Benchmarks/NFCTraceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A fuzz target's body timed natively, without libFuzzer (scripts/bench-fuzz-speed --body).
        .executableTarget(
            name: "FuzzBodyTiming",
            dependencies: [.product(name: "NFCFuzz", package: "nfctrace"), .product(name: "NFCFuzzTargets", package: "nfctrace")],
            path: "Benchmarks/FuzzBodyTiming"
        ),
    ]
)
