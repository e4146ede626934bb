import Foundation
import Testing

/// Unmodified nfcpy from PyPI reads and writes tags that `nfctrace emulate` serves over nfcpy's
/// UDP frontend; the traces recorded meanwhile are dissected without an unknown frame.
enum Python {
    static let interpreter: String? = {
        let candidates = [ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"], CLI.root + "/.build-venv/bin/python"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) && hasModule($0, "nfc") }
    }()

    static var required: Bool { ProcessInfo.processInfo.environment["NFCTRACE_REQUIRE_ORACLES"] == "1" }

    static func hasModule(_ python: String, _ module: String) -> Bool {
        (try? ChildProcess.run(python, ["-c", "import \(module)"], seconds: 60))?.status == 0
    }
}

/// A running `nfctrace emulate --udp 127.0.0.1:0`, with the port it bound.
final class RunningEmulator {
    let process = Process()
    let stderr = Pipe()
    private(set) var port = 0
    private(set) var log = ""

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["emulate"] + arguments + ["--udp", "127.0.0.1:0"]
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        // The emulator names its port on stderr: "… on udp 127.0.0.1:PORT (…)".
        let deadline = Date().addingTimeInterval(10)
        while port == 0 && Date() < deadline && process.isRunning {
            let chunk = stderr.fileHandleForReading.availableData
            log += String(decoding: chunk, as: UTF8.self)
            if let r = log.range(of: "on udp 127.0.0.1:") {
                let digits = log[r.upperBound...].prefix { $0.isNumber }
                port = Int(digits) ?? 0
            }
        }
    }

    func stop() -> Int32 {
        process.terminate()
        if !ChildProcess.wait(process, seconds: 10) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the emulator did not stop within 10 s of SIGTERM")
            guard ChildProcess.wait(process, seconds: 5) else { return -1 }
        }
        log += String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus
    }

    /// Runs the nfcpy client. nfcpy's deadlines are a few milliseconds (READ: 5 ms); on a loaded
    /// 2-core machine one can be missed, and nfcpy then reports no tag or no NDEF. Up to two
    /// retries absorb that; a real defect fails all three runs.
    func nfcpy(_ args: [String], python: String) throws -> [String: Any] {
        var last: [String: Any] = [:]
        for _ in 0..<3 {
            let r = try ChildProcess.run(python, [CLI.root + "/Tests/NFCTraceCLITests/Python/nfcpy_client.py", "udp:127.0.0.1:\(port)"] + args)
            let data = r.stdout
            last = (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? ["error": String(decoding: data, as: UTF8.self)]
            if r.status == 0, last["product"] != nil, last["records"] is [Any] || last["dump"] is [Any] { return last }
        }
        return last
    }
}

@Suite(.serialized) struct NFCPyTests {
    func python() -> String? {
        if Python.interpreter == nil && Python.required { Issue.record("nfcpy is not installed; scripts/setup installs it into .build-venv") }
        return Python.interpreter
    }

    /// Every frame of a recorded trace is named by the dissector.
    /// `clean`: no frame has a diagnostic at all (the FeliCa sessions with the emulator).
    func expectFullyDissected(_ trace: String, minimumFrames: Int = 11, clean: Bool = false) throws {
        let r = try CLI.run(["dissect", "--format", "json", trace])
        #expect(r.status == 0)
        var frames = 0
        for line in r.stdout.split(separator: "\n") {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard o?["type"] as? String == "frame" else { continue }
            frames += 1
            let summary = (o?["summary"] as? String ?? "").lowercased()
            #expect(!summary.contains("unknown") && !summary.contains("unrecognised") && !summary.contains("malformed") && !summary.contains("no request before"),
                    "frame \(o?["number"] ?? "?") of \(trace): \(summary)")
            if clean { #expect((o?["diagnostics"] as? [Any])?.isEmpty == true, "frame \(o?["number"] ?? "?") of \(trace): \(o?["diagnostics"] ?? "")") }
        }
        #expect(frames >= minimumFrames)
    }

    @Test func nfcpyReadsTheNTAG215OfATrace() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-read-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--from-trace", "Traces/ntag215-password-read.nfctrace", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let result = try emulator.nfcpy(["read", "--targets", "106A"], python: python)
        _ = emulator.stop()
        #expect(result["product"] as? String == "NXP NTAG215", "\(result)")
        let records = result["records"] as? [[String: Any]]
        #expect(records?.first?["uri"] as? String == "https://nfctrace.example/tags/ntag215?id=42")
        try expectFullyDissected(record)
    }

    /// Issue 45: nfcpy's Type 1 driver (udp `sense_tta` sends RID after a Type 1 ATQA, then
    /// `tt1_broadcom` reads with RALL) reads the URI record of the emulated Topaz 96, writes a
    /// new one byte by byte (WRITE-E) and reads it back; the recorded trace is dissected whole.
    @Test func nfcpyReadsAndWritesTheEmulatedTopaz() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-topaz-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--model", "topaz96", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let read = try emulator.nfcpy(["read", "--targets", "106A"], python: python)
        #expect(read["product"] as? String == "Topaz (BCM20203T96)", "\(read)")
        #expect(read["type"] as? String == "Type1Tag", "\(read)")
        let records = read["records"] as? [[String: Any]]
        #expect(records?.first?["uri"] as? String == "https://nfctrace.example/tags/topaz96", "\(read)")
        let written = try emulator.nfcpy(["write-text", "Topaz written by nfcpy", "--targets", "106A"], python: python)
        #expect(written["product"] as? String == "Topaz (BCM20203T96)", "\(written)")
        let again = try emulator.nfcpy(["read", "--targets", "106A"], python: python)
        _ = emulator.stop()
        let text = (again["records"] as? [[String: Any]])?.first
        #expect(text?["text"] as? String == "Topaz written by nfcpy", "\(again)")
        try expectFullyDissected(record, minimumFrames: 20)
        let dissected = try CLI.run(["dissect", record])
        #expect(dissected.stdout.contains("Topaz 96 (BCM20203T96)"), "\(dissected.stdout)")
        #expect(dissected.stdout.contains("Topaz written by nfcpy"), "\(dissected.stdout)")
    }

    // Issue 20: unmodified nfcpy writes a message longer than one ISO-DEP block (its UPDATE
    // BINARY chains) and reads it back (the answers chain), from the Type 4 Tag emulator; the
    // recorded trace is dissected whole and replays against the tag rebuilt from it.
    @Test func nfcpyWritesAndReadsTheType4Tag() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-type4-\(UUID().uuidString).nfctrace"
        defer { try? FileManager.default.removeItem(atPath: record) }
        let emulator = try RunningEmulator(["--model", "type4-ndef", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let text = String(repeating: "nfctrace type 4 chaining ", count: 24)
        let written = try emulator.nfcpy(["write-text", text, "--targets", "106A"], python: python)
        #expect(written["type"] as? String == "Type4Tag", "\(written)")
        let read = try emulator.nfcpy(["read", "--targets", "106A"], python: python)
        #expect(emulator.stop() == 0)
        let records = read["records"] as? [[String: Any]]
        #expect(records?.first?["text"] as? String == text, "\(read)")
        #expect(read["ndef_capacity"] as? Int == 2046)
        try expectFullyDissected(record)
        let dissected = try CLI.run(["dissect", record])
        let json = try CLI.run(["dissect", "--format", "json", record])
        #expect(json.stdout.contains("\"apdu.reassembled\""), "the chained APDUs are joined")
        #expect(dissected.stdout.contains("I-block(0) chaining") || dissected.stdout.contains("I-block(1) chaining"), "a chained block: \(dissected.stdout.prefix(3000))")
        #expect(dissected.stdout.contains("NFC Forum Type 4 Tag (mapping 2.0)"))
        let replay = try CLI.run(["replay", record])
        #expect(replay.status == 0, "\(replay.stdout)")
    }

    // Issue 20: nfcpy's ISO-DEP layer runs an EMV kernel's first steps against the EMV test
    // card: the application FCI comes in two chained blocks, GET PROCESSING OPTIONS after an
    // S(WTX); the trace dissects whole with the card number masked and replays against the card
    // rebuilt from it (recorded APDUs).
    @Test func nfcpyRunsEMVStepsAgainstTheTestCard() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-emv-\(UUID().uuidString).nfctrace"
        defer { try? FileManager.default.removeItem(atPath: record) }
        let emulator = try RunningEmulator(["--model", "emv-test-card", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let r = try ChildProcess.run(python, [CLI.root + "/Tests/NFCTraceCLITests/Python/nfcpy_apdu.py", "udp:127.0.0.1:\(emulator.port)",
                                              "00A404000E325041592E5359532E444446303100", "00A4040007A000000003101000",
                                              "80A8000012831036004000000000000100DEADBEEF097800", "00B2010C00"])
        #expect(emulator.stop() == 0)
        let o = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let answers = o?["answers"] as? [String] ?? []
        #expect(answers.count == 4 && answers.allSatisfy { $0.hasSuffix("9000") }, "\(String(decoding: r.stdout, as: UTF8.self))")
        #expect((answers.dropFirst().first?.count ?? 0) / 2 > 253, "the application FCI is longer than one block")
        try expectFullyDissected(record)
        let text = try CLI.run(["dissect", record]).stdout
        #expect(text.contains("chaining, INF 253 bytes: part 1 of an answer") && text.contains("S(WTX) WTXM 1: the tag asks for 1 × FWT"))
        let verbose = try CLI.run(["dissect", "-V", record]).stdout
        // The fields show the first 6 and last 4 digits, and so do the frame's bytes.
        #expect(verbose.contains("5A application PAN: 411111••••••1111 (card number masked)"), "the card number is masked")
        #expect(!verbose.contains("41 11 11 11 11") && verbose.contains("5A 08 41 11 11 •• •• •• 11 11"), "the frame bytes are masked")
        let json = try CLI.run(["dissect", "--format", "json", record]).stdout
        #expect(!json.contains("4111111111111111") && json.contains("\"masked\":["))
        let shown = try CLI.run(["dissect", "-V", "--show-secrets", record]).stdout
        #expect(shown.contains("41 11 11 11 11 11 11 11 (shown: --show-secrets)"))
        let replay = try CLI.run(["replay", record])
        #expect(replay.status == 0, "\(replay.stdout)")
    }

    @Test func nfcpyWritesAndTheEmulatorKeepsIt() throws {
        guard let python = python() else { return }
        let saved = NSTemporaryDirectory() + "nfcpy-saved-\(UUID().uuidString).nfc"
        let record = NSTemporaryDirectory() + "nfcpy-write-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--model", "ntag215", "--save", saved, "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let written = try emulator.nfcpy(["write-uri", "https://example.com/written-by-nfcpy"], python: python)
        #expect((written["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://example.com/written-by-nfcpy", "\(written)")
        #expect(emulator.stop() == 0)
        // The saved state holds the NDEF message nfcpy wrote: read it back through a second emulator.
        let again = try RunningEmulator([saved])
        let read = try again.nfcpy(["read", "--targets", "106A"], python: python)
        _ = again.stop()
        #expect((read["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://example.com/written-by-nfcpy", "\(read)")
        try expectFullyDissected(record)
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("Page 4: 03 "), "an NDEF TLV starts the user memory")
    }

    // A recording of nfcpy reading the NTAG215 becomes a cassette; the same nfcpy read against the
    // cassette gets the same NDEF; a reader asking for something else is reported.
    @Test func nfcpyReadsFromACassetteOfItsOwnRecording() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-cassette-\(UUID().uuidString).nfctrace"
        let live = try RunningEmulator(["--from-trace", "Traces/ntag215-password-read.nfctrace", "--record", record])
        let first = try live.nfcpy(["read", "--targets", "106A"], python: python)
        _ = live.stop()
        let uri = (first["records"] as? [[String: Any]])?.first?["uri"] as? String
        #expect(uri == "https://nfctrace.example/tags/ntag215?id=42", "\(first)")

        let cassette = try RunningEmulator(["--cassette", record])
        let replayed = try cassette.nfcpy(["read", "--targets", "106A"], python: python)
        #expect(cassette.stop() == 0, "no unknown request: \(cassette.log)")
        #expect(replayed["product"] as? String == "NXP NTAG215")
        #expect((replayed["records"] as? [[String: Any]])?.first?["uri"] as? String == uri)
        #expect(cassette.log.contains("cassette: "), "\(cassette.log)")

        let asked = try RunningEmulator(["--cassette", record])
        _ = try? asked.nfcpy(["write-uri", "https://example.com/not-recorded"], python: python)
        #expect(asked.stop() == 1, "a command the cassette does not hold is a finding")
        #expect(asked.log.contains("cassette: unknown request A2"), "\(asked.log)")
    }

    // Replay over nfcpy's UDP protocol: the trace's reader frames against `nfctrace emulate`.
    @Test func replayAgainstAUDPTarget() throws {
        let emulator = try RunningEmulator(["--from-trace", "Traces/ntag215-password-read.nfctrace"])
        #expect(emulator.port > 0)
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.nfctrace", "--against", "udp:127.0.0.1:\(emulator.port)"])
        _ = emulator.stop()
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("PASS  Traces/ntag215-password-read.nfctrace  (29 exchanges, 3 field cycles)"))
    }

    // nfcpy polls 212F `0600ffff0100`, takes IC code F1 for a FeliCa Lite-S, polls 12FC and reads
    // the AIB and the NDEF message through service 000B. Its read timeout comes from PMm[5]: the
    // built-in's PMm gives it 24 ms instead of the chip's 0.9 ms (FeliCaDump.liteSBuiltInPMm);
    // RunningEmulator.nfcpy retries a run that still misses a deadline (the 3.6 ms of Polling 12FC).
    @Test func nfcpyReadsTheFeliCaLiteS() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-felica-read-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--model", "felica-lite-s", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let result = try emulator.nfcpy(["read", "--targets", "212F"], python: python)
        _ = emulator.stop()
        #expect(result["product"] as? String == "FeliCa Lite-S (RC-S966)", "\(result)")
        #expect(result["type"] as? String == "Type3Tag")
        #expect((result["tag"] as? String)?.contains("ID=012E3C8891056D12") == true)
        let records = result["records"] as? [[String: Any]]
        #expect(records?.first?["uri"] as? String == "https://nfctrace.example/felica/lite-s", "\(result)")
        try expectFullyDissected(record, minimumFrames: 10, clean: true)
        let text = try CLI.run(["dissect", record]).stdout
        #expect(text.contains("FeliCa Lite-S (RC-S966)") && text.contains("NDEF: URI https://nfctrace.example/felica/lite-s"))
    }

    // nfcpy's FeliCa Standard dump: Request System Code, a Polling per system code (a system
    // switch, answered with the IDm of system 1), Search Service Code until FF FF, and Reads
    // of every service without key until the card answers 01 A8.
    @Test func nfcpyDumpsBothSystemsOfTheTwoSystemCard() throws {
        guard let python = python() else { return }
        let record = NSTemporaryDirectory() + "nfcpy-felica-dump-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--model", "felica-two-systems", "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let result = try emulator.nfcpy(["dump", "--targets", "212F"], python: python)
        _ = emulator.stop()
        #expect(result["product"] as? String == "FeliCa Standard (RC-S915)", "\(result)")
        let dump = (result["dump"] as? [String] ?? []).joined(separator: "\n")
        #expect(dump.contains("System 8E4B") && dump.contains("System FE00 (Common Area)"), "\(dump)")
        #expect(dump.contains("Random Service 64: read w/o key (0x100B)") && dump.contains("Random Service 106: read w/o key (0x1A8B)"))
        #expect(dump.contains("32 30 32 34 42 30 38 31 35") && dump.contains("4d 2d 30 30 34 32 37 33 31"), "both student and member number")
        try expectFullyDissected(record)
        let text = try CLI.run(["dissect", record]).stdout
        #expect(text.contains("system switch 8E4B → FE00"))
    }

    // nfcpy writes a Lite-S without MAC (Write Without Encryption, service 0009, one block at a
    // time, AIB WriteF 0F first and 00 last); the saved state holds the new message.
    @Test func nfcpyWritesTheFeliCaLiteSAndTheEmulatorKeepsIt() throws {
        guard let python = python() else { return }
        let saved = NSTemporaryDirectory() + "nfcpy-felica-saved-\(UUID().uuidString).nfc"
        let record = NSTemporaryDirectory() + "nfcpy-felica-write-\(UUID().uuidString).nfctrace"
        let emulator = try RunningEmulator(["--model", "felica-lite-s", "--save", saved, "--record", record])
        #expect(emulator.port > 0, "emulator did not start: \(emulator.log)")
        let written = try emulator.nfcpy(["write-uri", "https://example.com/felica-written-by-nfcpy", "--targets", "212F"], python: python)
        #expect((written["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://example.com/felica-written-by-nfcpy", "\(written)")
        #expect(emulator.stop() == 0)
        let again = try RunningEmulator([saved])
        let read = try again.nfcpy(["read", "--targets", "212F"], python: python)
        _ = again.stop()
        #expect((read["records"] as? [[String: Any]])?.first?["uri"] as? String == "https://example.com/felica-written-by-nfcpy", "\(read)")
        try expectFullyDissected(record, clean: true)
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text.contains("Device type: FeliCa") && text.contains("Block 1: 00 00 D1 01 "), "the NDEF record starts S_PAD1")
    }
}
