import Foundation
import Testing
import NFCCore
@testable import NFCDissect

/// Every string nfctrace writes into JSON goes through one escaper (`JSONText`, and the JSON
/// renderer's plain-run copy beside it); what it writes must read back as the same string in a
/// real JSON parser: Foundation's here, Python's `json` (strict UTF-8 first) through
/// scripts/json-oracle.py (issue 44, point 1). The strings are random Unicode with what JSON
/// escapes (quotes, backslashes, every control character), what some consumers choke on
/// (U+2028/2029, U+FEFF, non-BMP) and text made from source bytes that are no valid UTF-8
/// (encoded surrogates, overlong and cut sequences, lone UTF-16 surrogates).
@Suite struct JSONConformanceTests {
    static let pool: [String] = {
        var p = ["a", "Z", "0", " ", "\"", "\\", "/", "{", "}", "[", "]", ":", ",", "é", "→", "ü", "📡", "e\u{301}",
                 "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{10FFFF}", "</script>", "\\u0022"]
        p += (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        return p
    }()

    /// A string as a dissector could make it: from the pool, or decoded from bytes a capture held.
    static func randomString(_ rng: inout SplitMix64) -> String {
        switch rng.next() % 4 {
        case 0:
            // Bytes of a file or an NDEF text as captured: anything, including ED A0 80 (an
            // encoded surrogate), C0 80 (overlong) and cut sequences.
            let specials: [[UInt8]] = [[0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xC0, 0x80], [0xE2, 0x80], [0xF0, 0x9F], [0xFF], [0x22], [0x5C]]
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 24) {
                if rng.next() % 3 == 0 { bytes += specials[Int(rng.next() % UInt64(specials.count))] } else { bytes.append(UInt8(truncatingIfNeeded: rng.next())) }
            }
            return String(decoding: bytes, as: UTF8.self)
        case 1:
            // UTF-16 text (an NDEF Text record) with lone surrogates.
            let units = (0..<Int(rng.next() % 16)).map { _ -> UInt16 in
                rng.next() % 3 == 0 ? UInt16(0xD800 + rng.next() % 0x800) : UInt16(truncatingIfNeeded: rng.next() % 0x3000)
            }
            return String(decoding: units, as: UTF16.self)
        default:
            let n = Int(rng.next() % 40)
            return (0..<n).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }.joined()
        }
    }

    /// One frame's JSON with `s` as its comment, summary, and first field's label and value.
    static func frameJSON(_ s: String, renderer: JSONRenderer) -> [UInt8] {
        var frame = Frame(.data(.readerToTag), technology: .iso14443a, bytes: [0x30, 0x03], start: Timestamp(7, .microseconds))
        frame.comment = s
        let d = FrameDissection(number: 1, frame: frame, summary: s, fields: [Field(FieldName(s), FieldName(s), FieldValue(s))])
        var out: [UInt8] = []
        renderer.render(.frame(d), into: &out)
        return out
    }

    /// The same members written with `JSONText`, which the replay report, `readers` and the
    /// DESFire text values use.
    static func textJSON(_ s: String) -> [UInt8] {
        let q = JSONText.quoted(s)
        return Array("{\"comment\":\(q),\"summary\":\(q),\"fields\":[{\"label\":\(q),\"value\":\(q)}]}\n".utf8)
    }

    static let cases: [String] = {
        var rng = SplitMix64(seed: 44)
        return ["say \"hi\" a\\b", "\tstudent\t", "\"student 2024A1234, valid 2027-03\""] + (0..<4_000).map { _ in randomString(&rng) }
    }()

    @Test func foundationReadsBackEveryString() throws {
        let renderer = JSONRenderer()
        // swift-corelibs-foundation's JSONSerialization drops U+FEFF wherever it stands in a
        // string (RFC 8259 has no such rule; Python keeps it, see the next test).
        for s in Self.cases where !s.unicodeScalars.contains("\u{FEFF}") {
            for line in [Self.frameJSON(s, renderer: renderer), Self.textJSON(s)] {
                let o = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], "\(Array(s.unicodeScalars))")
                let field = try #require((o["fields"] as? [[String: Any]])?.first)
                #expect(o["comment"] as? String == s && o["summary"] as? String == s, "\(Array(s.unicodeScalars))")
                #expect(field["label"] as? String == s && field["value"] as? String == s, "\(Array(s.unicodeScalars))")
            }
        }
    }

    @Test(.enabled(if: JSONOracle.python != nil || JSONOracle.isRequired, "no python3 on PATH (scripts/setup installs it); NFCTRACE_REQUIRE_ORACLES=1 fails instead"))
    func pythonReadsBackEveryString() throws {
        let renderer = JSONRenderer()
        var input: [UInt8] = []
        for s in Self.cases {
            for line in [Self.frameJSON(s, renderer: renderer), Self.textJSON(s)] {
                input += Array(Hex.string(Array(s.utf8), separator: "").utf8)
                input.append(0x09)
                input += line
            }
        }
        let r = try JSONOracle.run(["strings"], stdin: input)
        #expect(r.status == 0, "\(r.output.prefix(2_000))")
        #expect(r.output.hasSuffix("checked \(2 * Self.cases.count), failed 0\n"), "\(r.output.suffix(300))")
    }
}

/// scripts/json-oracle.py under NFCTRACE_PYTHON or python3 (standard library only).
enum JSONOracle {
    static let root: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()
    static var isRequired: Bool { ProcessInfo.processInfo.environment["NFCTRACE_REQUIRE_ORACLES"] == "1" }

    static let python: String? = {
        if let chosen = ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"], FileManager.default.isExecutableFile(atPath: chosen) { return chosen }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> (status: Int32, output: String) {
        guard let python else { throw OracleMissing() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [root + "/scripts/json-oracle.py"] + arguments
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        // Written from another thread: the oracle's output could fill its pipe before it has read all.
        let data = stdin
        let writer = Thread { input.fileHandleForWriting.write(Data(data)); try? input.fileHandleForWriting.close() }
        writer.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }

    struct OracleMissing: Error {}
}
