// swift-tools-version:6.0
// libFuzzer targets for nfctrace (docs/fuzzing.md). A separate package so that the root
// package's `swift build`/`swift test` never see libFuzzer symbols. Build with
//   NFCTRACE_FUZZ_SANITIZE=fuzzer swift build --package-path FuzzTesting -c release --scratch-path FuzzTesting/.build-fuzz --product TARGET
// ("fuzzer,address" for ASan, plus -Xcc -fsanitize=address,undefined for the C parts). No
// `--sanitize=fuzzer`: the variable instruments the code under test only (the root package's
// manifest reads it too), not swift-crypto or the mutator; each executable enters libFuzzer
// through FuzzMain.runLibFuzzer.
import PackageDescription

guard let sanitize = Context.environment["NFCTRACE_FUZZ_SANITIZE"], sanitize.hasPrefix("fuzzer") else {
    fatalError("FuzzTesting: set NFCTRACE_FUZZ_SANITIZE to fuzzer (or fuzzer,address) for its builds, see docs/fuzzing.md")
}
/// Code under test here (the planted bugs) and the link of each executable: libFuzzer's coverage.
/// The planted bugs keep Swift's full default, `trace-cmp` included, which the root package's
/// modules no longer get (its NFCTRACE_FUZZ_COVERAGE): scripts/bench-fuzz measures the mutators
/// against plain libFuzzer as libFuzzer is usually run, and its figures were taken so.
let instrumented: [SwiftSetting] = [.unsafeFlags(["-sanitize=" + sanitize])]
let fuzzerLink: [LinkerSetting] = [.unsafeFlags(["-sanitize=" + sanitize])]
/// The harness: ASan when the code under test has it, no coverage.
let harness: [SwiftSetting] = sanitize.contains("address") ? [.unsafeFlags(["-sanitize=address"])] : []

func fuzzExecutable(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, swiftSettings: harness, linkerSettings: fuzzerLink)
}

/// One executable per parser, generated from `FuzzTargetInfo.all` (TargetTests fails when they differ and
/// rewrites them with NFCTRACE_UPDATE_GOLDEN=1; .clusterfuzzlite/build.sh and scripts/check-clusterfuzzlite read this list).
let targets = [
    "FuzzNDEFStrict",
    "FuzzNDEFLenient",
    "FuzzType2Memory",
    "FuzzType3Memory",
    "FuzzType5Memory",
    "FuzzFeliCaCodec",
    "FuzzMIFAREClassicCodec",
    "FuzzISO7816Codec",
    "FuzzDESFireEMVCodec",
    "FuzzISO15693Codec",
    "FuzzTextTrace",
    "FuzzProxmark3Trace",
    "FuzzPcap",
    "FuzzProxmark3Listing",
    "FuzzNFCLaboratory",
    "FuzzPcapRecord",
    "FuzzDissectNFCA",
    "FuzzDissectFeliCa",
    "FuzzDissectISO15693",
    "FuzzDissectISODEP",
    "FuzzDumpLoad",
    "FuzzEmulateType2",
    "FuzzEmulateFeliCa",
    "FuzzEmulateISODEP",
    "FuzzEmulateISO15693",
    "FuzzType1",
]
/// Those whose code under test is NFCCore alone: they link no dissector or emulator
/// (`CoreCodecTargets`; the same root-package test checks this list against it).
let coreCodecTargets = ["FuzzNDEFStrict", "FuzzFeliCaCodec", "FuzzISO15693Codec", "FuzzMIFAREClassicCodec", "FuzzISO7816Codec"]

let package = Package(
    name: "FuzzTesting",
    // `name:` matters: without it the package identity is the checkout folder's name.
    dependencies: [.package(name: "nfctrace", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzMain", dependencies: ["CLibFuzzer"], swiftSettings: harness),
        // The entry points and the target type; FuzzSupport adds the registry of every target.
        .target(name: "FuzzHarness", dependencies: [
            "CLibFuzzer", "FuzzMain",
            .product(name: "NFCFuzz", package: "nfctrace"),
            .product(name: "NFCFuzzCodecTargets", package: "nfctrace"),
        ], swiftSettings: harness),
        .target(name: "FuzzSupport", dependencies: ["FuzzHarness", .product(name: "NFCFuzzTargets", package: "nfctrace")],
                swiftSettings: harness),
        // Planted-bug parsers for scripts/bench-fuzz: only here, never in the product.
        .target(name: "PlantedBugs", swiftSettings: instrumented),
        fuzzExecutable("FuzzPlantedNaive", ["PlantedBugs", "FuzzMain"]),
        fuzzExecutable("FuzzPlantedNaiveStructured", ["PlantedBugs", "FuzzSupport"]),
        fuzzExecutable("FuzzPlantedDeep", ["PlantedBugs", "FuzzMain"]),
        fuzzExecutable("FuzzPlantedDeepStructured", ["PlantedBugs", "FuzzSupport"]),
        fuzzExecutable("FuzzPlantedSmartPoster", ["PlantedBugs", "FuzzMain"]),
        fuzzExecutable("FuzzPlantedSmartPosterStructured", ["PlantedBugs", "FuzzSupport"]),
        fuzzExecutable("FuzzPlantedBlockList", ["PlantedBugs", "FuzzMain"]),
        fuzzExecutable("FuzzPlantedBlockListStructured", ["PlantedBugs", "FuzzSupport"]),
    ] + targets.map { name in
        coreCodecTargets.contains(name)
            ? fuzzExecutable(name, ["FuzzHarness", .product(name: "NFCFuzzCodecTargets", package: "nfctrace")])
            : fuzzExecutable(name, ["FuzzSupport"])
    }
)
