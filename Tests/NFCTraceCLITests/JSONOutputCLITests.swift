import Foundation
import Testing

/// `--format json` as users consume it (issue 44, point 1): the built binary's output read by
/// Python's `json` (strict UTF-8) and every JSON golden file by `jq -e .`.
@Suite struct JSONOutputCLITests {
    static var jq: String? { ["/usr/bin/jq", "/usr/local/bin/jq"].first { FileManager.default.isExecutableFile(atPath: $0) } }

    /// Python's reading of `lines`, written to a file first.
    static func pythonReads(_ outputs: [(name: String, bytes: Data)]) throws -> (status: Int32, output: String) {
        var paths: [String] = []
        for o in outputs {
            let path = NSTemporaryDirectory() + "nfctrace-json-\(UUID().uuidString)-" + o.name.replacingOccurrences(of: "/", with: "_")
            try o.bytes.write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        defer { for p in paths { try? FileManager.default.removeItem(atPath: p) } }
        // The standard library's json: any python3 will do (scripts/setup's or the system's).
        let python = ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"] ?? "/usr/bin/python3"
        let r = try ChildProcess.run(python, [CLI.root + "/scripts/json-oracle.py", "lines"] + paths)
        return (r.status, String(decoding: r.stdout, as: UTF8.self))
    }

    /// The repro of the issue: a comment with quotes and a backslash, and the DESFire text value.
    @Test func quotesAndBackslashesSurvive() throws {
        let r = try CLI.run(["dissect", "--format", "json", "-"], stdin: Data("nfctrace 1\n 100 R 26/7 # say \"hi\" a\\b\n".utf8))
        #expect(r.status == 0)
        let first = try #require(r.stdout.split(separator: "\n").first)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(o["comment"] as? String == "say \"hi\" a\\b")
        #expect(first.contains(#""comment":"say \"hi\" a\\b""#))

        let desfire = try CLI.run(["dissect", "--format", "json", "Traces/desfire-aes-read.nfctrace"])
        #expect(desfire.status == 0)
        #expect(desfire.stdout.contains(#""value":"\"student 2024A1234, valid 2027-03\"""#))
        #expect(!desfire.stdout.contains(#"\tstudent"#))
    }

    /// Every trace of Traces/ and of ../shared, dissected to JSON by the binary, parses in Python.
    @Test func everyTraceDissectsToJSONPythonReads() throws {
        var inputs = try FileManager.default.contentsOfDirectory(atPath: CLI.root + "/Traces").filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.map { "Traces/" + $0 }
        let shared = CLI.root + "/../shared"
        if FileManager.default.fileExists(atPath: shared) {
            for folder in ["pm3-traces", "captures/nfc-laboratory", "captures/proxmark3-listings"] {
                inputs += ((try? FileManager.default.contentsOfDirectory(atPath: shared + "/" + folder)) ?? []).filter { !$0.hasSuffix(".md") }.map { "../shared/\(folder)/\($0)" }
            }
        }
        var outputs: [(String, Data)] = []
        for input in inputs.sorted() {
            for extra in [[], ["--show-secrets"]] {
                let r = try CLI.run(["dissect", "--format", "json"] + extra + [input])
                #expect(r.status == 0 || r.status == 65, "\(input): exit \(r.status) \(r.stderr)")
                #expect(!r.stdoutBytes.isEmpty, "\(input)")
                outputs.append((input + extra.joined(), r.stdoutBytes))
            }
        }
        #expect(outputs.count > 100)
        let r = try Self.pythonReads(outputs)
        #expect(r.status == 0, "\(r.output.prefix(2_000))")
        #expect(r.output.contains("failed 0"))
    }

    /// `jq -e .` over every JSON golden file (dissection goldens of every trace).
    @Test func jqReadsEveryGolden() throws {
        guard let jq = Self.jq else {
            if ProcessInfo.processInfo.environment["NFCTRACE_REQUIRE_ORACLES"] == "1" { Issue.record("jq is not installed; scripts/setup installs it") }
            return
        }
        let folder = CLI.root + "/Tests/NFCDissectTests/Golden"
        let goldens = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
        #expect(goldens.count > 40)
        for g in goldens {
            let r = try ChildProcess.run(jq, ["-e", ".", folder + "/" + g])
            #expect(r.status == 0, "jq -e . \(g): \(String(decoding: r.stderr, as: UTF8.self).prefix(300))")
            #expect(!r.stdout.isEmpty)
        }
    }
}
