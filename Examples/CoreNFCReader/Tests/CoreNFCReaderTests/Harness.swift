import CoreNFCReader
import Foundation
import NFCCapture
import NFCCore
import NFCDissect
import NFCTestKit
import Testing

/// Where the repository's traces and this package's recorded cassettes are.
enum Paths {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let repository = package.deletingLastPathComponent().deletingLastPathComponent()
    static func trace(_ name: String) -> URL { repository.appendingPathComponent("Traces/\(name)") }
    static let cassettes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Cassettes")
    static func cassette(_ name: String) -> URL { cassettes.appendingPathComponent(name + ".nfctrace") }
    /// Traces of every session a test runs, kept for dissecting a failure.
    static let recorded = package.appendingPathComponent(".build/nfctestkit-traces")
}

/// One simulated session for one flow: the factory the app's `TagReader` calls, and the
/// session it made (its frames, how it ended).
final class Bench {
    let source: SimulatedTagSource
    let entitlements: ReaderEntitlements
    let removal: TagRemoval
    let traceName: String
    private(set) var session: SimulatedTagReaderSession?

    init(_ source: SimulatedTagSource, entitlements: ReaderEntitlements = ReaderEntitlements(), removal: TagRemoval = .never,
         trace: String) {
        self.source = source
        self.entitlements = entitlements
        self.removal = removal
        traceName = trace
        try? FileManager.default.createDirectory(at: Paths.recorded, withIntermediateDirectories: true)
    }

    var traceURL: URL { Paths.recorded.appendingPathComponent(traceName + ".nfctrace") }

    var factory: SessionFactory {
        { [self] polling, delegate in
            let s = try? SimulatedTagReaderSession(pollingOption: polling, delegate: delegate, source: source,
                                                   entitlements: entitlements, removal: removal, traceURL: traceURL)
            session = s
            return s
        }
    }

    /// The session's frames dissected: none may be unknown, malformed or unanswered.
    func expectCleanDissection(sourceLocation: SourceLocation = #_sourceLocation) {
        let frames = session?.frames ?? []
        #expect(!frames.isEmpty, sourceLocation: sourceLocation)
        for case .frame(let f) in Dissector.dissect(frames) {
            let s = f.summary
            #expect(!s.contains("unknown") && !s.contains("unrecognised") && !s.contains("malformed") && !s.contains("no request before"),
                    "frame \(f.number): \(s)", sourceLocation: sourceLocation)
        }
    }

    /// The recorded trace equals the committed cassette `name` (NFCTESTKIT_RECORD=1 rewrites it):
    /// one of this package's, or with `inTraces` one of the repository's Traces/.
    func expectEqualsCassette(_ name: String, inTraces: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let recorded = try Data(contentsOf: traceURL)
        let committed = inTraces ? Paths.trace(name + ".nfctrace") : Paths.cassette(name)
        if ProcessInfo.processInfo.environment["NFCTESTKIT_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: committed.deletingLastPathComponent(), withIntermediateDirectories: true)
            try recorded.write(to: committed)
        }
        let expected = try Data(contentsOf: committed)
        #expect(recorded == expected, "\(traceURL.path) differs from \(committed.path)", sourceLocation: sourceLocation)
    }
}

extension SimulatedTagSource {
    static func traceFile(_ name: String) -> SimulatedTagSource { .trace(Paths.trace(name)) }
    static func cassetteFile(_ name: String) -> SimulatedTagSource { .cassette(Paths.trace(name)) }
}

/// Runs `flow` in a session on `bench` with the app's reader class.
func run<T>(_ bench: Bench, _ polling: PollingOption, _ flow: @escaping (NFCTag) async throws -> T) async throws -> T {
    try await TagReader(pollingOption: polling, makeSession: bench.factory, flow: flow).read()
}

/// The failure a run ended with (the test fails when it did not fail).
func failure<T>(_ bench: Bench, _ polling: PollingOption, _ flow: @escaping (NFCTag) async throws -> T,
                sourceLocation: SourceLocation = #_sourceLocation) async -> ReaderFailure? {
    do {
        _ = try await run(bench, polling, flow)
        Issue.record("the read succeeded", sourceLocation: sourceLocation)
        return nil
    } catch {
        return ReaderFailure(error)
    }
}
