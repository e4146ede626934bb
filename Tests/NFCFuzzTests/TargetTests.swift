import Foundation
import Testing
import NFCCore
import NFCFuzz
import NFCFuzzTargets

/// The registry, the FuzzTesting package and the target bodies agree, and every target accepts
/// the seeds of its shape (a seed that fails a round trip is a bug in a codec or in the target).
@Suite struct TargetTests {
    static var repositoryRoot: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }

    @Test(arguments: FuzzTargetInfo.all) func targetHasABody(target: FuzzTargetInfo) {
        #expect(FuzzTargets.body(target.name) != nil, "\(target.name) has no body in FuzzTargets")
    }

    @Test(arguments: FuzzTargetInfo.all) func seedsPass(target: FuzzTargetInfo) {
        for (i, seed) in StructuredMutator(shape: target.shape).seeds().enumerated() {
            let check = FuzzTargets.run(target.name, seed)
            #expect(check == .ok, "\(target.name) seed \(i): \(String(describing: check))")
        }
    }

    /// Children of the seeds, too: a round trip that fails on the first mutation is found here
    /// in the unit tests before a fuzzer ever runs.
    @Test(arguments: FuzzTargetInfo.all) func mutatedSeedsPass(target: FuzzTargetInfo) {
        let mutator = StructuredMutator(shape: target.shape)
        for (i, seed) in mutator.seeds().enumerated() {
            for s in 0..<40 as Range<UInt64> {
                let child = mutator.mutate(seed, seed: s &* 131 &+ UInt64(i), maxSize: 4096)
                let check = FuzzTargets.run(target.name, child)
                #expect(check == .ok, "\(target.name) child \(s) of seed \(i) (\(Hex.string(child.prefix(40)))): \(String(describing: check))")
            }
        }
    }

    @Test func fuzzPackageDeclaresEveryTarget() throws {
        let manifest = try String(contentsOfFile: Self.repositoryRoot + "/FuzzTesting/Package.swift", encoding: .utf8)
        for target in FuzzTargetInfo.all {
            #expect(manifest.contains("\"\(target.name)\""), "FuzzTesting/Package.swift has no \(target.name)")
        }
    }
}
