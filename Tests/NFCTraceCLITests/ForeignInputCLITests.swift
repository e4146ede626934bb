import Foundation
import Testing

/// Issue 18's smaller defects, through the binary: a Proxmark3 LF sample file is named as such,
/// `ndef decode` reads the memory of Flipper and Proxmark3 dumps (and refuses dumps whose NDEF
/// lives elsewhere with 65), `replay` takes `--tech` for formats that do not say, and `convert`
/// of a trace mixing technologies picks nfctrace's encapsulation with a note.
@Suite struct ForeignInputCLITests {
    static let shared = CLI.root + "/../shared"
    static var sharedAvailable: Bool { FileManager.default.fileExists(atPath: shared) }

    @Test func anLFSampleFileIsNamed() throws {
        let samples = (0..<200).map { String(Int(sin(Double($0) / 3) * 100)) }.joined(separator: "\n") + "\n"
        let path = CLI.temporaryFile(Array(samples.utf8), suffix: ".pm3")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLI.run(["dissect", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("a Proxmark3 LF sample file (.pm3: one signal sample per line); LF signals are not frames"))
    }

    @Test(.enabled(if: sharedAvailable, "../shared is not beside this checkout"))
    func ndefDecodeReadsDumps() throws {
        let ntag = try CLI.run(["ndef", "decode", Self.shared + "/dumps/pm3_ntag216-empty.json"])
        #expect(ntag.status == 0)
        #expect(ntag.stdout.hasPrefix("Type 2 tag memory, lenient: valid"))
        let slix = try CLI.run(["ndef", "decode", Self.shared + "/dumps/flipper_Slix_cap_default.nfc"])
        #expect(slix.status == 0)
        #expect(slix.stdout.hasPrefix("Type 5 tag memory"))
        let felica = try CLI.run(["ndef", "decode", Self.shared + "/dumps/flipper_Felica.nfc"])
        #expect(felica.status == 65)
        #expect(felica.stderr.contains("ndef decode reads Type 2 and Type 5 memory from dumps"))
    }

    @Test(.enabled(if: sharedAvailable, "../shared is not beside this checkout"))
    func replayTakesTheTechnology() throws {
        let r = try CLI.run(["replay", Self.shared + "/pm3-traces/hf_14b_reader.trace", "--tech", "14b"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("PASS"))
    }

    @Test func convertingMixedTechnologiesPicksTheNFCTraceEncapsulation() throws {
        let out = NSTemporaryDirectory() + "nfctrace-mixed-\(UUID().uuidString).pcap"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try CLI.run(["convert", "Traces/mixed-polling-loop.nfctrace", out])
        #expect(r.status == 0)
        #expect(r.stderr.contains("written with nfctrace's LINKTYPE_USER3 encapsulation"))
        let back = try CLI.run(["convert", out, "-", "--to", "nfctrace"])
        let original = try String(contentsOfFile: CLI.root + "/Traces/mixed-polling-loop.nfctrace", encoding: .utf8)
        #expect(back.stdout.contains("tech=felica") && original.contains("tech=felica"))
    }
}
