import Foundation
import Testing
import NFCCapture
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

    /// FuzzTesting/Package.swift's executable lists are generated from the one registry: this
    /// fails when they differ; NFCTRACE_UPDATE_GOLDEN=1 rewrites them and adds the missing
    /// `Sources/NAME/main.swift` files.
    @Test func fuzzPackageListsAreGenerated() throws {
        let path = Self.repositoryRoot + "/FuzzTesting/Package.swift"
        let manifest = try String(contentsOfFile: path, encoding: .utf8)
        let generated = FuzzTargetInfo.packageManifestLists(coreCodec: CoreCodecTargets.names)
        let start = try #require(manifest.range(of: "let targets = ["))
        let end = try #require(manifest.range(of: "let coreCodecTargets = [", range: start.upperBound..<manifest.endIndex))
        let lineEnd = try #require(manifest.range(of: "\n", range: end.upperBound..<manifest.endIndex))
        let current = String(manifest[start.lowerBound..<lineEnd.upperBound])
        let update = ProcessInfo.processInfo.environment["NFCTRACE_UPDATE_GOLDEN"] == "1"
        if update && current != generated {
            try (manifest[..<start.lowerBound] + generated + manifest[lineEnd.upperBound...]).write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(update || current == generated, "FuzzTesting/Package.swift's lists differ from FuzzTargetInfo.all; run with NFCTRACE_UPDATE_GOLDEN=1")
        for target in FuzzTargetInfo.all {
            let main = Self.repositoryRoot + "/FuzzTesting/Sources/\(target.name)/main.swift"
            if update && !FileManager.default.fileExists(atPath: main) {
                try FileManager.default.createDirectory(atPath: (main as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FuzzTargetInfo.executableMain(target.name, coreCodec: CoreCodecTargets.names.contains(target.name))
                    .write(toFile: main, atomically: true, encoding: .utf8)
            }
            #expect(FileManager.default.fileExists(atPath: main), "FuzzTesting has no \(target.name)/main.swift")
        }
    }

    @Test func fuzzPackageDeclaresEveryTarget() throws {
        let manifest = try String(contentsOfFile: Self.repositoryRoot + "/FuzzTesting/Package.swift", encoding: .utf8)
        for target in FuzzTargetInfo.all {
            #expect(manifest.contains("\"\(target.name)\""), "FuzzTesting/Package.swift has no \(target.name)")
        }
        // The executables that link no dissector or emulator are exactly CoreCodecTargets' targets.
        let list = manifest.split(separator: "\n").first { $0.hasPrefix("let coreCodecTargets = [") }
        let names = list.map { $0.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) } }
        #expect(names == CoreCodecTargets.names, "FuzzTesting/Package.swift's coreCodecTargets: \(names ?? [])")
        for name in CoreCodecTargets.names {
            #expect(FuzzTargetInfo.named(name) != nil && CoreCodecTargets.body(name) != nil, "\(name)")
        }
    }

    /// The 14443-A dissect target's seeds (issue 22, point 4): short, and every trace of that
    /// technology in Traces/ starts one of them (before, the first 24 seeds were four long
    /// traces three times over).
    @Test func frameSeedsAreSessionsOfEveryTrace() throws {
        let folder = Self.repositoryRoot + "/Traces"
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
            CorpusBuilder.Trace(name: $0, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))))
        }
        let target = try #require(FuzzTargetInfo.named("FuzzDissectNFCA"))
        let seeds = CorpusBuilder.seeds(for: target, traces: traces).map(\.bytes)
        #expect(seeds.count <= CorpusBuilder.maximumSessionSeedsPerTarget && seeds.count > CorpusBuilder.maximumSeedsPerTarget)
        let decoded = seeds.map { FrameSequence.decode($0).frames }
        for (seed, frames) in zip(seeds, decoded) {
            #expect(seed.count <= CorpusBuilder.maximumTraceSeedSize || frames.count <= CorpusBuilder.framesPerSessionSeed,
                    "a seed of \(seed.count) bytes, \(frames.count) frames")
        }
        var starts = 0
        for trace in traces where trace.name.hasSuffix(".nfctrace") {
            // A 14443-A trace's first frames (its UID among them) are some seed's first frames.
            let reader = try Capture.open(ByteInput.memory(trace.bytes, name: trace.name))
            var frames: [Frame] = []
            while let f = try reader.next() { frames.append(f) }
            guard frames.first(where: \.isReaderFrame)?.technology == .iso14443a else { continue }
            let head = frames.prefix(8).map { Array($0.bytes.prefix(255)) }
            #expect(decoded.contains { $0.prefix(head.count).map(\.bytes) == head }, "no seed starts like \(trace.name)")
            starts += 1
        }
        #expect(starts >= 10, "\(starts) 14443-A traces")
    }
}
