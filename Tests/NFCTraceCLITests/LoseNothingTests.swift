import Foundation
import Testing

/// Issue 24, one test per finding of the hostile-input probe: nothing nfctrace writes may
/// destroy a file, no input may trap it, make it grow without bound, or stall the emulator.
@Suite struct LoseNothingTests {
    /// A fresh folder for one test's files.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "nfctrace-lose-nothing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    /// Files in `folder` other than `keep`: temporaries left behind.
    static func leftovers(_ folder: String, keep: Set<String>) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !keep.contains($0) }
    }

    /// A text trace of `pairs` REQA/ATQA exchanges (2 × pairs frames), written by the test.
    static func bigTrace(_ pairs: Int, at path: String) {
        var text = "nfctrace 1\n@timebase us\n"
        text.reserveCapacity(pairs * 30)
        var t = 0
        for _ in 0..<pairs {
            text += "\(t) R 26/7\n\(t + 100) T 44 00\n"
            t += 1100
        }
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    // MARK: finding 1: convert onto its own input

    @Test(arguments: ["pcap", "nfctrace"])
    func convertOntoItsOwnInputIsRefusedAndLosesNothing(format: String) throws {
        let dir = try Self.folder()
        let big = dir + "/big.nfctrace"
        Self.bigTrace(5000, at: big)   // > 64 KiB, where the old convert cut the file
        let file = dir + "/x.\(format)"
        if format == "nfctrace" {
            try FileManager.default.copyItem(atPath: big, toPath: file)
        } else {
            #expect(try CLI.run(["convert", big, file]).status == 0)
        }
        let before = Self.bytes(file)
        #expect(before.count > 65_536)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.\(format)", withDestinationPath: file)
        try FileManager.default.linkItem(atPath: file, toPath: dir + "/hard.\(format)")
        for (input, output) in [(file, file), (dir + "/link.\(format)", file), (file, dir + "/link.\(format)"), (dir + "/hard.\(format)", file)] {
            let r = try CLI.run(["convert", input, output])
            #expect(r.status == 2, "\(input) → \(output)")
            #expect(r.stderr.contains("does not write onto a file it reads"))
            #expect(Self.bytes(file) == before)
        }
        // Standard input redirected from the output file counts too.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["convert", "-", file]
        p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 2)
        #expect(Self.bytes(file) == before)
    }

    @Test func ndefEncodeDoesNotWriteOntoItsPayload() throws {
        let dir = try Self.folder()
        let payload = dir + "/payload.bin"
        FileManager.default.createFile(atPath: payload, contents: Data("keep me".utf8))
        let r = try CLI.run(["ndef", "encode", "--mime", "text/plain:" + payload, "-o", payload])
        #expect(r.status == 2)
        #expect(String(decoding: Self.bytes(payload), as: UTF8.self) == "keep me")
        let bad = try CLI.run(["ndef", "encode", "--uri", "https://example.com", "-o", dir + "/missing/out.hex"])
        #expect(bad.status == 74)
    }

    @Test func textToTextKeepsCommentLines() throws {
        let dir = try Self.folder()
        let source = CLI.root + "/Traces/felica-errors.nfctrace"
        let out = dir + "/copy.nfctrace"
        #expect(try CLI.run(["convert", source, out]).status == 0)
        let comments = { (path: String) in
            String(decoding: Self.bytes(path), as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("#") }
        }
        #expect(comments(source).count > 5)
        #expect(comments(out) == comments(source))
        // And again from the copy: nothing is lost on a second pass.
        let again = dir + "/again.nfctrace"
        #expect(try CLI.run(["convert", out, again]).status == 0)
        #expect(Self.bytes(again) == Self.bytes(out))
    }

    /// The CLI on cuts of one small file of every format (every byte is cut in process by
    /// CutPointTests): exit 0 or 65, the frames before the cut printed, never more.
    @Test(arguments: ["pcap", "pcapng", "nfctrace", "trace"])
    func cutFilesExit0Or65WithTheFramesBeforeTheCut(format: String) throws {
        let dir = try Self.folder()
        let file = dir + "/article." + format
        #expect(try CLI.run(["convert", "Traces/ntag215-password-read.pcap", file] + (format == "trace" ? ["--pm3-times", "first"] : [])).status == 0)
        let bytes = Self.bytes(file)
        let options = format == "trace" ? ["--tech", "14443a"] : []
        let frameLines = { (text: String) in text.split(separator: "\n").filter { $0.first == " " && !$0.contains("──") && $0.split(separator: " ").first.map { Int($0) != nil } == true } }
        let full = frameLines(try CLI.run(["dissect"] + options + ["-"], stdin: bytes).stdout)
        #expect(full.count > 40)
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
            let r = try CLI.run(["dissect"] + options + ["-"], stdin: bytes.prefix(cut))
            #expect(r.status == 0 || r.status == 65, "\(format) cut at \(cut): exit \(r.status)")
            let lines = frameLines(r.stdout)
            #expect(lines.count <= full.count, "\(format) cut at \(cut)")
            #expect(lines.prefix(max(0, lines.count - 1)).map { $0.prefix(20) } == full.prefix(max(0, lines.count - 1)).map { $0.prefix(20) }, "\(format) cut at \(cut)")
        }
    }

    // MARK: finding 2: writes are not atomic

    /// Waits until a conversion into `target` is writing: its temporary beside the target
    /// (`.NAME.nfctrace-XXXXXX`, AtomicFile) exists and has grown between two looks while the
    /// process still runs. Returns the temporary's name; nil when that state was not reached
    /// within 60 s or the process ended first.
    static func temporaryGrowing(beside target: String, while process: Process) -> String? {
        let dir = (target as NSString).deletingLastPathComponent
        let prefix = "." + (target as NSString).lastPathComponent + ".nfctrace-"
        var seen: (name: String, size: UInt64)?
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            let name = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).first { $0.hasPrefix(prefix) }
            if let name, let size = (try? FileManager.default.attributesOfItem(atPath: dir + "/" + name))?[.size] as? UInt64 {
                if let earlier = seen, earlier.name == name, size > earlier.size { return name }
                seen = (name, size)
            }
            usleep(2_000)
        }
        return nil
    }

    /// SIGTERM, SIGINT and SIGHUP in the middle of a conversion's write, once its temporary exists
    /// and is growing (and SIGKILL): the old output is untouched and, but for SIGKILL, the
    /// temporary is removed.
    @Test func interruptedConvertLeavesTheOldFile() throws {
        let dir = try Self.folder()
        let big = dir + "/big.nfctrace"
        Self.bigTrace(300_000, at: big)
        let target = dir + "/out.pcap"
        FileManager.default.createFile(atPath: target, contents: Data("the old file".utf8))
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGKILL] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CLI.binary)
            p.arguments = ["convert", big, target, "--link-type", "nfctrace"]
            p.standardError = FileHandle.nullDevice
            try p.run()
            let temporary = Self.temporaryGrowing(beside: target, while: p)
            kill(p.processIdentifier, signal)
            p.waitUntilExit()
            // The state the test is about: the signal came while the temporary was being written.
            #expect(temporary != nil, "signal \(signal): the conversion's temporary was never seen growing")
            #expect(p.terminationReason == .uncaughtSignal, "signal \(signal) ended the conversion")
            #expect(p.terminationStatus == signal)
            #expect(String(decoding: Self.bytes(target), as: UTF8.self) == "the old file", "signal \(signal)")
            let left = Self.leftovers(dir, keep: ["big.nfctrace", "out.pcap"])
            if signal == SIGKILL {
                // Nothing can clean up after SIGKILL: the temporary stays, and only it.
                #expect(temporary.map { left == [$0] } ?? false, "signal \(signal): \(left)")
            } else {
                #expect(left == [], "signal \(signal)")
            }
        }
    }

    /// A file-size limit stands in for a full disk: the write fails (74), the old file stays.
    @Test(arguments: ["out.pcap", "out.pcapng", "out.nfctrace", "out.trace"])
    func fullDiskLeavesTheOldFile(name: String) throws {
        let dir = try Self.folder()
        let big = dir + "/big.nfctrace"
        Self.bigTrace(20_000, at: big)
        let target = dir + "/" + name
        FileManager.default.createFile(atPath: target, contents: Data("the old file".utf8))
        let extra = name.hasSuffix(".trace") ? ["--pm3-times", "wrap"] : []
        let r = try ChildProcess.run("/bin/sh", ["-c", "ulimit -f 64; exec \"$0\" \"$@\"", CLI.binary, "convert", big, target] + extra)
        #expect(r.status == 74)
        #expect(String(decoding: r.stderr, as: UTF8.self).contains("File too large"))
        #expect(String(decoding: Self.bytes(target), as: UTF8.self) == "the old file")
        #expect(Self.leftovers(dir, keep: ["big.nfctrace", name]) == [])
    }

    @Test func saveOnAFullDiskKeepsThePreviousDump() throws {
        let dir = try Self.folder()
        let dump = dir + "/tag.nfc"
        let emulator = try Emulator(["--model", "ntag215", "--save", dump])
        emulator.stop(SIGTERM)
        #expect(emulator.status == 0)
        let previous = Self.bytes(dump)
        #expect(previous.count > 2048)
        // The next run's save cannot be written whole: the previous dump must survive it.
        let limited = try Emulator([dump, "--save", dump], limitFileSize: 1)
        limited.stop(SIGTERM)
        #expect(limited.status == 74)
        #expect(Self.bytes(dump) == previous)
        #expect(Self.leftovers(dir, keep: ["tag.nfc"]) == [])
        // A dump cut short (what the old code left) is refused, not loaded with zeros.
        let cut = dir + "/cut.nfc"
        let lineEnd = previous.prefix(previous.count * 2 / 3).lastIndex(of: 0x0A) ?? 0
        FileManager.default.createFile(atPath: cut, contents: previous.prefix(through: lineEnd))
        let r = try CLI.run(["emulate", cut, "--udp", "0"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("cut short"))
    }

    @Test func saveToAnUnwritablePathFailsBeforeServing() throws {
        let dir = try Self.folder()
        for path in [dir + "/no/such/folder/tag.nfc", dir] {
            let r = try CLI.run(["emulate", "--model", "ntag215", "--udp", "0", "--save", path])
            #expect(r.status == 74)
            #expect(!r.stderr.contains("emulating"), "found before serving")
        }
    }

    @Test(arguments: [SIGHUP, SIGINT, SIGTERM])
    func everyStopSignalSaves(signal: Int32) throws {
        let dir = try Self.folder()
        let dump = dir + "/tag.nfc"
        let emulator = try Emulator(["--model", "ntag215", "--save", dump])
        #expect(emulator.exchange("106A 26") == "106A 4400")
        emulator.stop(signal)
        #expect(emulator.status == 0)
        #expect(String(decoding: Self.bytes(dump), as: UTF8.self).contains("Filetype: Flipper NFC device"))
    }

    // MARK: finding 3: times 292 years apart

    @Test(arguments: [[], ["-V"], ["--format", "json"]])
    func timesOutOfRangeAreDamageNotATrap(options: [String]) throws {
        for text in ["nfctrace 1\n0 R 26/7\n9300000000000000 T 44 00\n", "nfctrace 1\n0 R 26/7\n-9223372036854775808 T 44 00\n"] {
            let r = try CLI.run(["dissect"] + options + ["-"], stdin: Data(text.utf8))
            #expect(r.status == 65)
            #expect(r.stderr.contains("beyond the 64-bit nanosecond range"))
            #expect(r.stdout.contains("REQA"), "the frame before the damage")
        }
        // In range but 584 years apart: printed exactly.
        let extremes = "nfctrace 1\n@timebase ns\n0 R 26/7\n9223372036854775807 T 44 00\n-9223372036854775808 R 26/7\n"
        let r = try CLI.run(["dissect"] + options + ["-"], stdin: Data(extremes.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains("9223372036854775.8"))
        #expect(r.stdout.contains("-9223372036854775.8"))
    }

    // MARK: finding 6: silent wrong data

    @Test func proxmark3OutputDoesNotWrapTimes() throws {
        let dir = try Self.folder()
        let trace = dir + "/long.nfctrace"
        FileManager.default.createFile(atPath: trace, contents: Data("nfctrace 1\n@timebase us\n0 R 26/7\n400000000 R 26/7\n".utf8))
        let out = dir + "/out.trace"
        let plain = try CLI.run(["convert", trace, out])
        #expect(plain.status == 65)
        #expect(plain.stderr.contains("32-bit carrier counter"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try CLI.run(["convert", trace, out, "--pm3-times", "first"]).status == 65)
        #expect(try CLI.run(["convert", trace, out, "--pm3-times", "wrap"]).status == 0)
        // What fits is written as it is, and read back the same.
        FileManager.default.createFile(atPath: trace, contents: Data("nfctrace 1\n@timebase us\n0 R 26/7\n300000000 R 26/7\n".utf8))
        #expect(try CLI.run(["convert", trace, out, "--pm3-times", "first"]).status == 0)
        let back = try CLI.run(["convert", "--tech", "14443a", out, "-", "--to", "nfctrace"])
        #expect(back.stdout.contains("4068000000..")) // 300 s in carrier periods
    }

    @Test func pcapDoesNotWrapAFarOrigin() throws {
        let dir = try Self.folder()
        let trace = dir + "/far.nfctrace"
        FileManager.default.createFile(atPath: trace, contents: Data("nfctrace 1\n@timebase us\n@origin 5000000000000000\n0 R 26/7\n".utf8))
        let r = try CLI.run(["convert", trace, dir + "/far.pcap"])
        #expect(r.status == 65)
        #expect(r.stderr.contains("outside what pcap (1970 to 2106) can hold"))
        #expect(try CLI.run(["convert", trace, dir + "/far.pcapng"]).status == 0)
        let back = try CLI.run(["convert", dir + "/far.pcapng", "-", "--to", "nfctrace"])
        #expect(back.stdout.contains("@origin 5000000000000000"))
    }

    // MARK: finding 4: a hostile peer and a stderr nobody reads

    /// The emulator's stderr is a pipe filled to the brim before it starts and never read: it
    /// must still answer after a flood of junk (escape sequences included), and stop and save
    /// on SIGTERM. What it wrote is then read: no control character from the peer in it.
    @Test func aStalledStderrNeitherStallsNorSilencesTheEmulator() throws {
        let dir = try Self.folder()
        let dump = dir + "/tag.nfc"
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        // Fill the pipe, then make it blocking again (the child shares this file description).
        let flags = fcntl(fds[1], F_GETFL)
        _ = fcntl(fds[1], F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
        var filled = 0
        while true {
            let n = filler.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            filled += n
        }
        _ = fcntl(fds[1], F_SETFL, flags)
        #expect(filled >= 4096)
        let emulator = try Emulator(["--model", "ntag215", "--save", dump], stderr: FileHandle(fileDescriptor: fds[1], closeOnDealloc: false))
        close(fds[1])
        let junk = Data("\u{1B}[2J\u{1B}]0;owned\u{07} not a frame".utf8)
        for _ in 0..<5000 { emulator.send(junk) }
        #expect(emulator.exchange("106A 26") == "106A 4400", "answers while stderr is blocked")
        emulator.stop(SIGTERM, seconds: 10)
        #expect(emulator.status == 0)
        #expect(FileManager.default.fileExists(atPath: dump), "saved although stderr is blocked")
        // Whatever the emulator managed to write after the filler has no raw ESC or BEL.
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        var written: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            written += buffer[0..<n]
        }
        close(fds[0])
        let own = written.drop { $0 == UInt8(ascii: "x") }
        #expect(!own.contains(0x1B) && !own.contains(0x07))
    }

    @Test func peerBytesAreEscapedAndRateLimited() throws {
        let emulator = try Emulator(["--model", "ntag215"])
        for _ in 0..<300 { emulator.send(Data("\u{1B}[2J\u{1B}]0;owned\u{07}".utf8)) }
        #expect(emulator.exchange("106A 26") == "106A 4400")
        emulator.stop(SIGTERM)
        let err = String(decoding: emulator.stderr, as: UTF8.self)
        #expect(!err.contains("\u{1B}"))
        #expect(err.contains("\\x1B[2J\\x1B]0;owned\\x07"))
        let lines = err.split(separator: "\n").filter { $0.contains("no nfcpy frame") }
        #expect(lines.count >= 1 && lines.count <= 40, "rate limited: \(lines.count) lines for 300 datagrams")
        #expect(err.contains("dropped (rate limit)"))
    }

    // MARK: finding 5: input that never ends

    /// 10 s of /dev/zero into each command: every one ends by itself with exit 65, under 64 MiB.
    @Test(arguments: [["ndef", "decode", "-"], ["ndef", "decode", "--hex", "-"], ["emulate", "/dev/stdin", "--udp", "0"],
                      ["emulate", "--cassette", "/dev/stdin", "--udp", "0"], ["dissect", "-"], ["dissect", "--from", "pm3", "-"],
                      ["convert", "-", "/dev/null", "--to", "pcap"], ["replay", "-"], ["emulate", "--from-trace", "/dev/stdin", "--udp", "0"],
                      ["ndef", "encode", "--mime", "a/b:/dev/stdin"], ["replay", CLI.root + "/Traces/ntag215-password-read.pcap", "--rules", "/dev/stdin"]])
    func zerosThatNeverEndStopWithAnError(arguments: [String]) throws {
        let r = try ChildProcess.run("/usr/bin/time", ["-f", "maxrss %M", "/bin/sh", "-c", "exec \"$0\" \"$@\" < /dev/zero", CLI.binary] + arguments, seconds: 10)
        #expect(!r.timedOut)
        let err = String(decoding: r.stderr, as: UTF8.self)
        #expect(r.status == 65, "\(err)")
        let kib = err.split(separator: "\n").last { $0.hasPrefix("maxrss ") }.flatMap { Int($0.dropFirst(7)) } ?? .max
        #expect(kib < 64 * 1024, "peak RSS \(kib) KiB")
    }

    // MARK: finding 7: damage reported by every detector

    @Test func aProxmark3TraceCutMidRecordIsDamageNotUnknown() throws {
        let trace = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/../shared/pm3-traces/hf_14a_mfu.trace"))
        let full = try CLI.run(["dissect", "--from", "pm3", "-"], stdin: trace)
        #expect(full.status == 0)
        let cut = trace.prefix(288 + 5)
        let detected = try CLI.run(["dissect", "-"], stdin: cut)
        let forced = try CLI.run(["dissect", "--from", "pm3", "-"], stdin: cut)
        #expect(detected.status == 65)
        #expect(detected.stderr == forced.stderr)
        #expect(detected.stderr.contains("damaged at byte 288 (frame 19)"))
        #expect(detected.stdout == forced.stdout)
    }

    @Test func lineOffsetsForLFCRLFAndCR() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let good = ["nfctrace 1", "# a comment", "", "0 R 26/7", "100 T 44 00"].joined(separator: ending) + ending
            let r = try CLI.run(["dissect", "-"], stdin: Data(good.utf8))
            #expect(r.status == 0, "ending \(Array(ending.utf8))")
            #expect(r.stdout.contains("ATQA"))
            let bad = good + "200 X 00" + ending
            let damaged = try CLI.run(["dissect", "-"], stdin: Data(bad.utf8))
            #expect(damaged.status == 65)
            #expect(damaged.stderr.contains("damaged at byte \(good.utf8.count) (frame 3): line 6:"), "ending \(Array(ending.utf8)): \(damaged.stderr)")
        }
        // The other line-based readers: Flipper dumps and rules files.
        for ending in ["\n", "\r\n", "\r"] {
            let dump = ["Filetype: Flipper NFC device", "Version: 4", "Device type: NTAG/Ultralight", "UID 04"].joined(separator: ending)
            let r = try CLI.run(["emulate", "/dev/stdin", "--udp", "0"], stdin: Data(dump.utf8))
            #expect(r.status == 65)
            #expect(r.stderr.contains("/dev/stdin:4"), "ending \(Array(ending.utf8)): \(r.stderr)")
        }
        let blank = try CLI.run(["dissect", "--from", "nfctrace", "-"], stdin: Data("\n\n\n".utf8))
        #expect(blank.stderr.contains("damaged at byte 3 (frame 1): line 4: the file ends without the header line"))
    }

    // MARK: finding 8: exit codes

    @Test func replayNamesTheDumpWithTheRightExitCode() throws {
        let dir = try Self.folder()
        let bad = dir + "/bad.nfc"
        FileManager.default.createFile(atPath: bad, contents: Data("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\n".utf8))
        let malformed = try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--against", "emulator:" + bad])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains(bad))
        let missing = try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--against", "emulator:/nonexistent.nfc"])
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("/nonexistent.nfc: cannot open"))
    }

    @Test func emulateUsageErrors() throws {
        let slix = try CLI.run(["emulate", "--model", "slix2", "--udp", "0"])
        #expect(slix.status == 2)
        #expect(slix.stderr.contains("no ISO 15693"))
        let dump = CLI.root + "/../shared/dumps/" + (try FileManager.default.contentsOfDirectory(atPath: CLI.root + "/../shared/dumps").first { $0.hasSuffix(".nfc") } ?? "")
        let both = try CLI.run(["emulate", dump, "--model", "ntag215", "--udp", "0"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give one tag source"))
        let txt = try CLI.run(["emulate", "--model", "ntag215", "--udp", "0", "--record", NSTemporaryDirectory() + "x.txt"])
        #expect(txt.status == 2)
        #expect(txt.stderr.contains(".nfctrace, .pcap or .pcapng"))
    }

    // MARK: finding 9: minor points

    @Test func loneTrailingNibbleIsAnError() throws {
        for text in ["D1 01 0", "D1010", "d1 01 04 54 02 65 6e 4"] {
            let r = try CLI.run(["ndef", "decode", "--hex", "-"], stdin: Data(text.utf8))
            #expect(r.status == 65, "\(text)")
        }
        #expect(try CLI.run(["ndef", "decode", "--hex", "-"], stdin: Data("D1 01 01 54 02".utf8)).status != 65)
    }

    @Test func dumpsThatClaimTooMuchAreRefused() throws {
        let dir = try Self.folder()
        let dump = dir + "/tag.nfc"
        let made = try Emulator(["--model", "ntag215", "--save", dump])
        made.stop(SIGTERM)
        let text = String(decoding: Self.bytes(dump), as: UTF8.self)
        for (find, replace, message) in [("Version: 4", "Version: 999", "file format version"),
                                         ("Pages read: 135", "Pages read: 231", "231 pages read")] {
            #expect(text.contains(find))
            let path = dir + "/edited.nfc"
            FileManager.default.createFile(atPath: path, contents: Data(text.replacingOccurrences(of: find, with: replace).utf8))
            let r = try CLI.run(["emulate", path, "--udp", "0"])
            #expect(r.status == 65)
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
    }
}

/// `nfctrace emulate … --udp PORT` as a child process, spoken to over nfcpy's UDP protocol.
final class Emulator {
    let process = Process()
    let port: UInt16
    let fd: Int32
    private let errorPipe: Pipe?
    private(set) var stderr = Data()
    var status: Int32 { process.isRunning ? -1 : process.terminationStatus }

    init(_ arguments: [String], stderr: FileHandle? = nil, limitFileSize blocks: Int? = nil) throws {
        port = Self.freePort()
        var command = [CLI.binary, "emulate"] + arguments + ["--udp", String(port)]
        if let blocks {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            command = ["-c", "ulimit -f \(blocks); exec \"$0\" \"$@\""] + command
        } else {
            process.executableURL = URL(fileURLWithPath: command.removeFirst())
        }
        process.arguments = command
        if let stderr {
            process.standardError = stderr
            errorPipe = nil
        } else {
            let pipe = Pipe()
            process.standardError = pipe
            errorPipe = pipe
        }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Ready when it answers a REQA: stop at the first answer (a `for … where` clause would
        // only skip the sleep and still run all 50 exchanges).
        for _ in 0..<50 {
            if exchange("106A 26") != nil { break }
            usleep(50_000)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(fd)
    }

    static func freePort() -> UInt16 {
        let s = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(s) }
        return bindLoopback(s)
    }

    func send(_ datagram: Data) {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = datagram.withUnsafeBytes { b in
            withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, b.baseAddress, b.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
    }

    /// Sends one nfcpy frame and returns the answer datagram (nil: none within 200 ms).
    func exchange(_ frame: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 2048)
        // Answers to earlier datagrams are dropped first.
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
        for _ in 0..<5 {
            send(Data(frame.utf8))
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { return String(decoding: buffer[0..<n], as: UTF8.self) }
        }
        return nil
    }

    /// Sends `signal` and waits for the process to end (killed after `seconds`).
    func stop(_ signal: Int32, seconds: Double = 5) {
        kill(process.processIdentifier, signal)
        if !ChildProcess.wait(process, seconds: seconds) {
            Issue.record("the emulator did not stop within \(seconds) s of signal \(signal)")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if let errorPipe { stderr = errorPipe.fileHandleForReading.readDataToEndOfFile() }
    }
}
