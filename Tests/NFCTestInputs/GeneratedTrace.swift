import Foundation
import NFCCapture
import NFCCore
import Testing

/// A trace of Traces/ that a test generates (`scripts/make-traces`): the test builds the frames,
/// and the file in Traces/ must hold exactly those frames, written by the text trace writer with
/// the test's metadata. A change to the emulator, a codec or the writer that changes the trace
/// fails the test instead of going unnoticed until someone regenerates the file;
/// `NFCTRACE_MAKE_TRACES=1` writes the file anew instead (review with `git diff Traces/`).
public enum GeneratedTrace {
    /// The environment variable that makes the generating tests write their traces.
    public static let environmentVariable = "NFCTRACE_MAKE_TRACES"

    /// The repository's root: this file is Tests/NFCTestInputs/GeneratedTrace.swift.
    public static let repositoryRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// Whether this run writes the traces instead of checking them.
    public static var writing: Bool { ProcessInfo.processInfo.environment[environmentVariable] == "1" }

    /// `frames` as a text trace with `metadata`, byte for byte as the file would hold it.
    public static func text(_ frames: [Frame], metadata: TraceMetadata) throws -> [UInt8] {
        let output = ByteOutput.inMemory(name: "<generated trace>")
        let writer = TextTraceWriter(output: output, metadata: metadata)
        for f in frames { try writer.write(f) }
        try writer.finish()
        return output.memory ?? []
    }

    /// What of a generated trace must equal the committed file.
    public enum Comparison: Sendable {
        /// The file, byte for byte.
        case exact
        /// The file's header, and every frame with its parity information left out (see the
        /// caller for why its committed trace's parity differs).
        case ignoringParity
    }

    /// Checks (or, with `NFCTRACE_MAKE_TRACES=1`, writes) Traces/`name`: a missing file or one
    /// that differs from `frames` is a test failure naming the first line that differs.
    public static func expectCommitted(_ name: String, metadata: TraceMetadata, frames: [Frame], comparing: Comparison = .exact,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = repositoryRoot + "/Traces/" + name
        let made = try text(frames, metadata: metadata)
        if writing {
            let out = try ByteOutput.create(path)
            out.write(made)
            try out.finish()
            return
        }
        guard let file = FileManager.default.contents(atPath: path) else {
            Issue.record("Traces/\(name) is missing; \(environmentVariable)=1 writes it", sourceLocation: sourceLocation)
            return
        }
        var committed = Array(file), generated = made
        if comparing == .ignoringParity {
            let reader = try Capture.open(path)
            var read: [Frame] = []
            while let f = try reader.next() { read.append(f) }
            func withoutParity(_ frames: [Frame]) -> [Frame] { frames.map { var f = $0; f.parityErrors = nil; return f } }
            committed = header(committed) + (try body(text(withoutParity(read), metadata: metadata)))
            generated = header(generated) + (try body(text(withoutParity(frames), metadata: metadata)))
        }
        guard committed != generated else { return }
        let old = String(decoding: committed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let new = String(decoding: generated, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        let committedLine = line < old.count ? String(old[line]) : "(end of file)"
        let generatedLine = line < new.count ? String(new[line]) : "(end of file)"
        Issue.record("""
            Traces/\(name) is not what its generator makes: line \(line + 1) is "\(committedLine)", the generator \
            writes "\(generatedLine)"; \(environmentVariable)=1 rewrites the file (review with git diff Traces/)
            """, sourceLocation: sourceLocation)
    }

    /// The lines of a text trace before its first event: the version line and `@` directives.
    static func header(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for line in text.split(separator: 0x0A, omittingEmptySubsequences: false) {
            guard line.first == UInt8(ascii: "@") || line.starts(with: Array("nfctrace".utf8)) else { break }
            out += line + [0x0A]
        }
        return out
    }

    /// The lines of a text trace from its first event on.
    static func body(_ text: [UInt8]) -> [UInt8] { Array(text.dropFirst(header(text).count)) }
}
