import Foundation
import Testing
@testable import NFCCore

/// ndeflib (PyPI `ndeflib`) as an oracle: `scripts/ndef-oracle.py` generates messages, valid and
/// broken, and says how ndeflib's strict decoder takes each; nfctrace's strict decoder must agree.
/// The deliberate differences are excluded by the rules below, each described in docs/ndef.md
/// ("Differences from ndeflib").
///
/// Skipped when `python3 -c 'import ndef'` fails, unless NFCTRACE_REQUIRE_ORACLES=1 (then it fails).
@Suite struct NDEFLibOracleTests {
    static let messageCount = 12_000

    @Test(.enabled(if: Oracle.isAvailable || Oracle.isRequired,
                   "ndeflib is not importable by NFCTRACE_PYTHON or python3 on PATH (scripts/setup installs it); set NFCTRACE_REQUIRE_ORACLES=1 to fail instead"))
    func strictDecodingAgreesWithNDEFLib() throws {
        guard let python = Oracle.python, Oracle.isAvailable else {
            Issue.record("NFCTRACE_REQUIRE_ORACLES=1, but `\(Oracle.python ?? "python3") -c 'import ndef'` fails: run scripts/setup (ndeflib into .build-venv) or set NFCTRACE_PYTHON")
            return
        }
        let lines = try Oracle.run(python: python, count: Self.messageCount, seed: 1)
        #expect(lines.count == Self.messageCount)
        var tally = Tally()
        for line in lines { compare(line, &tally) }
        print(tally.summary)
        for failure in tally.failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
        #expect(tally.failures.isEmpty, "\(tally.failures.count) disagreements with ndeflib")
        // The corpus must exercise both sides of every check, or the test proves nothing.
        #expect(tally.ndeflibAccepted > 2_000 && tally.ndeflibRejected > 2_000)
        #expect(tally.comparedAccepted > 2_000 && tally.comparedRejected > 2_000)
    }

    struct Tally {
        var total = 0
        var ndeflibAccepted = 0, ndeflibRejected = 0
        var nfctraceAccepted = 0, nfctraceRejected = 0
        var comparedAccepted = 0, comparedRejected = 0
        var recordsCompared = 0, valuesCompared = 0
        var excluded: [String: Int] = [:]
        var failures: [String] = []

        var summary: String {
            let rules = excluded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "ndeflib oracle: \(total) messages; ndeflib strict accepted \(ndeflibAccepted), rejected \(ndeflibRejected); "
                + "nfctrace strict accepted \(nfctraceAccepted), rejected \(nfctraceRejected); verdicts compared on "
                + "\(comparedAccepted) accepted + \(comparedRejected) rejected (all agree: \(failures.isEmpty)); "
                + "\(recordsCompared) records and \(valuesCompared) typed values compared; excluded by rule: \(rules)"
        }
    }

    func compare(_ line: Oracle.Line, _ tally: inout Tally) {
        guard let bytes = Hex.parse(line.hex) else {
            tally.failures.append("#\(line.i): bad hex from the oracle")
            return
        }
        tally.total += 1
        let result = NDEFMessage.decode(bytes, mode: .strict)
        line.strict ? (tally.ndeflibAccepted += 1) : (tally.ndeflibRejected += 1)
        result.isValid ? (tally.nfctraceAccepted += 1) : (tally.nfctraceRejected += 1)
        let where_ = "#\(line.i) \(line.label) \(line.hex.prefix(120))"

        // Verdicts.
        if let rule = Differences.excludingVerdict(result, bytes: bytes, line: line) {
            tally.excluded[rule, default: 0] += 1
        } else {
            // Breaches ndeflib has no rule for and ignores by design are discounted (see docs).
            let breaches = result.issues.filter { $0.isBreach && !Differences.discountedRules.contains($0.rule) }
            let accepted = breaches.isEmpty
            if line.strict {
                tally.comparedAccepted += 1
                if !accepted {
                    tally.failures.append("\(where_): ndeflib accepts, nfctrace rejects: \(breaches.map(\.description))")
                }
            } else {
                tally.comparedRejected += 1
                if accepted {
                    tally.failures.append("\(where_): ndeflib rejects (\(line.error)), nfctrace accepts")
                }
            }
        }

        // Records: type, name and payload of every record (chunks as ndeflib sees them).
        guard line.strict, let theirs = line.records else { return }
        let ours = Differences.wireView(result, bytes: bytes)
        guard ours.count == theirs.count else {
            tally.failures.append("\(where_): \(theirs.count) records from ndeflib, \(ours.count) from nfctrace")
            return
        }
        for (a, b) in zip(ours, theirs) {
            tally.recordsCompared += 1
            if a.type != b.type || a.name != b.name || a.payload != b.payload {
                tally.failures.append("\(where_): record differs: nfctrace \(a), ndeflib \(b)")
            }
        }
        // Typed values ndeflib reports (Text, URI, Smart Poster).
        guard let values = line.values, !Differences.hasChunks(result),
              Differences.utf16WithoutBOM(result.records) == nil else { return }
        for (record, value) in zip(result.records, values) where !value.isEmpty {
            tally.valuesCompared += 1
            if let problem = Differences.compareValue(record, value) {
                tally.failures.append("\(where_): \(problem)")
            }
        }
    }
}

/// Running the oracle script.
enum Oracle {
    struct Record: Decodable, Equatable, CustomStringConvertible {
        var type: String
        var name: String
        var payload: String
        var description: String { "(\(type), id \(name), \(payload.prefix(40)))" }
    }

    struct Line: Decodable {
        var i: Int
        var label: String
        var hex: String
        var strict: Bool
        var error: String
        var framing: Bool
        var types: [String: Bool]
        var records: [Record]?
        var values: [[String: String?]]?
    }

    /// NFCTRACE_PYTHON (the virtual environment scripts/setup fills with ndeflib), else python3 on PATH.
    static let python: String? = {
        if let chosen = ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"],
           FileManager.default.isExecutableFile(atPath: chosen) { return chosen }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static let isAvailable: Bool = {
        guard let python else { return false }
        return (try? execute(python, ["-c", "import ndef"]).status) == 0
    }()

    static var isRequired: Bool { ProcessInfo.processInfo.environment["NFCTRACE_REQUIRE_ORACLES"] == "1" }

    static let script: String = {
        // Tests/NFCCoreTests/NDEF/<this file> → package root.
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/ndef-oracle.py").path
    }()

    static func run(python: String, count: Int, seed: Int) throws -> [Line] {
        let (status, output) = try execute(python, [script, "--count", "\(count)", "--seed", "\(seed)"])
        guard status == 0 else { throw OracleFailure(message: "ndef-oracle.py exited with \(status)") }
        let decoder = JSONDecoder()
        return try output.split(separator: 0x0A).map { try decoder.decode(Line.self, from: Data($0)) }
    }

    static func execute(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    struct OracleFailure: Error { var message: String }
}
