import Foundation
import Testing

/// The command line before ArgumentParser reads it (`CommandLinePrepass`, issue 51 points 4 and 17).
@Suite struct CommandLineTests {
    /// ArgumentParser took time in the square of a list's length: 16,000 files for `report` 17 s,
    /// `mfkey` with 8,000 words 3.6 s and 2,000 0.28 s in a release build (ratio 12.6 at 4n).
    @Test func longListsOfValuesTakeLinearTime() throws {
        try LinearTime.expect("mfkey with n words", n: 4_000) { n in
            let r = try CLI.run(["mfkey"] + Array(repeating: "52B0F519", count: n))
            #expect(r.status == 2 && r.stderr.contains("got \(n)"), "\(r.stderr)")
        }
        try LinearTime.expect("report with n missing files", n: 4_000) { n in
            let r = try CLI.run(["report", "-o", "-", "--detail-limit", "5"] + Array(repeating: "missing-capture", count: n))
            #expect(r.status == 74 && r.stderr.contains("missing-capture"), "\(r.stderr)")
        }
    }

    /// The lists come back whole and in order, wherever options stand between their words.
    @Test func listsComeBackInOrder() throws {
        let a = "Traces/ntag215-password-read.nfctrace", b = "Traces/sri512-read.nfctrace"
        let r = try CLI.run(["report", "--detail-limit", "0", a, b, a, "-o", "-", b, b, a, a])
        #expect(r.status == 0, "\(r.stderr)")
        let names = r.stdout.components(separatedBy: "\"name\":\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(names == ["ntag215-password-read.nfctrace", "sri512-read.nfctrace", "ntag215-password-read.nfctrace",
                          "sri512-read.nfctrace", "sri512-read.nfctrace", "ntag215-password-read.nfctrace", "ntag215-password-read.nfctrace"].map { Substring($0) },
                "\(names)")
        // After `--` every word is a value, even one that looks like an option.
        let words = try CLI.run(["mfkey", "--", "56DD8978", "1ED24A6A", "440D5913", "C2611A1B", "-58B8142"])
        #expect(words.status == 2 && words.stderr.contains("\"-58B8142\" is not 8 hex digits"), "\(words.stderr)")
    }

    /// Repeated options cannot be held back: more than 1,000 arguments besides the lists is a usage
    /// error at once (16,000 × `-V` took 58 s).
    @Test func tooManyOptions() throws {
        let r = try CLI.run(["dissect"] + Array(repeating: "-V", count: 16_000) + ["Traces/sri512-read.nfctrace"])
        #expect(r.status == 2 && r.stderr.contains("16001 arguments") && r.stderr.contains("at most 1000"), "\(r.stderr)")
        #expect(try CLI.run(["dissect"] + Array(repeating: "-V", count: 999) + ["Traces/sri512-read.nfctrace"]).status == 0)
    }

    /// Issue 51, point 17: `--session -1` was "Missing value for '--session <session>'".
    @Test func aNegativeNumberIsAValueThatIsChecked() throws {
        for form in [["--session", "-1"], ["--session=-1"]] {
            let r = try CLI.run(["emulate", "--from-trace", "Traces/ntag215-password-read.nfctrace"] + form + ["--udp", "0"])
            #expect(r.status == 2 && r.stderr.contains("sessions are numbered from 1, got -1"), "\(r.stderr)")
        }
    }

    /// Issue 51, point 17: a key printed into a full disk was lost with exit 0. Every command's
    /// standard output is flushed and checked before the exit.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full on this system"))
    func standardOutputThatCannotBeWritten() throws {
        for arguments in [["mfkey", "56DD8978", "1ED24A6A", "440D5913", "C2611A1B", "58B8142C"], ["emulate", "--list-models"],
                          ["--help"], ["--version"], ["ndef", "decode", "--help"], ["dissect", "Traces/sri512-read.nfctrace"]] {
            let r = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" > /dev/full", CLI.binary] + arguments, directory: CLI.root)
            let stderr = String(decoding: r.stderr, as: UTF8.self)
            #expect(r.status == 74 && stderr.contains("No space left on device"), "\(arguments): \(r.status) \(stderr)")
        }
        // The same commands with somewhere to write succeed.
        #expect(try CLI.run(["emulate", "--list-models"]).status == 0)
    }
}
