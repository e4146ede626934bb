import Testing
@testable import NFCFuzz

/// What `nfctrace fuzz` reads from libFuzzer (progress, crash stacks) and writes for it
/// (dictionaries), and how `--exec` judges a run. Fixtures are lines libFuzzer printed here.
@Suite struct RunParsingTests {
    @Test func progressLineOfOneJob() {
        let p = LibFuzzerProgress.parse("#1347\tREDUCE cov: 1320 ft: 5492 corp: 945/336Kb lim: 4096 exec/s: 1200 rss: 40Mb L: 33/3930 MS: 3 ChangeBit-Custom-Custom-")
        #expect(p == LibFuzzerProgress(executions: 1347, coverage: 1320, features: 5492, corpus: 945, executionsPerSecond: 1200, event: "REDUCE"))
    }

    @Test func progressLineOfForkMode() {
        let p = LibFuzzerProgress.parse("#5270: cov: 1122 ft: 2868 corp: 170 exec/s: 1936 oom/timeout/crash: 2/3/1 time: 2s job: 2 dft_time: 0")
        #expect(p == LibFuzzerProgress(executions: 5270, coverage: 1122, features: 2868, corpus: 170, executionsPerSecond: 1936, crashes: 1, timeouts: 3, ooms: 2))
    }

    @Test func otherLinesAreNotProgress() {
        for line in ["INFO: Seed: 1", "#", "==1== ERROR: libFuzzer: deadly signal", "    #4 0x55 in foo /a.swift:1:2", "MS: 1 Custom-"] {
            #expect(LibFuzzerProgress.parse(Substring(line)) == nil, "\(line)")
        }
    }

    @Test func progressLineForTheUser() {
        let p = LibFuzzerProgress(executions: 1_234_567, coverage: 812, features: 3012, corpus: 311, executionsPerSecond: 15_300, crashes: 0)
        #expect(p.line(target: "FuzzX", seconds: 3725) == "FuzzX 1:02:05 | 1.2M execs (15.3k/s) | cov 812 ft 3012 | corpus 311 | crashes 0")
    }

    static let naiveCrash = """
        ==10251== ERROR: libFuzzer: deadly signal
            #0 0x5563a59c8444 in __sanitizer_print_stack_trace /home/build-user/llvm-project/compiler-rt/lib/ubsan/ubsan_diag_standalone.cpp:31:3
            #1 0x5563a59af0f8 in fuzzer::PrintStackTrace() /home/build-user/llvm-project/compiler-rt/lib/fuzzer/FuzzerUtil.cpp:210:5
            #3 0x7fad9134404f  (/lib/x86_64-linux-gnu/libc.so.6+0x3c04f) (BuildId: 93ac61ec5a8eb1396f9fbd350e3169a558528a40)
            #4 0x5563a59c92a7 in specialized RangeReplaceableCollection<>.removeFirst() /<compiler-generated>
            #5 0x5563a59c92a7 in static NaiveTLVParser.parse(_:) /src/nfctrace/FuzzTesting/Sources/PlantedBugs/PlantedParsers.swift:16:35
            #6 0x5563a59c8a9a in fuzzTest(_:_:) /src/nfctrace/FuzzTesting/Sources/FuzzPlantedNaive/FuzzPlantedNaive.swift:7:24
            #7 0x5563a59c8a9a in LLVMFuzzerTestOneInput /<compiler-generated>:5:13
        """

    @Test func crashStackKeepsOnlyProjectFrames() {
        let report = CrashReport.parse(Self.naiveCrash)
        #expect(report.kind == .crash && report.reason == "libFuzzer: deadly signal")
        #expect(report.frames == ["static NaiveTLVParser.parse(_:) PlantedParsers.swift:16"])
    }

    @Test func mismatchesGroupByRuleNotDetails() {
        func log(_ message: String) -> String { "FuzzSupport/FuzzTarget.swift:32: Fatal error: FuzzTextTrace: \(message)\n==1== ERROR: libFuzzer: deadly signal\n" }
        let a = CrashReport.parse(log("a frame differs after write → read — frame 38: x vs y"))
        let b = CrashReport.parse(log("a frame differs after write → read — frame 2: z vs w"))
        let c = CrashReport.parse(log("frames lost after write → read — 8 written, 6 read back"))
        #expect(a.reason.hasPrefix("Fatal error: FuzzTextTrace: a frame differs"))
        #expect(a.signature == b.signature)
        #expect(a.signature != c.signature)
    }

    @Test func timeoutsAreTheirOwnKind() {
        let report = CrashReport.parse("==7== ERROR: libFuzzer: timeout after 5 seconds\n    #9 0x1 in Foo.bar() /x/Foo.swift:3:1\n")
        #expect(report.kind == .timeout && report.frames == ["Foo.bar() Foo.swift:3"])
    }

    @Test func dictionaryRoundTrip() {
        let entries: [[UInt8]] = [[0xE1, 0x10], Array("T".utf8), [0x22, 0x5C, 0x00], Array("urn:nfc:".utf8)]
        let text = FuzzDictionary.text(entries + [entries[0]], title: "t")
        #expect(text.contains("\"\\xE1\\x10\"") && text.contains("\"\\\"\\\\\\x00\""))
        #expect(FuzzDictionary.parse(text) == entries)
    }

    @Test(arguments: [
        (nil, 11, false, "crash(\"SIGSEGV\")"), (139, nil, false, "crash(\"SIGSEGV\")"), (134, nil, false, "crash(\"SIGABRT\")"),
        (1, nil, false, "ok"), (0, nil, false, "ok"), (nil, 9, true, "hang"), (77, nil, false, "ok"),
    ] as [(Int32?, Int32?, Bool, String)])
    func runsAreJudgedByHowTheyEnd(status: Int32?, signal: Int32?, timedOut: Bool, expected: String) {
        #expect("\(ExternalFuzzer.classify(status: status, signal: signal, timedOut: timedOut))" == expected)
    }

    @Test func exitStatusesCanCountAsCrashes() {
        #expect(ExternalFuzzer.classify(status: 1, signal: nil, timedOut: false, crashStatuses: [1]) == .crash("exit status 1"))
    }

    @Test func externalFuzzerIsDeterministicAndGrowsItsPool() {
        var a = ExternalFuzzer(shape: .ndef, seed: 7), b = ExternalFuzzer(shape: .ndef, seed: 7), c = ExternalFuzzer(shape: .ndef, seed: 7)
        let start = a.pool.count
        var same = true
        for _ in 0..<300 {
            let x = a.next(), y = b.next(), z = c.next()
            same = same && x == y
            a.record(x, .ok)
            b.record(y, .ok)
            c.record(z, .crash("SIGSEGV"))
        }
        #expect(same, "the same seed gave different inputs")
        #expect(a.pool.count > start && c.pool.count == start, "clean runs grow the pool, crashes do not")
    }

    @Test func libFuzzerVerdicts() {
        let inited = LibFuzzerProgress(executions: 2, event: "INITED"), done = LibFuzzerProgress(executions: 5000, event: "DONE")
        func judge(_ status: Int32?, _ signal: Int32?, _ last: LibFuzzerProgress?, done sawDone: Bool, artifacts: Int = 0, fork: Bool = false, killed: Bool = false) -> LibFuzzerVerdict {
            LibFuzzerVerdict.judge(status: status, signal: signal, timedOut: killed, last: last, sawDone: sawDone, newArtifacts: artifacts, forkMode: fork)
        }
        #expect(judge(0, nil, done, done: true) == .finished(executions: 5000))
        #expect(judge(1, nil, inited, done: false, artifacts: 1) == .crashed(inputs: 1))
        #expect(judge(nil, 4, nil, done: false, artifacts: 2) == .crashed(inputs: 2), "a crash input counts whatever the exit")
        #expect(judge(132, nil, nil, done: false) == .failed("libFuzzer printed no progress line: the target did not start"))
        #expect(judge(nil, 9, inited, done: false) == .failed("libFuzzer died of signal 9 and wrote no crash input"))
        #expect(judge(0, nil, inited, done: false) == .failed("libFuzzer stopped after 2 executions without finishing its run (no DONE line)"))
        #expect(judge(0, nil, LibFuzzerProgress(executions: 900), done: false, fork: true) == .finished(executions: 900), "fork mode prints no DONE")
        #expect(judge(nil, 9, done, done: true, killed: true) == .failed("libFuzzer did not stop at its time limit and was killed"))
    }
}
