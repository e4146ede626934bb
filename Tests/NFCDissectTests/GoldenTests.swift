import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// Golden dissection output: every trace in Traces/ (and the shared Proxmark3 traces) is
/// dissected in each output mode and compared with the file beside this test, so that a change
/// in annotation shows up as a reviewed diff. `NFCTRACE_UPDATE_GOLDEN=1 swift test` rewrites them.
@Suite struct GoldenTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()
    static let goldenDirectory = root + "/Tests/NFCDissectTests/Golden"
    static let sharedTraces = root + "/../shared/pm3-traces"

    enum Mode: String, CaseIterable {
        case text, verbose, json
    }

    /// Every capture in Traces/: adding a trace adds these tests.
    static var traces: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Traces")) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted().map { "Traces/" + $0 }
    }

    static let sharedNames = ["hf_14a_mfu.trace", "hf_14a_reader_4b.trace", "hf_14a_reader_7b_rats.trace",
                              "hf_14a_mfuc.trace", "hf_14a_mful_aes_defaultkey.trace"]
    /// With the MIFARE Classic sample, whose sectors 2 and 3 stay encrypted with the built-in keys.
    static let sharedGoldenNames = sharedNames + ["hf_mf_hid_sio_sim.trace"]
    static var sharedAvailable: Bool { FileManager.default.fileExists(atPath: sharedTraces) }

    static func render(_ path: String, mode: Mode) throws -> String {
        let reader = try Capture.open(path)
        let dissector = Dissector(detail: mode == .text ? .summary : .full)
        var out: [UInt8] = []
        let text = TextRenderer(verbose: mode == .verbose, color: false)
        let json = JSONRenderer()
        if mode == .text { out += Array(text.header().utf8) }
        let emit: (DissectionEvent) -> Void = { e in
            if mode == .json { json.render(e, into: &out) } else { text.render(e, into: &out) }
        }
        do {
            while let f = try reader.next() { dissector.process(f, emit: emit) }
        } catch {
            out += Array("error: \(error)\n".utf8)
        }
        dissector.finish(emit: emit)
        return String(decoding: out, as: UTF8.self)
    }

    static func check(_ path: String, goldenName: String, mode: Mode) throws {
        let actual = try render(path, mode: mode)
        let goldenPath = "\(goldenDirectory)/\(goldenName).\(mode.rawValue)"
        if ProcessInfo.processInfo.environment["NFCTRACE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: goldenPath, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: goldenPath, encoding: .utf8) else {
            Issue.record("no golden file \(goldenPath); create it with NFCTRACE_UPDATE_GOLDEN=1 swift test")
            return
        }
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = Array(zip(a, e)).firstIndex { $0.0 != $0.1 } ?? min(a.count, e.count)
            Issue.record("""
                \(path) (\(mode.rawValue)) differs from \(goldenName).\(mode.rawValue) at line \(line + 1):
                  expected: \(line < e.count ? String(e[line]) : "<end>")
                  actual:   \(line < a.count ? String(a[line]) : "<end>")
                """)
        }
    }

    @Test(arguments: traces)
    func projectTraces(path: String) throws {
        #expect(!Self.traces.isEmpty)
        let name = String(path.split(separator: "/").last ?? "")
        for mode in Mode.allCases {
            try Self.check(Self.root + "/" + path, goldenName: name, mode: mode)
        }
    }

    @Test(.enabled(if: sharedAvailable, "../shared/pm3-traces is not beside this checkout"), arguments: sharedGoldenNames)
    func proxmarkTraces(name: String) throws {
        for mode in Mode.allCases {
            try Self.check("\(Self.sharedTraces)/\(name)", goldenName: name, mode: mode)
        }
    }

    @Test func goldenFilesAreValidJSONLines() throws {
        for path in Self.traces {
            let name = String(path.split(separator: "/").last ?? "")
            guard let text = try? String(contentsOfFile: "\(Self.goldenDirectory)/\(name).json", encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["type"] as? String == "frame" || object?["type"] as? String == "session")
            }
        }
    }
}
