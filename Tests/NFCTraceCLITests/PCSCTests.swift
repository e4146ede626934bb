import Foundation
import Testing

/// `nfctrace emulate --vpcd` in the real PC/SC stack: Debian's pcscd with vsmartcard's vpcd
/// driver, started here as a child and stopped by its PID, and unmodified PC/SC clients
/// (`opensc-tool`, `pcsc_scan`, a pyscard program) reading the emulated cards.
@Suite(.serialized) struct PCSCTests {
    static let pcscd = "/usr/sbin/pcscd"
    static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
    static let client = CLI.root + "/Tests/NFCTraceCLITests/Python/pcsc_client.py"

    /// pyscard's interpreter; nil (and a failure when the oracles are required) when the PC/SC
    /// stack or pyscard is missing.
    func ready() -> String? {
        let python = [ProcessInfo.processInfo.environment["NFCTRACE_PYTHON"], CLI.root + "/.build-venv/bin/python"].compactMap { $0 }
            .first { FileManager.default.isExecutableFile(atPath: $0) && Python.hasModule($0, "smartcard") }
        let missing = [FileManager.default.isExecutableFile(atPath: Self.pcscd) ? nil : "pcscd",
                       FileManager.default.fileExists(atPath: Self.vpcdDriver) ? nil : "vsmartcard-vpcd",
                       python == nil ? "pyscard" : nil].compactMap { $0 }
        if !missing.isEmpty {
            if Python.required { Issue.record("\(missing.joined(separator: ", ")) missing: scripts/setup installs them") }
            return nil
        }
        if (try? ChildProcess.run("/usr/bin/pgrep", ["-x", "pcscd"], seconds: 10))?.status == 0 {
            Issue.record("a pcscd is already running (its socket is fixed): stop it before these tests")
            return nil
        }
        return python
    }

    /// pcscd in the foreground, as a child of this test, stopped by its PID. Spawned with no
    /// signal blocked: the test runner's threads block SIGTERM and SIGINT, a Foundation `Process`
    /// child inherits that, and pcscd then never heard its stop (every test waited 10 s for the
    /// SIGKILL; measured).
    final class PCSCDaemon {
        let pid: pid_t
        init() throws {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // A zeroed sigset_t is the empty set on both Glibc and Darwin (where sigemptyset is a
            // macro Swift does not import).
            var none = sigset_t()
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
            var files = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&files)
            defer { posix_spawn_file_actions_destroy(&files) }
            for fd: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&files, fd, "/dev/null", O_WRONLY, 0) }
            let argv: [UnsafeMutablePointer<CChar>?] = [PCSCTests.pcscd, "--foreground", "--apdu"].map { (a: String) in strdup(a) } + [nil]
            defer { for a in argv { free(a) } }
            var child: pid_t = 0
            let rc = posix_spawn(&child, PCSCTests.pcscd, &files, &attributes, argv, environ)
            guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
            pid = child
        }

        func stop() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(10)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() >= deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    Issue.record("pcscd did not stop within 10 s of SIGTERM")
                    return
                }
                usleep(10_000)
            }
        }
    }

    /// `nfctrace emulate … --vpcd 127.0.0.1:35963`, until it says the card is in the reader.
    final class VPCDEmulator: EmulatorChild {
        init(_ arguments: [String]) throws {
            try super.init(arguments + ["--vpcd", "127.0.0.1:35963"], ready: "the card is in the reader")
        }
    }

    func run(_ python: String, _ arguments: [String]) throws -> [String: Any] {
        let r = try ChildProcess.run(python, [Self.client, "Virtual PCD 00 00"] + arguments, seconds: 60)
        return (try? JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? ["error": String(decoding: r.stdout + r.stderr, as: UTF8.self)]
    }

    func steps(_ out: [String: Any]) -> [(data: String, sw: String)] {
        ((out["steps"] as? [[String: String]]) ?? []).map { ($0["data"] ?? "", $0["sw"] ?? "") }
    }

    @Test func type4TagReadByPyscardOpenSCAndPCSCScan() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let dir = NSTemporaryDirectory() + "nfctrace-pcsc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = dir + "/type4.nfctrace"
        let emulator = try VPCDEmulator(["--model", "type4-ndef", "--record", trace])
        let out = try run(python, ["type4"])
        // The ATS of the Type 4 Tag has no historical bytes: 3B 80 80 01 and TCK (PC/SC Part 3).
        #expect(out["atr"] as? String == "3b80800101", "\(out)")
        let s = steps(out)
        #expect(s.count == 5 && s.allSatisfy { $0.sw == "9000" }, "\(out)")
        #expect(s.dropFirst(2).first?.data.hasPrefix("000f20") == true, "the CC file: CCLEN 15, mapping 2.0")
        #expect(s.last?.data == "0000", "an empty NDEF file")
        let atr = try ChildProcess.run("/usr/bin/opensc-tool", ["--reader", "0", "--atr"], seconds: 30)
        #expect(String(decoding: atr.stdout, as: UTF8.self).contains("3b:80:80:01:01"), "\(String(decoding: atr.stdout + atr.stderr, as: UTF8.self))")
        let scan = try ChildProcess.run("/usr/bin/pcsc_scan", ["-r"], seconds: 30)
        #expect(String(decoding: scan.stdout, as: UTF8.self).contains("Virtual PCD 00 00"))
        #expect(emulator.stop() == 0, "\(emulator.log)")
        // What pcscd's clients made the reader send, as a trace nfctrace dissects whole.
        let dissected = try CLI.run(["dissect", trace])
        #expect(dissected.status == 0)
        #expect(dissected.stdout.contains("SELECT NDEF Tag Application") && dissected.stdout.contains("RATS"), "\(dissected.stdout)")
        #expect(!dissected.stdout.contains("unknown") && !dissected.stdout.contains("malformed"), "\(dissected.stdout)")
    }

    @Test func ntagPagesThroughPartThreePseudoAPDUs() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let emulator = try VPCDEmulator(["--model", "ntag215"])
        defer { _ = emulator.stop() }
        let out = try run(python, ["ntag"])
        // The storage-card ATR with standard 03 and card name 0003, as protocols-wave2.md §7.2 computes it.
        #expect(out["atr"] as? String == "3b8f8001804f0ca0000003060300030000000068", "\(out)")
        let s = steps(out)
        #expect(s.count == 6, "\(out)")
        guard s.count == 6 else { return }
        #expect(s[0].data == "04e17a204b2c80" && s[0].sw == "9000", "FF CA: the UID")
        #expect(s[1].data.count == 32 && s[1].data.hasPrefix("04e17a") && s[1].sw == "9000", "FF B0 page 0: 16 bytes")
        #expect(s[2].data.hasPrefix("0300fe") && s[2].sw == "9000", "page 4: the empty NDEF TLV")
        #expect(s[3].sw == "9000", "FF D6 page 0x10")
        #expect(s[4].data == "cafef00d", "read back")
        #expect(s[5].sw == "6A81", "no historical bytes on a storage card")
    }

    /// Issue 21, point 3: ACR122 direct transmit (`FF 00 00 00 Lc D4 …`) from pyscard through the
    /// real pcscd and vpcd: the reader's firmware string, GetFirmwareVersion, and READ page 4
    /// through InDataExchange and InCommunicateThru, equal to FF B0's.
    @Test func acr122DirectTransmit() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let emulator = try VPCDEmulator(["--model", "ntag215"])
        defer { _ = emulator.stop() }
        let out = try run(python, ["apdu", "FF00480000", "FF00000002D402", "FF00000005D440013004",
                                   "FF00000004D4423004", "FFB0000410"])
        let s = steps(out)
        #expect(s.count == 5, "\(out)")
        guard s.count == 5 else { return }
        // "ACR122U215" without a status word: pyscard takes its last two bytes for one.
        #expect(s[0].data + s[0].sw.lowercased() == "41435231323255323135", "firmware string: \(s[0])")
        #expect(s[1].data == "d50332010607" && s[1].sw == "9000", "PN532 v1.6, A + B + 18092")
        #expect(s[2].data == "d54100" + s[4].data && s[2].sw == "9000", "InDataExchange READ 4: \(out)")
        #expect(s[3].data == "d54300" + s[4].data && s[3].sw == "9000", "InCommunicateThru READ 4")
    }

    /// Issue 21, point 3: a FeliCa Lite-S and an ISO 15693 tag through pcscd and vpcd, as a
    /// pyscard program reads them (ACS's FeliCa pass-through; Part 3 on 15693 blocks).
    @Test func feliCaAndISO15693Cards() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        do {
            let emulator = try VPCDEmulator(["--model", "felica-lite-s"])
            defer { _ = emulator.stop() }
            let out = try run(python, ["felica"])
            #expect(out["atr"] as? String == "3b8f8001804f0ca00000030611003b0000000042", "ACS's FeliCa ATR: \(out)")
            let s = steps(out)
            #expect(s.count == 2 && s[0].data.count == 16 && s[0].sw == "9000", "IDm: \(out)")
            // 1D 07 IDm 00 00 01 + 16 bytes: the answer with its length byte, status flags 00 00.
            #expect(s.count == 2 && s[1].data.hasPrefix("1d07" + s[0].data + "000001") && s[1].data.count == 2 * 29 && s[1].sw == "9000", "\(out)")
        }
        do {
            let emulator = try VPCDEmulator(["--model", "slix2"])
            defer { _ = emulator.stop() }
            let out = try run(python, ["vicc"])
            #expect((out["atr"] as? String)?.hasPrefix("3b8f8001804f0ca0000003060b0014") == true, "\(out)")
            let s = steps(out)
            #expect(s.map(\.sw) == ["9000", "9000", "9000", "9000"], "\(out)")
            #expect(s.first?.data == "81dcd049080104e0" && s.last?.data == "cafef00d", "\(out)")
        }
    }

    @Test func desfireAPDUsPassThrough() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let emulator = try VPCDEmulator(["--model", "desfire-ev1"])
        defer { _ = emulator.stop() }
        let out = try run(python, ["apdu", "9060000000", "90AF000000", "90AF000000", "906A000000"])
        // A DESFire's ATR: 3B 81 80 01 80 80 (protocols-wave2.md §7.2).
        #expect(out["atr"] as? String == "3b8180018080", "\(out)")
        let s = steps(out)
        #expect(s.map(\.sw) == ["91AF", "91AF", "9100", "9100"], "\(out)")
        #expect(s.last?.data == "544e5a", "application 5A4E54")
    }

    /// MIFARE Classic through PC/SC Part 3: LOAD KEYS, GENERAL AUTHENTICATE per sector (nested
    /// authentications from the second on), READ BINARY of every block; the reader side runs
    /// Crypto1. What `--record` wrote dissects with every key named and replays against the card
    /// rebuilt from it. `NFCTRACE_MAKE_TRACES=1` keeps the recording as
    /// `Traces/mifare-classic-1k-pcsc.nfctrace`.
    @Test func classicCardReadSectorBySector() throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let make = ProcessInfo.processInfo.environment["NFCTRACE_MAKE_TRACES"] == "1"
        let trace = make ? CLI.root + "/Traces/mifare-classic-1k-pcsc.nfctrace" : NSTemporaryDirectory() + "nfctrace-pcsc-classic-\(UUID().uuidString).nfctrace"
        defer { if !make { try? FileManager.default.removeItem(atPath: trace) } }
        if make { try? FileManager.default.removeItem(atPath: trace) }
        let emulator = try VPCDEmulator(["--model", "mifare-classic-1k", "--record", trace])
        let out = try run(python, ["classic", "FFFFFFFFFFFF"])
        #expect(out["atr"] as? String == "3b8f8001804f0ca000000306030001000000006a", "Classic 1K's ATR (protocols-wave2.md §7.2)")
        let s = steps(out)
        #expect(s.count == 1 + 16 * 5 && s.allSatisfy { $0.sw == "9000" }, "\(out)")
        // Every trailer reads as the transport configuration: key A as zeros, FF 07 80 69, key B.
        for sector in 0..<16 where s.count == 81 {
            #expect(s[1 + sector * 5 + 4].data == "000000000000ff078069ffffffffffff", "sector \(sector)")
        }
        #expect(emulator.stop() == 0, "\(emulator.log)")
        let dissected = try CLI.run(["dissect", trace])
        #expect(dissected.stdout.contains("Key (sector 15, key A): FFFFFFFFFFFF"), "\(dissected.stdout.suffix(3000))")
        #expect(!dissected.stdout.contains("unknown") && !dissected.stdout.contains("encrypted (no key"), "\(dissected.stdout.suffix(3000))")
        let replay = try CLI.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains("PASS"), "\(replay.stdout)\n\(replay.stderr)")
    }

    /// The Classic sessions of issue 19, made by a PC/SC program against cards rebuilt from the
    /// in-process traces and recorded by `emulate --vpcd --record`: a key no list holds (the
    /// dissector recovers it from the recording), a value block decremented and transferred
    /// (ACS's FF D7), MAD and NDEF sectors with their public keys. `NFCTRACE_MAKE_TRACES=1` keeps
    /// them as `Traces/mifare-classic-<name>-pcsc.nfctrace`.
    @Test(arguments: [
        ("recovered-key", ["FF82000006A1B2C3D4E5F6", "FF860000050100046000", "FFB0000410", "FFB0000510", "FFB0000610", "FFB0000710"],
         ["recovered from frames", "(mfkey64)"]),
        ("value-block", ["FF82000006FFFFFFFFFFFF", "FF860000050100086000", "FFB1000804", "FFD700080502000000FA", "FFB1000804"],
         ["DECREMENT block 0x08", "TRANSFER block 0x08"]),
        ("mad-ndef", ["FF82000006A0A1A2A3A4A5", "FF82000106D3F7D3F7D3F7", "FF860000050100006000", "FFB0000010", "FFB0000110", "FFB0000210",
                      "FFB0000310", "FF860000050100046001", "FFB0000410", "FFB0000510", "FFB0000610", "FFB0000710"],
         ["MAD", "NDEF"]),
    ] as [(String, [String], [String])])
    func classicSessionsRecordedThroughPCSC(name: String, apdus: [String], expected: [String]) throws {
        guard let python = ready() else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let make = ProcessInfo.processInfo.environment["NFCTRACE_MAKE_TRACES"] == "1"
        let trace = make ? CLI.root + "/Traces/mifare-classic-\(name)-pcsc.nfctrace" : NSTemporaryDirectory() + "nfctrace-pcsc-\(name)-\(UUID().uuidString).nfctrace"
        defer { if !make { try? FileManager.default.removeItem(atPath: trace) } }
        if make { try? FileManager.default.removeItem(atPath: trace) }
        let emulator = try VPCDEmulator(["--from-trace", CLI.root + "/Traces/mifare-classic-\(name).nfctrace", "--record", trace])
        let out = try run(python, ["apdu"] + apdus)
        let s = steps(out)
        #expect(s.count == apdus.count && s.allSatisfy { $0.sw == "9000" }, "\(out)")
        if name == "value-block", s.count == 5 { #expect(s[2].data == "000003e8" && s[4].data == "000002ee", "1000, then 750") }
        #expect(emulator.stop() == 0, "\(emulator.log)")
        let dissected = try CLI.run(["dissect", trace])
        for e in expected { #expect(dissected.stdout.contains(e), "\(e) in \(dissected.stdout.suffix(2500))") }
        #expect(!dissected.stdout.contains("unknown") && !dissected.stdout.contains("encrypted (no key"), "\(dissected.stdout.suffix(2500))")
        let replay = try CLI.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains("PASS"), "\(replay.stdout)\n\(replay.stderr)")
    }

    // MARK: replay through PC/SC (issue 21, points 4–6)

    /// pcscd notices a card vpcd offers when it next polls the reader: wait for it (10 s at most).
    func waitForCard() {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let r = try? CLI.run(["readers"]), r.stdout.contains("pcsc:Virtual PCD 00 00  (card on it") { return }
            usleep(100_000)
        }
        Issue.record("pcscd did not see the emulated card within 10 s")
    }

    /// Issue 21, points 4 and 5: traces replay clean through pcscd and vpcd to the tag rebuilt from
    /// each (`emulate --from-trace … --vpcd`): APDUs whole whatever their chaining and WTX, Type 2
    /// READ/WRITE as Part 3 pseudo-APDUs and PWD_AUTH/FAST_READ/GET_VERSION through ACR122
    /// direct transmit, FeliCa through ACS's pass-through. `--record` keeps what the card
    /// answered as a trace that dissects whole and replays against the tag rebuilt from it.
    @Test(arguments: ["type4-ndef-nfcpy.nfctrace", "emv-test-card-nfcpy.nfctrace", "desfire-aes-read.nfctrace", "ntag215-password-read.nfctrace",
                      "felica-student-id.nfctrace", "felica-system-switch.nfctrace", "suica-history.nfctrace", "iso14443b-type4-read.nfctrace"])
    func tracesReplayThroughPCSC(name: String) throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let trace = "Traces/" + name
        let emulator = try VPCDEmulator(["--from-trace", trace])
        defer { _ = emulator.stop() }
        waitForCard()
        let recording = NSTemporaryDirectory() + "nfctrace-pcsc-replay-\(UUID().uuidString).nfctrace"
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let r = try CLI.run(["replay", trace, "--against", "pcsc:Virtual PCD 00 00", "--record", recording])
        #expect(r.status == 0 && r.stdout.hasPrefix("PASS  \(trace)"), "\(r.stdout)\n\(r.stderr)\n\(emulator.log)")
        #expect(r.stderr.contains("recorded ") && r.stderr.contains(recording), "\(r.stderr)")
        let dissected = try CLI.run(["dissect", recording])
        #expect(dissected.status == 0, "\(dissected.stderr)")
        for bad in ["unknown", "malformed", "!crc"] { #expect(!dissected.stdout.contains(bad), "\(bad) in \(dissected.stdout.prefix(4000))") }
        let again = try CLI.run(["replay", recording])
        #expect(again.status == 0 && again.stdout.hasPrefix("PASS"), "\(again.stdout)")
    }

    /// Issue 21, point 4: MIFARE Classic sessions through Part 3: each AUTH as LOAD KEYS + GENERAL
    /// AUTHENTICATE with the key the trace's dissection knew or recovered (nested authentications,
    /// a key recovered from the frames), the encrypted READs as READ BINARY, the card's answers
    /// compared in clear with the recorded ones decrypted; libnfc's own nfc-mfclassic session too.
    @Test(arguments: ["mifare-classic-1k-default-keys", "mifare-classic-nested", "mifare-classic-recovered-key", "mifare-classic-mad-ndef",
                      "mifare-classic-value-block-pcsc", "libnfc-mfclassic-read-1k"])
    func classicSessionsReplayThroughPartThree(name: String) throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let trace = "Traces/\(name).nfctrace"
        let emulator = try VPCDEmulator(["--from-trace", trace])
        defer { _ = emulator.stop() }
        waitForCard()
        let r = try CLI.run(["replay", trace, "--against", "pcsc"])
        #expect(r.status == 0 && r.stdout.hasPrefix("PASS  \(trace)"), "\(r.stdout)\n\(r.stderr)\n\(emulator.log)")
        #expect(r.stdout.contains("by the reader itself: authentication (LOAD KEYS, GENERAL AUTHENTICATE)"), "\(r.stdout)")
    }

    /// A Classic card that does not hold the trace's key: GENERAL AUTHENTICATE fails where the
    /// recorded card answered its nonce, a divergence (exit 1).
    @Test func classicCardWithAnotherKeyDiverges() throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let emulator = try VPCDEmulator(["--model", "mifare-classic-1k"])
        defer { _ = emulator.stop() }
        waitForCard()
        let r = try CLI.run(["replay", "Traces/mifare-classic-mad-ndef.nfctrace", "--against", "pcsc"])
        #expect(r.status == 1 && r.stdout.hasPrefix("FAIL  Traces/mifare-classic-mad-ndef.nfctrace: first divergence at frame 9"), "\(r.stdout)\n\(r.stderr)")
    }

    /// Issue 21, point 4: what a PC/SC reader cannot send (a value command the recorded card
    /// refused, which Part 3 cannot send alone; ISO 15693 commands beyond READ/WRITE SINGLE BLOCK;
    /// another technology than the card's) is listed before anything is sent; the trace is
    /// skipped, exit 1.
    @Test func framesAReaderCannotSendAreListedFirst() throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let dir = NSTemporaryDirectory() + "nfctrace-pcsc-skip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let trace = "Traces/mifare-classic-value-block.nfctrace"
        let emulator = try VPCDEmulator(["--from-trace", trace, "--record", dir + "/card.nfctrace"])
        waitForCard()
        let r = try CLI.run(["replay", trace, "--against", "pcsc", "--format", "json"])
        #expect(r.status == 1 && r.stderr.contains("cannot express"), "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("\"result\":\"inexpressible\"") && r.stdout.contains("\"exchanges\":0"), "\(r.stdout)")
        #expect(r.stdout.contains("\"frame\":23") && r.stdout.contains("INCREMENT refused by the recorded card (NAK)"), "\(r.stdout)")
        let other = try CLI.run(["replay", "Traces/iso15693-corenfc-format.nfctrace", "--against", "pcsc"])
        #expect(other.status == 1 && other.stdout.hasPrefix("SKIP  Traces/iso15693-corenfc-format.nfctrace:") && other.stdout.contains("nothing was sent")
                && other.stdout.contains("and the card on the reader is a MIFARE Classic card"), "\(other.stdout)")
        #expect(emulator.stop() == 0)
        // The card saw the reader's activation and nothing of the trace: no authentication.
        let seen = try CLI.run(["dissect", dir + "/card.nfctrace"])
        #expect(seen.stdout.contains("SELECT") && !seen.stdout.contains("AUTH"), "\(seen.stdout)")
    }

    /// Issue 21, point 6: the card gone mid-replay (the emulator killed under pcscd) is a clear
    /// error with the exchanges done, exit 74, and the recording so far is kept and dissects.
    @Test func aCardGoneMidReplayKeepsReportAndRecording() throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        var lines = ["nfctrace 1", "field-on", "R 26/7", "T 44 00", "R 93 20", "T 88 04 E1 7A 17", "R 93 70 88 04 E1 7A 17 crc=stripped", "T 04 crc=stripped",
                     "R 95 20", "T 20 4B 2C 80 C7", "R 95 70 20 4B 2C 80 C7 crc=stripped", "T 00 crc=stripped"]
        for _ in 0..<50_000 { lines += ["R 30 04 crc=stripped", "T 03 00 FE 00 00 00 00 00 00 00 00 00 00 00 00 00 crc=stripped"] }
        let trace = CLI.temporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8), suffix: ".nfctrace")
        let recording = NSTemporaryDirectory() + "nfctrace-pcsc-partial-\(UUID().uuidString).nfctrace"
        defer {
            try? FileManager.default.removeItem(atPath: trace)
            try? FileManager.default.removeItem(atPath: recording)
        }
        let emulator = try VPCDEmulator(["--model", "ntag215"])
        defer { _ = emulator.stop() }
        waitForCard()
        let replay = Process()
        replay.executableURL = URL(fileURLWithPath: CLI.binary)
        replay.arguments = ["replay", trace, "--against", "pcsc", "--record", recording]
        let out = Pipe()
        let err = Pipe()
        replay.standardOutput = out
        replay.standardError = err
        try replay.run()
        // Once the replay is well under way (its recording past 200 KB), whatever the machine's speed.
        #expect(ChildProcess.waitForPartialFile(recording, bytes: 200_000, seconds: 120), "the replay did not get going")
        kill(emulator.process.processIdentifier, SIGKILL)
        let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let messages = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ChildProcess.wait(replay, seconds: 60))
        #expect(replay.terminationStatus == 74, "\(report)\n\(messages)")
        #expect(report.contains("ERROR ") && report.contains("failed after"), "\(report)")
        #expect(messages.contains("recorded ") && messages.contains("the target failed"), "\(messages)")
        let dissected = try CLI.run(["dissect", recording])
        #expect(dissected.status == 0 && dissected.stdout.contains("READ page 0x04"), "\(dissected.stderr)")
    }

    /// Issue 21, point 6: pcscd not running is one line saying what to do, exit 74.
    @Test func pcscdNotRunningIsOneLine() throws {
        guard ready() != nil else { return }
        let r = try CLI.run(["replay", "Traces/type4-ndef-nfcpy.nfctrace", "--against", "pcsc"])
        #expect(r.status == 74, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr == "nfctrace: PC/SC, connecting to pcscd: pcscd is not running (start it: systemctl start pcscd, or pcscd --foreground)\n", "\(r.stderr)")
    }

    /// Issue 21, point 6: a local vpcd that is not installed is one line saying what to do, exit 74
    /// (instead of waiting for a port nobody will open).
    @Test func vpcdNotInstalledIsOneLine() throws {
        let r = try CLI.run(["emulate", "--model", "ntag215", "--vpcd", "35963"], environment: ["NFCTRACE_VPCD_DRIVER": "/nonexistent/libifdvpcd.so"])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("nfctrace: vsmartcard's vpcd is not installed (apt install vsmartcard-vpcd, then restart pcscd); --vpcd HOST:PORT reaches one on another machine\n"), "\(r.stderr)")
    }

    /// Issue 21, point 5: `nfctrace readers` lists pcscd's readers with the card on each.
    @Test func readersAreListed() throws {
        guard ready() != nil else { return }
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        let emulator = try VPCDEmulator(["--model", "ntag215"])
        defer { _ = emulator.stop() }
        waitForCard()
        let r = try CLI.run(["readers", "--format", "json"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("{\"type\":\"reader\",\"stack\":\"pcsc\",\"against\":\"pcsc:Virtual PCD 00 00\",\"name\":\"Virtual PCD 00 00\",\"atr\":\"3B8F8001804F0CA0000003060300030000000068\"}"), "\(r.stdout)")
        #expect(r.stdout.contains("\"name\":\"Virtual PCD 00 01\",\"atr\":null"), "vpcd's second slot is empty: \(r.stdout)")
    }
}
