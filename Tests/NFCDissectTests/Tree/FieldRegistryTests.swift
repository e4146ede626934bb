import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// The field registry is the list of keys a dissection can carry: every key written is in it,
/// every key in it is listed once under its own prefix, and docs/json-output.md shows it.
@Suite struct FieldRegistryTests {
    static let root = GoldenTests.root

    @Test func everyKeyIsListedOnceUnderItsProtocol() {
        var seen: [String: String] = [:]
        for table in FieldRegistry.tables {
            #expect(!table.specs.isEmpty, "\(table.name) lists no fields")
            for spec in table.specs {
                #expect(spec.key.hasPrefix(table.name + "."), "\(spec.key) is listed under \(table.name)")
                #expect(!spec.label.isEmpty, "\(spec.key) has no label")
                #expect(spec.key.utf8.allSatisfy { $0 == 0x2E || $0 == 0x5F || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) },
                        "\(spec.key): keys are lower-case letters, digits, . and _")
                if let other = seen[spec.key] { Issue.record("\(spec.key) is listed by \(other) and \(table.name)") }
                seen[spec.key] = table.name
            }
        }
        #expect(FieldRegistry.byKey.count == seen.count)
        #expect(Set(FieldRegistry.tables.map(\.name)).count == FieldRegistry.tables.count)
    }

    /// A table declared in NFCCore but not registered would make its keys unknown to replay
    /// rules and `--list-fields`.
    @Test func everyDeclaredTableIsRegistered() throws {
        var declared: Set<String> = []
        let folder = Self.root + "/Sources/NFCCore"
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
            guard text.contains("extension FieldSpec {") else { continue }
            for line in text.split(separator: "\n") where line.contains("public static let ") && line.contains("Fields()") {
                let name = line.split(separator: "public static let ")[1].split(separator: " ")[0]
                declared.insert(String(name))
            }
        }
        #expect(!declared.isEmpty)
        #expect(declared == Set(FieldRegistry.tables.map(\.name)))
    }

    /// Every key the dissector writes for the traces of Traces/ and the captures of ../shared is
    /// registered: the registry cannot fall behind the dissectors.
    @Test func everyKeyWrittenForTheTracesIsRegistered() throws {
        var inputs = GoldenTests.traces.map { Self.root + "/" + $0 }
        let shared = Self.root + "/../shared"
        if FileManager.default.fileExists(atPath: shared) {
            for folder in ["pm3-traces", "captures"] {
                let base = shared + "/" + folder
                for path in (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? [] where !path.hasSuffix(".md") {
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                        inputs.append(base + "/" + path)
                    }
                }
            }
        }
        var written: Set<String> = []
        func collect(_ fields: [Field]) {
            for f in fields {
                written.insert(f.key)
                collect(f.children)
            }
        }
        var dissected = 0
        for path in inputs {
            guard let reader = try? Capture.open(path) else { continue }
            let dissector = Dissector(detail: .full)
            let emit: (DissectionEvent) -> Void = { event in
                switch event {
                case .frame(let f): collect(f.fields)
                case .session(let s): collect(s.tag); collect(s.memory)
                }
            }
            while let frame = try? reader.next() { dissector.process(frame, emit: emit) }
            dissector.finish(emit: emit)
            dissected += 1
        }
        #expect(dissected >= GoldenTests.traces.count)
        #expect(written.count > 300, "only \(written.count) keys written: the traces were not dissected")
        let unknown = written.filter { FieldRegistry.spec(forKey: $0) == nil }.sorted()
        #expect(unknown.isEmpty, "written but not registered: \(unknown)")
    }

    /// docs/json-output.md lists the keys from the registry; `NFCTRACE_UPDATE_GOLDEN=1` rewrites the list.
    @Test func theDocumentedKeysAreTheRegistry() throws {
        let path = Self.root + "/docs/json-output.md"
        let doc = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- field keys: generated from FieldRegistry by FieldRegistryTests; do not edit -->\n"
        let end = "<!-- end of field keys -->"
        let start = try #require(doc.range(of: begin), "docs/json-output.md has no generated key list")
        let stop = try #require(doc.range(of: end, range: start.upperBound..<doc.endIndex))
        let listed = String(doc[start.upperBound..<stop.lowerBound])
        let generated = FieldListing.render(FieldRegistry.tables, format: .markdown)
        if ProcessInfo.processInfo.environment["NFCTRACE_UPDATE_GOLDEN"] == "1", listed != generated {
            try (String(doc[..<start.upperBound]) + generated + String(doc[stop.lowerBound...])).write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(listed == generated, "docs/json-output.md's key list differs from the registry: NFCTRACE_UPDATE_GOLDEN=1 swift test --filter FieldRegistryTests")
    }

    @Test func theClosestKeyNamesAMisspelling() {
        #expect(FieldRegistry.closestKey(to: "ntag.signatur") == "ntag.signature")
        #expect(FieldRegistry.closestKey(to: "iso14443a.uid_cl") == "iso14443a.uid_cln")
        #expect(FieldRegistry.spec(forKey: "ntag.page")?.layout == Type2Command.Layout.page)
    }

    /// Fields are written through their specs: a string key in a dissector would bypass the
    /// registry. The string-keyed initialiser stays for the tree's own copies (Tree/, shifted
    /// fields) and for tests.
    @Test func dissectorsWriteFieldsThroughSpecs() throws {
        let folder = Self.root + "/Sources/NFCDissect"
        var offenders: [String] = []
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where path.hasSuffix(".swift") && !path.hasPrefix("Tree/") {
            let lines = try String(contentsOfFile: folder + "/" + path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (n, line) in lines.enumerated() {
                if line.contains("Field(\"") || line.contains("FieldSpec(\"") || line.contains("Field(FieldName(") {
                    offenders.append("Sources/NFCDissect/\(path):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "fields written without a registered spec:\n\(offenders.joined(separator: "\n"))")
    }
}
