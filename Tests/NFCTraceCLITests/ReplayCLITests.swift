import Foundation
import Testing

/// `nfctrace replay`: exit codes and report formats.
@Suite struct ReplayCLITests {
    @Test func passingTracesExitZero() throws {
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.nfctrace", "Traces/ntag215-password-read.pcap"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("2 traces: 2 passed, 0 diverged, 0 unreadable or failed; 58 exchanges in"))
    }

    /// `--against emulator` reads its trace once (issue 17): standard input works like the file.
    @Test func standardInputAgainstItsOwnTag() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/Traces/felica-system-switch.pcap"))
        let fromFile = try CLI.run(["replay", "Traces/felica-system-switch.pcap"])
        let fromStdin = try CLI.run(["replay", "-"], stdin: bytes)
        #expect(fromStdin.status == 0, "\(fromStdin.stdout)\(fromStdin.stderr)")
        #expect(fromStdin.stdout.replacingOccurrences(of: "PASS  -", with: "PASS  Traces/felica-system-switch.pcap").split(separator: ";").first
                == fromFile.stdout.split(separator: ";").first)
        // A damaged trace is replayed up to its damage and reported unreadable, as from a file.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/Traces/ntag215-password-read.nfctrace"))
        damaged.append(contentsOf: Array("99999999 R zz\n".utf8))
        let r = try CLI.run(["replay", "-"], stdin: damaged)
        #expect(r.status == 65)
        #expect(r.stdout.contains("damaged at byte"))
    }

    @Test func anUnreadableTraceIsReportedAndTheOthersStillRun() throws {
        let broken = CLI.temporaryFile(Array("nfctrace 1\nR 26/7\nT 44 00\nR zz\n".utf8), suffix: ".nfctrace")
        let r = try CLI.run(["replay", broken, "Traces/ntag215-password-read.nfctrace"])
        #expect(r.status == 65)
        #expect(r.stdout.contains("PASS  Traces/ntag215-password-read.nfctrace"))
        #expect(r.stdout.contains("ERROR \(broken)"))
    }

    @Test func aDivergenceExitsOneWithJUnit() throws {
        // The trace's tag refuses the password a different dump expects: replay against a factory NTAG215.
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.nfctrace", "--against", "emulator:model:ntag215", "--format", "junit"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("<testcase name=\"Traces/ntag215-password-read.nfctrace\""))
        #expect(r.stdout.contains("<failure message=\"frame 5: the answers differ\""))
    }

    @Test func rulesFilesFromTheCommandLine() throws {
        let rules = CLI.temporaryFile(Array("substitute iso14443a.uid_cln\nsubstitute iso14443a.bcc\nignore ntag.page_data\nignore ntag.pack\nignore ntag.nak\nignore ntag.ack\n".utf8))
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.nfctrace", "--against", "emulator:model:ntag215", "--rules", rules, "--format", "json"])
        let first = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let o = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        #expect(o?["type"] as? String == "replay")
        #expect((o?["accepted"] as? [String: Any])?.keys.contains { $0.hasSuffix("substitute iso14443a.uid_cln") } == true, "\(r.stdout)")
    }

    @Test func usageErrors() throws {
        #expect(try CLI.run(["replay"]).status == 2)
        #expect(try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--against", "tape"]).status == 2)
        let badRules = CLI.temporaryFile(Array("forget everything\n".utf8))
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--rules", badRules])
        #expect(r.status == 2)
        #expect(r.stderr.contains(":1: unknown rule \"forget\" (ignore, substitute)"))
        // A misspelled key (issue 45): refused with the key meant, instead of never matching.
        let misspelled = CLI.temporaryFile(Array("ignore ntag.pack\nsubstitute iso14443a.uid_cl\n".utf8))
        let m = try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--rules", misspelled])
        #expect(m.status == 2)
        #expect(m.stderr.contains(":2: unknown field key \"iso14443a.uid_cl\"; the closest known key is iso14443a.uid_cln"), "\(m.stderr)")
    }

    /// `dissect --list-fields [PROTOCOL]` (issue 45): the registry as `tshark -G fields` prints its
    /// fields, and as JSON Lines; every key a replay rule above uses is in it.
    @Test func listFields() throws {
        let all = try CLI.run(["dissect", "--list-fields"])
        #expect(all.status == 0)
        let lines = all.stdout.split(separator: "\n")
        #expect(lines.contains("P\tISO 14443-3A\tiso14443a"))
        #expect(lines.contains("F\tPage\tntag.page\tbyte\tntag\tbyte 1 (page address)"), "\(lines.prefix(20))")
        for key in ["iso14443a.uid_cln", "iso14443a.bcc", "ntag.page_data", "ntag.pack", "ntag.nak", "ntag.ack", "mfc.auth.nr", "felica.idm"] {
            #expect(lines.contains { $0.split(separator: "\t").dropFirst(2).first == Substring(key) }, "\(key) is not listed")
        }
        let one = try CLI.run(["dissect", "--list-fields", "felica", "--format", "json"])
        #expect(one.status == 0)
        let objects = try one.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count > 10)
        #expect(objects.allSatisfy { ($0?["key"] as? String)?.hasPrefix("felica.") == true && $0?["protocol"] as? String == "felica" })
        let unknown = try CLI.run(["dissect", "--list-fields", "topaz9"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no protocol \"topaz9\""))
    }

    // Issue 20: a divergence report shows card data masked as dissect does (text and JSON).
    @Test func divergencesMaskCardData() throws {
        let trace = try String(contentsOfFile: CLI.root + "/Traces/emv-test-card-nfcpy.nfctrace", encoding: .utf8)
            .replacingOccurrences(of: "5F 24 03 28 12 31 90 00", with: "5F 24 03 29 12 31 90 00")
        let path = CLI.temporaryFile(Array(trace.utf8), suffix: ".nfctrace")
        for format in ["text", "json"] {
            let r = try CLI.run(["replay", path, "--against", "emulator:model:emv-test-card", "--format", format])
            #expect(r.status == 1)
            #expect(r.stdout.contains("29 12 31") || r.stdout.contains("291231"), "the divergence is the expiry date")
            #expect(!r.stdout.contains("41 11 11 11 11 11 11 11") && !r.stdout.contains("4111111111111111") && !r.stdout.contains("TEST/NFCTRACE"), "\(r.stdout)")
            #expect(r.stdout.contains(format == "json" ? "411111******1111" : "41 11 11 •• •• •• 11 11"), "\(r.stdout)")
        }
    }
}
