// swift-tools-version:6.0
// libFuzzer targets for nfctrace (docs/fuzzing.md). A separate package so that the root
// package's `swift build`/`swift test` never see libFuzzer symbols. Build with
//   swift build --package-path FuzzTesting -c release --sanitize=fuzzer --scratch-path FuzzTesting/.build-fuzz
// (add `-Xswiftc -sanitize=fuzzer,address` for ASan: one combined flag, see notes/fuzzing-swift.md).
import PackageDescription

/// One executable per parser; names match `FuzzTargetInfo.all` (a test in the root package checks it).
let targets = [
    "FuzzNDEFStrict", "FuzzNDEFLenient", "FuzzType2Memory", "FuzzType3Memory", "FuzzType5Memory",
    "FuzzFeliCaCodec", "FuzzISO15693Codec", "FuzzMIFAREClassicCodec", "FuzzISO7816Codec", "FuzzDESFireEMVCodec", "FuzzTextTrace", "FuzzProxmark3Trace", "FuzzPcap", "FuzzPcapRecord",
    "FuzzProxmark3Listing", "FuzzNFCLaboratory",
    "FuzzDissectNFCA", "FuzzDissectFeliCa", "FuzzDissectISO15693", "FuzzDissectISODEP", "FuzzDumpLoad",
    "FuzzEmulateType2", "FuzzEmulateFeliCa", "FuzzEmulateISO15693", "FuzzEmulateISODEP",
]

let package = Package(
    name: "FuzzTesting",
    // `name:` matters: without it the package identity is the checkout folder's name.
    dependencies: [.package(name: "nfctrace", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: [
            "CLibFuzzer",
            .product(name: "NFCFuzz", package: "nfctrace"),
            .product(name: "NFCFuzzTargets", package: "nfctrace"),
        ]),
        // Planted-bug parsers for scripts/bench-fuzz: only here, never in the product.
        .target(name: "PlantedBugs"),
        .executableTarget(name: "FuzzPlantedNaive", dependencies: ["PlantedBugs"]),
        .executableTarget(name: "FuzzPlantedNaiveStructured", dependencies: ["PlantedBugs", "FuzzSupport"]),
        .executableTarget(name: "FuzzPlantedDeep", dependencies: ["PlantedBugs"]),
        .executableTarget(name: "FuzzPlantedDeepStructured", dependencies: ["PlantedBugs", "FuzzSupport"]),
        .executableTarget(name: "FuzzPlantedSmartPoster", dependencies: ["PlantedBugs"]),
        .executableTarget(name: "FuzzPlantedSmartPosterStructured", dependencies: ["PlantedBugs", "FuzzSupport"]),
        .executableTarget(name: "FuzzPlantedBlockList", dependencies: ["PlantedBugs"]),
        .executableTarget(name: "FuzzPlantedBlockListStructured", dependencies: ["PlantedBugs", "FuzzSupport"]),
    ] + targets.map { .executableTarget(name: $0, dependencies: ["FuzzSupport"]) }
)
