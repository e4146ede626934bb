// swift-tools-version:6.1
import PackageDescription

// The fuzz build (FuzzTesting/, docs/fuzzing.md) sets NFCTRACE_FUZZ_SANITIZE to the `-sanitize=`
// value of the code under test: "fuzzer", or "fuzzer,address" for ASan. Only these modules get
// libFuzzer's coverage, so that its counters and comparison table describe the code under test;
// `--sanitize=fuzzer` on the command line would instrument swift-crypto, BoringSSL and the
// mutator too (docs/fuzzing.md, "Speed from Corpus/"). Plain builds do not set it and get no
// flags: unsafe flags, even behind a trait condition, stop other packages depending on this one.
let fuzzSanitize = Context.environment["NFCTRACE_FUZZ_SANITIZE"]
/// The coverage those modules get: Swift's default for `-sanitize=fuzzer` (edges as 8-bit counters,
/// their PCs, indirect calls) without `trace-cmp`, whose callbacks run on every integer comparison,
/// bounds checks included, and cost more in executions than CMP-guided mutation gained in
/// coverage: the structure-aware mutators and the dictionaries supply the values it would find
/// (docs/fuzzing.md, "Comparison tracing"). NFCTRACE_FUZZ_COVERAGE replaces the list; with
/// `,trace-cmp` added it builds the old way, in a scratch folder of its own (SwiftPM does not
/// recompile when only this flag changes).
let fuzzCoverage = Context.environment["NFCTRACE_FUZZ_COVERAGE"] ?? "edge,inline-8bit-counters,pc-table,indirect-calls"
/// The code under test, in a fuzz build: coverage (and ASan) instrumented.
let underTest: [SwiftSetting] = fuzzSanitize.map { [.unsafeFlags(["-sanitize=" + $0, "-sanitize-coverage=" + fuzzCoverage])] } ?? []
/// C code under test: clang's spelling of the same instrumentation without libFuzzer's `main`.
/// clang adds an explicit `-fsanitize-coverage` list to its fuzzer default instead of replacing
/// it, so of NFCTRACE_FUZZ_COVERAGE the C parts follow only whether `trace-cmp` is in it.
let underTestC: [CSetting] = fuzzSanitize.map {
    [.unsafeFlags(["-fsanitize=" + $0.split(separator: ",").map { $0 == "fuzzer" ? "fuzzer-no-link" : String($0) }.joined(separator: ",")]
        + (fuzzCoverage.contains("trace-cmp") ? [] : ["-fno-sanitize-coverage=trace-cmp"]))]
} ?? []
/// The fuzz harness (mutator, target bodies): no coverage, but ASan when the code under test has it.
let harness: [SwiftSetting] = fuzzSanitize.map { $0.contains("address") ? [.unsafeFlags(["-sanitize=address"])] : [] } ?? []

/// The command-line tool and its tests, which a fuzz build leaves out: FuzzTesting builds all its
/// targets in one `swift build` (FuzzRun.buildAll), which would also link this executable, and
/// with the code under test instrumented and no libFuzzer that link fails.
let cli: [Target] = [
    .executableTarget(
        name: "nfctrace",
        dependencies: [
            "NFCCore", "NFCCapture", "NFCDissect", "NFCConvert", "NFCEmulator", "NFCReplay", "NFCReaders", "NFCReport", "NFCFuzz", "NFCFuzzTargets", "CStream",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        // mimalloc (Debian libmimalloc-dev, installed by scripts/setup) replaces malloc in the
        // CLI: dissection allocates small objects on one thread and frees them on the other,
        // which glibc's allocator serialises (docs/performance.md). Linux only: macOS keeps
        // its system allocator.
        linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]
    ),
    // Runs the built `nfctrace` binary: exit codes, stdin/stdout, messages.
    .testTarget(name: "NFCTraceCLITests", dependencies: ["nfctrace", "NFCTestInputs"], exclude: ["Python"]),
]

let package = Package(
    name: "nfctrace",
    products: [
        .library(name: "NFCCore", targets: ["NFCCore"]),
        .library(name: "NFCCapture", targets: ["NFCCapture"]),
        .library(name: "NFCCrypto", targets: ["NFCCrypto"]),
        .library(name: "NFCDissect", targets: ["NFCDissect"]),
        .library(name: "NFCConvert", targets: ["NFCConvert"]),
        .library(name: "NFCEmulator", targets: ["NFCEmulator"]),
        .library(name: "NFCReplay", targets: ["NFCReplay"]),
        // Core NFC's tag and session APIs over simulated tags, for an iOS app's tests (issue 25).
        .library(name: "NFCTestKit", targets: ["NFCTestKit"]),
        // The fuzz package (FuzzTesting/) links these.
        .library(name: "NFCFuzz", targets: ["NFCFuzz"]),
        .library(name: "NFCFuzzCodecTargets", targets: ["NFCFuzzCodecTargets"]),
        .library(name: "NFCFuzzTargets", targets: ["NFCFuzzTargets"]),
    ] + (fuzzSanitize == nil ? [.executable(name: "nfctrace", targets: ["nfctrace"])] : []),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // AES-128 for the Ultralight AES authentication (issue 19): `AES.permute`, one block.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // Byte layouts of every protocol. No dependencies, so the fuzz build stays lean.
        .target(name: "NFCCore", swiftSettings: underTest),
        // libpcap: Debian's libpcap-dev (found through pkg-config) on Linux; on macOS the SDK has
        // the headers and libpcap itself, so a missing libpcap.pc is only a warning there (a
        // Homebrew libpcap, if installed, is found through its keg's pkg-config file instead).
        .systemLibrary(
            name: "CPcap",
            pkgConfig: "libpcap",
            providers: [.apt(["libpcap-dev"]), .brew(["libpcap"])]
        ),
        // libnfc, for replaying through the readers it drives (the nfctrace executable only: the
        // libraries an app's tests link do not need it).
        .systemLibrary(
            name: "CLibNFC",
            pkgConfig: "libnfc",
            providers: [.apt(["libnfc-dev"]), .brew(["libnfc"])]
        ),
        // pcsc-lite, for replaying through PC/SC readers (Debian's libpcsclite-dev; macOS: the
        // system's PCSC framework, linked below).
        .systemLibrary(
            name: "CPCSCLite",
            pkgConfig: "libpcsclite",
            providers: [.apt(["libpcsclite-dev"])]
        ),
        .target(
            name: "NFCReaders",
            dependencies: ["NFCCore", "NFCReplay", "CLibNFC", "CPCSCLite"],
            linkerSettings: [.linkedFramework("PCSC", .when(platforms: [.macOS]))]
        ),
        // glibc fopencookie (Darwin funopen), so libpcap can read an input nfctrace has already
        // peeked at.
        .target(name: "CStream", cSettings: underTestC),
        .target(name: "NFCCapture", dependencies: ["NFCCore", "CPcap", "CStream"], swiftSettings: underTest),
        // The ciphers NFCCore cannot hold without a dependency: AES-128 through swift-crypto, and
        // the Ultralight authentication built with it or with NFCCore's 2K3DES.
        .target(name: "NFCCrypto", dependencies: ["NFCCore", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")],
                swiftSettings: underTest),
        .target(name: "NFCDissect", dependencies: ["NFCCore", "NFCCrypto"], swiftSettings: underTest),
        // `nfctrace convert` as one call: read, choose the link type and origin from the first
        // frames, mask card data, write, and say what the output could not carry.
        .target(name: "NFCConvert", dependencies: ["NFCCore", "NFCCapture", "NFCDissect"]),
        .target(name: "NFCEmulator", dependencies: ["NFCCore", "NFCCrypto", "CStream"], swiftSettings: underTest),
        .target(name: "NFCReplay", dependencies: ["NFCCore", "NFCEmulator", "NFCDissect"]),
        // `nfctrace report`: one self-contained HTML file; its page script and style sheet are
        // real files here, compiled into the library.
        .target(name: "NFCReport", dependencies: ["NFCCore", "NFCDissect"],
                resources: [.embedInCode("Resources/report.css"), .embedInCode("Resources/report.js")]),
        // Core NFC's API shapes over the emulators, cassettes and recorded traces. Swift 5 mode:
        // Core NFC itself is a pre-concurrency callback API, and the kit mirrors it.
        .target(
            name: "NFCTestKit",
            dependencies: ["NFCCore", "NFCCapture", "NFCEmulator", "NFCReplay"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Structure-aware mutation engine, shapes and the fuzz-target registry: codecs only.
        // NFCCapture: shapes of capture formats nfctrace writes are rendered by its writers.
        .target(name: "NFCFuzz", dependencies: ["NFCCore", "NFCCapture"], swiftSettings: harness),
        // The bodies whose code under test is NFCCore alone, apart so that their fuzz executables
        // link no dissector or emulator (libFuzzer scans every linked counter after each run).
        .target(name: "NFCFuzzCodecTargets", dependencies: ["NFCCore", "NFCFuzz"], swiftSettings: harness),
        // What each fuzz target does with an input (shared by FuzzTesting/, the CLI and the
        // regression tests that replay saved crash inputs).
        .target(name: "NFCFuzzTargets", dependencies: ["NFCCore", "NFCCapture", "NFCDissect", "NFCEmulator", "NFCFuzz", "NFCFuzzCodecTargets"],
                swiftSettings: harness),
        // What the tests start from, shared by the test targets only: the fixed, overridable seed
        // of every randomised test (NFCTRACE_TEST_SEED) and the check of the Traces/ files tests
        // generate (NFCTRACE_MAKE_TRACES).
        .target(name: "NFCTestInputs", dependencies: ["NFCCore", "NFCCapture"], path: "Tests/NFCTestInputs"),
        .testTarget(
            name: "NFCCoreTests",
            dependencies: ["NFCCore", "NFCTestInputs", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "NFCCaptureTests", dependencies: ["NFCCore", "NFCCapture"]),
        .testTarget(
            name: "NFCDissectTests",
            dependencies: ["NFCCore", "NFCCrypto", "NFCCapture", "NFCDissect", "NFCTestInputs"],
            exclude: ["Golden"]
        ),
        // Conformance across modules: every input trace converted to every output format, read
        // back and dissected (issue 44).
        .testTarget(name: "NFCConformanceTests", dependencies: ["NFCCore", "NFCCapture", "NFCDissect", "NFCConvert", "NFCReport"]),
        .testTarget(name: "NFCEmulatorTests", dependencies: ["NFCCore", "NFCCrypto", "NFCEmulator", "NFCDissect", "NFCCapture", "NFCTestInputs"]),
        .testTarget(name: "NFCReplayTests", dependencies: ["NFCCore", "NFCCrypto", "NFCCapture", "NFCDissect", "NFCEmulator", "NFCReplay"], exclude: ["Golden"]),
        .testTarget(
            name: "NFCFuzzTests",
            dependencies: ["NFCCore", "NFCCapture", "NFCDissect", "NFCEmulator", "NFCFuzz", "NFCFuzzTargets"],
            exclude: ["FuzzRegressions"]
        ),
        .testTarget(name: "NFCTestKitTests", dependencies: ["NFCCore", "NFCCrypto", "NFCCapture", "NFCDissect", "NFCEmulator", "NFCTestKit"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
    ] + (fuzzSanitize == nil ? cli : [])
)
