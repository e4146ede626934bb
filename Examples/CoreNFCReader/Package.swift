// swift-tools-version:6.1
// An iOS app's NFC code, the way the articles nfctrace grew from wrote it, made testable: the
// reader flows are written against NFCTestKit's Core NFC protocols, run against real tags on a
// phone (CoreNFCTagReaderSession) and against simulated tags and recorded cassettes in
// `swift test` (docs/testing-core-nfc-code.md).
import PackageDescription

let package = Package(
    name: "CoreNFCReader",
    products: [.library(name: "CoreNFCReader", targets: ["CoreNFCReader"])],
    dependencies: [.package(name: "nfctrace", path: "../..")],
    targets: [
        .target(
            name: "CoreNFCReader",
            dependencies: [.product(name: "NFCTestKit", package: "nfctrace")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "CoreNFCReaderTests",
            dependencies: [
                "CoreNFCReader",
                .product(name: "NFCTestKit", package: "nfctrace"),
                .product(name: "NFCCore", package: "nfctrace"),
                .product(name: "NFCCapture", package: "nfctrace"),
                .product(name: "NFCDissect", package: "nfctrace"),
                .product(name: "NFCEmulator", package: "nfctrace"),
            ],
            // Read in place by the tests (Harness.swift), not bundled.
            exclude: ["Cassettes"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
