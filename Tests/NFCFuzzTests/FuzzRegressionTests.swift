import Foundation
import Testing
import NFCFuzz
import NFCFuzzTargets

/// Every input a fuzzer found a bug with, replayed through the real parsers. The inputs live
/// in `FuzzRegressions/<target>/<what it found>`; the same files replay through the libFuzzer
/// binaries with `FuzzTesting/.build-fuzz/release/<target> <file>` (scripts/fuzz-smoke does).
@Suite struct FuzzRegressionTests {
    static var folder: String { TargetTests.repositoryRoot + "/Tests/NFCFuzzTests/FuzzRegressions" }

    static var cases: [(target: String, file: String)] {
        let fm = FileManager.default
        let targets = (try? fm.contentsOfDirectory(atPath: folder)) ?? []
        return targets.sorted().flatMap { t in
            ((try? fm.contentsOfDirectory(atPath: folder + "/" + t)) ?? []).sorted().map { (t, $0) }
        }
    }

    @Test func thereAreSavedInputs() {
        #expect(Self.cases.count >= 4, "the regression folder lost its inputs")
    }

    @Test(arguments: cases.map { "\($0.target)/\($0.file)" })
    func savedInputPasses(path: String) throws {
        let target = String(path.split(separator: "/")[0])
        #expect(FuzzTargetInfo.named(target) != nil, "\(target) is not a fuzz target")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + path)))
        #expect(FuzzTargets.run(target, bytes) == .ok)
    }
}
