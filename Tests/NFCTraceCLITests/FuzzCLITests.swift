import Foundation
import Testing

/// `nfctrace fuzz` without libFuzzer: the target list, usage errors, corpus generation,
/// fuzzing an external program, and `emulate --fuzz` read by nfcpy. (The libFuzzer runs
/// themselves are exercised by scripts/fuzz-smoke, which builds FuzzTesting/.)
@Suite struct FuzzCLITests {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "nfctrace-fuzz-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func listNamesEveryTargetAndShape() throws {
        let r = try CLI.run(["fuzz", "--list"])
        #expect(r.status == 0)
        for name in ["FuzzNDEFStrict", "FuzzType2Memory", "FuzzDissectFeliCa", "FuzzEmulateISO15693", "FuzzPcap", "felica-blocks", "frames-15693"] {
            #expect(r.stdout.contains(name), "\(name) missing from --list")
        }
    }

    /// A run is judged by how libFuzzer ended, not by the crash files alone: a stand-in for the
    /// libFuzzer binary (a script at the path `--no-build` uses) ends each way.
    @Test(arguments: [
        ("exit 132", 1, "printed no progress line: the target did not start"),
        ("echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2; kill -ILL $$", 1, "died of signal 4 and wrote no crash input"),
        ("echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2; exit 0", 1, "without finishing its run (no DONE line)"),
        ("echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2; exit 77", 1, "exited with status 77 and wrote no crash input"),
        ("echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2; echo '#5000\tDONE cov: 12 ft: 14 corp: 2/2b lim: 4 exec/s: 2500 rss: 31Mb' >&2; exit 0", 0, "no crashes"),
    ] as [(String, Int32, String)])
    func libFuzzerRunsAreJudgedByHowTheyEnd(script: String, status: Int32, message: String) throws {
        let checkout = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        let release = checkout + "/FuzzTesting/.build-fuzz/release"
        try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
        try Data("// stand-in\n".utf8).write(to: URL(fileURLWithPath: checkout + "/FuzzTesting/Package.swift"))
        let binary = release + "/FuzzPcap"
        try Data("#!/bin/sh\n\(script)\n".utf8).write(to: URL(fileURLWithPath: binary))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        let r = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", checkout + "/work"])
        #expect(r.status == status, "\(r.stdout)\n\(r.stderr)")
        #expect((r.stdout + r.stderr).contains(message), "\(r.stdout)\n\(r.stderr)")
        if status != 0 { #expect(!r.stdout.contains("no crashes"), "a run that did not run must not say \"no crashes\"") }
    }

    /// A stand-in FuzzPcap binary in `checkout + folder` (and the FuzzTesting/Package.swift that
    /// makes `checkout` a checkout) that finishes its run, running the shell command `line` (its
    /// output to stderr, which `nfctrace fuzz` keeps in fuzz.log) between libFuzzer's first and
    /// last lines.
    static func finishingStandIn(_ checkout: String, _ folder: String, saying line: String) throws {
        try FileManager.default.createDirectory(atPath: checkout + folder, withIntermediateDirectories: true)
        try Data("// stand-in\n".utf8).write(to: URL(fileURLWithPath: checkout + "/FuzzTesting/Package.swift"))
        let script = """
            #!/bin/sh
            echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2
            \(line) >&2
            echo '#5000\tDONE cov: 12 ft: 14 corp: 2/2b lim: 4 exec/s: 2500 rss: 31Mb' >&2
            exit 0
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: checkout + folder + "/FuzzPcap"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: checkout + folder + "/FuzzPcap")
    }

    /// `--configuration debug` runs the debug build's binary; the default is the release build's,
    /// missing here (exit 74); another configuration is a usage error.
    @Test func configurationDebugRunsTheDebugBuild() throws {
        let checkout = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        try Self.finishingStandIn(checkout, "/FuzzTesting/.build-fuzz/debug", saying: "echo 'build=debug'")
        let work = checkout + "/work"
        let r = try CLI.run(["fuzz", "FuzzPcap", "--configuration", "debug", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", work])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
        let log = (try? String(contentsOfFile: work + "/FuzzPcap/fuzz.log", encoding: .utf8)) ?? r.stderr
        #expect(log.contains("build=debug"), "\(log)")
        let release = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", work])
        #expect(release.status == 74 && release.stderr.contains("/FuzzTesting/.build-fuzz/release/FuzzPcap is not built"), "\(release.stderr)")
        let bad = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--configuration", "fast", "--package-path", checkout])
        #expect(bad.status == 2 && bad.stderr.contains("unknown configuration \"fast\" (release, debug)"), "\(bad.stderr)")
    }

    /// libFuzzer turns `-len_control` off for targets with a custom mutator; `nfctrace fuzz`
    /// passes libFuzzer's own default (100) unless `--len-control` says otherwise.
    @Test func lengthControlIsPassedToLibFuzzer() throws {
        let checkout = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        try Self.finishingStandIn(checkout, "/FuzzTesting/.build-fuzz/release", saying: "echo \"args: $*\"")
        for (flags, expected) in [([String](), "-len_control=100"), (["--len-control", "0"], "-len_control=0"), (["--len-control", "20"], "-len_control=20")] {
            let work = checkout + "/work-\(flags.count)-\(expected.count)"
            let r = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", work] + flags)
            #expect(r.status == 0, "\(flags): \(r.stdout)\n\(r.stderr)")
            let log = (try? String(contentsOfFile: work + "/FuzzPcap/fuzz.log", encoding: .utf8)) ?? r.stderr
            let args = log.split(separator: "\n").first { $0.hasPrefix("args: ") }.map { $0.split(separator: " ").map(String.init) } ?? []
            #expect(args.contains(expected) && args.contains("-max_len=4096") && args.filter { $0.hasPrefix("-len_control=") }.count == 1, "\(flags): \(log)")
        }
        let bad = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--len-control=-1", "--package-path", checkout])
        #expect(bad.status == 2 && bad.stderr.contains("--len-control at least 0"), "\(bad.stderr)")
    }

    /// `--sanitizer address` runs the ASan build's binary (its own scratch folder) with the
    /// sanitizer runtimes' options that make a report a crash; `--asan` is the same; an unknown
    /// sanitizer is a usage error.
    @Test func sanitizerAddressRunsTheASanBuild() throws {
        let checkout = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        for (folder, name) in [("/FuzzTesting/.build-fuzz-asan/release", "asan"), ("/FuzzTesting/.build-fuzz/release", "plain")] {
            // Says which build it is and what it was given.
            try Self.finishingStandIn(checkout, folder, saying: "echo \"build=\(name) ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS\"")
        }
        for flags in [["--sanitizer", "address"], ["--asan"], []] {
            let work = checkout + "/work-\(flags.count)"
            let r = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", work] + flags)
            #expect(r.status == 0, "\(flags): \(r.stdout)\n\(r.stderr)")
            let log = (try? String(contentsOfFile: work + "/FuzzPcap/fuzz.log", encoding: .utf8)) ?? r.stderr
            if flags.isEmpty {
                #expect(log.contains("build=plain ASAN_OPTIONS= UBSAN_OPTIONS="), "\(log)")
            } else {
                #expect(log.contains("build=asan ASAN_OPTIONS=abort_on_error=0:handle_abort=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"), "\(flags): \(log)")
            }
        }
        let bad = try CLI.run(["fuzz", "FuzzPcap", "--no-build", "--sanitizer", "memory", "--package-path", checkout])
        #expect(bad.status == 2 && bad.stderr.contains("unknown sanitizer \"memory\" (none, address)"), "\(bad.stderr)")
    }

    /// A checkout whose FuzzTesting/ holds stand-in libFuzzer binaries for every target: each
    /// one finishes its run, unless `modes` says it crashes (a crash input, a stack when run on
    /// it, a minimized input when asked), prints nothing (dies before starting), or is stopped by
    /// Ctrl-C (libFuzzer's exit 72).
    static func standIns(_ modes: [String: String]) throws -> (checkout: String, targets: [String]) {
        let list = try CLI.run(["fuzz", "--list"]).stdout
        let targets = list.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("targets") }.dropFirst().prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        let checkout = temporaryDirectory()
        let release = checkout + "/FuzzTesting/.build-fuzz/release"
        try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
        try Data("// stand-in\n".utf8).write(to: URL(fileURLWithPath: checkout + "/FuzzTesting/Package.swift"))
        let inited = "echo '#2\tINITED cov: 10 ft: 10 corp: 1/1b exec/s: 0 rss: 30Mb' >&2"
        let done = "echo '#5000\tDONE cov: 12 ft: 14 corp: 2/2b lim: 4 exec/s: 2500 rss: 31Mb' >&2"
        for t in targets {
            let run: String
            switch modes[t] {
            case "crash"?:
                run = "\(inited); echo x > \"${P}crash-0123456789abcdef\"; echo '==7== ERROR: libFuzzer: deadly signal' >&2; exit 1"
            case "silent"?: run = "exit 132"
            case "interrupt"?: run = "\(inited); echo '==7== libFuzzer: run interrupted; exiting' >&2; exit 72"
            default: run = "\(inited); \(done); exit 0"
            }
            let script = """
                #!/bin/sh
                P=""; E=""; M=""
                for a in "$@"; do case "$a" in -artifact_prefix=*) P="${a#-artifact_prefix=}";; -exact_artifact_path=*) E="${a#-exact_artifact_path=}";; -minimize_crash=1) M=1;; esac; done
                if [ -n "$M" ]; then echo m > "$E"; exit 0; fi
                if [ -z "$P" ]; then echo 'Fatal error: planted in \(t)' >&2; echo '    #0 0x1 in \(t).planted /src/Planted.swift:7:3' >&2; exit 1; fi
                \(run)
                """
            try Data((script + "\n").utf8).write(to: URL(fileURLWithPath: release + "/" + t))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: release + "/" + t)
        }
        return (checkout, targets)
    }

    /// Issue 22, point 5: `fuzz --all` runs every target in turn and writes the summary per target
    /// (Markdown and JSON): outcomes, figures, the crash grouped by its stack with a reproduction
    /// command and a minimized input for the regression folder, the target that did not start.
    @Test func campaignSummarizesEveryTarget() throws {
        let (checkout, targets) = try Self.standIns(["FuzzPcap": "crash", "FuzzTextTrace": "silent"])
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        #expect(targets.count >= 20 && targets.contains("FuzzPcap") && targets.contains("FuzzTextTrace"), "\(targets)")
        let work = checkout + "/work"
        let r = try CLI.run(["fuzz", "--all", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout, "--work", work])
        #expect(r.status == 1 && r.stderr.contains("1 crash, 1 target that did not run as they should"), "\(r.stdout)\n\(r.stderr)")
        let summaries = try FileManager.default.contentsOfDirectory(atPath: work).filter { $0.hasPrefix("summary-") }.sorted()
        #expect(summaries.count == 2 && summaries.first?.hasSuffix(".json") == true && summaries.last?.hasSuffix(".md") == true, "\(summaries)")
        guard summaries.count == 2 else { return }
        let markdown = try String(contentsOfFile: work + "/" + summaries[1], encoding: .utf8)
        for t in targets { #expect(markdown.contains("| \(t) | "), "\(t) has a row") }
        #expect(markdown.contains("| FuzzPcap | crashed |") && markdown.contains("| FuzzTextTrace | failed: libFuzzer printed no progress line"), "\(markdown)")
        #expect(markdown.contains("Fatal error: planted in FuzzPcap") && markdown.contains("FuzzPcap.planted Planted.swift:7"), "\(markdown)")
        #expect(markdown.contains("cp \(work)/FuzzPcap/regressions/crash-0123456789abcdef \(checkout)/Tests/NFCFuzzTests/FuzzRegressions/FuzzPcap/"), "\(markdown)")
        #expect(FileManager.default.fileExists(atPath: work + "/FuzzPcap/regressions/crash-0123456789abcdef"), "the minimized input")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work + "/" + summaries[0]))) as? [String: Any]
        let rows = json?["targets"] as? [[String: Any]] ?? []
        #expect(rows.count == targets.count && json?["interrupted"] as? Bool == false)
        let pcap = rows.first { $0["target"] as? String == "FuzzPcap" }
        #expect(pcap?["outcome"] as? String == "crashed" && (pcap?["crashes"] as? [Any])?.count == 1, "\(String(describing: pcap))")
        let finished = rows.filter { $0["outcome"] as? String == "finished" }
        #expect(finished.count == targets.count - 2 && finished.allSatisfy { $0["executions"] as? Int == 5000 }, "\(finished.count)")
    }

    /// Ctrl-C during a campaign (libFuzzer's interrupt exit): the targets after it are not run,
    /// and the summary of what ran is written all the same; no verdict of "no crashes".
    @Test func campaignStoppedByCtrlCStillWritesItsSummary() throws {
        let (checkout, targets) = try Self.standIns([:])
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        guard targets.count > 3 else { return }
        let (checkout2, _) = try Self.standIns([targets[2]: "interrupt"])
        defer { try? FileManager.default.removeItem(atPath: checkout2) }
        let work = checkout2 + "/work"
        let r = try CLI.run(["fuzz", "--all", "--no-build", "--no-minimize", "--time", "1s", "--package-path", checkout2, "--work", work])
        #expect(r.status == 1 && r.stderr.contains("stopped by Ctrl-C: 3 of \(targets.count) targets ran"), "\(r.stdout)\n\(r.stderr)")
        let md = try FileManager.default.contentsOfDirectory(atPath: work).first { $0.hasPrefix("summary-") && $0.hasSuffix(".md") }
        let markdown = try md.map { try String(contentsOfFile: work + "/" + $0, encoding: .utf8) } ?? ""
        #expect(markdown.contains("stopped by Ctrl-C") && markdown.contains("| \(targets[2]) | interrupted |") && markdown.contains("| \(targets[3]) | not run |"), "\(markdown)")
    }

    @Test(arguments: [
        (["fuzz"], "give a target"),
        (["fuzz", "FuzzNope"], "unknown target \"FuzzNope\""),
        (["fuzz", "FuzzNDEFStrict", "--time", "ten"], "--time takes a duration"),
        (["fuzz", "--exec", "true @@"], "--exec needs --shape"),
        (["fuzz", "--exec", "true", "--shape", "json"], "--exec needs --shape"),
        (["emulate", "--model", "slix2", "--fuzz", "ndef", "--udp", "0"], "--fuzz needs an NTAG/Ultralight tag"),
        (["emulate", "--model", "ntag215", "--fuzz", "type5", "--udp", "0"], "--fuzz takes ndef or type2"),
    ] as [([String], String)])
    func usageErrorsExitWith2(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// The committed Corpus/ is what `scripts/make-corpus` writes: regenerating it changes nothing.
    @Test func corpusIsReproducible() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["fuzz", "--make-corpus", dir])
        #expect(r.status == 0, "\(r.stderr)")
        let fm = FileManager.default
        let made = try fm.subpathsOfDirectory(atPath: dir).filter { !$0.hasSuffix("/") }.sorted()
        let committed = try fm.subpathsOfDirectory(atPath: CLI.root + "/Corpus").sorted()
        #expect(made == committed, "Corpus/ is stale: run scripts/make-corpus")
        for path in made where !fm.fileExists(atPath: dir + "/" + path + "/.") {
            #expect(fm.contents(atPath: dir + "/" + path) == fm.contents(atPath: CLI.root + "/Corpus/" + path), "\(path) differs")
        }
    }

    /// A program that crashes (SIGSEGV) on inputs holding a Text record and hangs on a URI record:
    /// both are found, their inputs kept, and the exit status says so.
    @Test func externalProgramCrashesAndHangsAreKept() throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let script = "grep -q T @@ && kill -SEGV $$; grep -q U @@ && sleep 5; exit 0"
        let r = try CLI.run(["fuzz", "--exec", script, "--shape", "ndef", "--runs", "60", "--timeout", "1", "--seed", "3", "--out", out])
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("crash(\"SIGSEGV\")") && r.stdout.contains("hang"), "\(r.stdout)")
        #expect(r.stdout.contains("reproduce: "))
        let kept = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(kept.contains { $0.hasPrefix("crash-") } && kept.contains { $0.hasPrefix("hang-") })
        for crash in kept where crash.hasPrefix("crash-") && !crash.hasSuffix(".stderr") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + crash))
            #expect(bytes.contains(UInt8(ascii: "T")), "a kept crash input does not crash the program")
        }
    }

    @Test func cleanProgramFindsNothing() throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try CLI.run(["fuzz", "--exec", "cat > /dev/null", "--shape", "type5", "--runs", "40", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("40 runs") && r.stdout.contains("no crashes or hangs"))
    }

    /// nfcpy reads a tag whose NDEF content changes at every field-on; every served memory is kept.
    @Test func emulateFuzzServesFreshContentToNfcpy() throws {
        guard let python = Python.interpreter else {
            if Python.required { Issue.record("nfcpy is not installed; scripts/setup installs it into .build-venv") }
            return
        }
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let emulator = try RunningEmulator(["--model", "ntag215", "--fuzz", "ndef", "--fuzz-seed", "5", "--fuzz-out", out])
        #expect(emulator.port != 0, "the emulator did not start: \(emulator.log)")
        var answered = 0
        for _ in 0..<4 {
            let r = try ChildProcess.run(python, [CLI.root + "/Tests/NFCTraceCLITests/Python/nfcpy_client.py", "udp:127.0.0.1:\(emulator.port)", "read"])
            if r.status == 0 { answered += 1 }
        }
        _ = emulator.stop()
        let sessions = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix("session-") }
        #expect(answered > 0, "nfcpy never read the fuzzed tag: \(emulator.log)")
        #expect(sessions.count >= 4, "\(sessions)")
        let contents = Set(try sessions.map { try Data(contentsOf: URL(fileURLWithPath: out + "/" + $0)) })
        #expect(contents.count >= 3, "the served content did not change between sessions")
        #expect(contents.allSatisfy { $0.count == 540 }, "NTAG215 page dumps")
        #expect(emulator.log.contains("fuzz: session 1: ndef content"))
    }
}
