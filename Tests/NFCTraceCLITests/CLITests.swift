import Foundation
import Testing

/// Runs the `nfctrace` binary that `swift test` built next to the test bundle.
struct NFCTraceRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var stdoutBytes: Data
}

enum CLI {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // The test binary may sit inside an .xctest bundle directory.
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("nfctrace").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root + "/.build/debug/nfctrace"
    }()

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> NFCTraceRun {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        let r = try ChildProcess.run(binary, arguments, directory: root, environment: env, stdin: stdin ?? Data())
        return NFCTraceRun(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: String(decoding: r.stderr, as: UTF8.self), stdoutBytes: r.stdout)
    }

    static func temporaryFile(_ bytes: [UInt8], suffix: String = "") -> String {
        let path = NSTemporaryDirectory() + "nfctrace-cli-\(UUID().uuidString)\(suffix)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

@Suite struct CLITests {
    let trace = "Traces/ntag215-password-read.pcap"

    @Test func dissectMatchesTheGoldenText() throws {
        let r = try CLI.run(["dissect", trace])
        #expect(r.status == 0)
        let golden = try String(contentsOfFile: CLI.root + "/Tests/NFCDissectTests/Golden/ntag215-password-read.pcap.text", encoding: .utf8)
        #expect(r.stdout == golden)
        #expect(!r.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }

    @Test func standardInputIsAFile() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/" + trace))
        let fromStdin = try CLI.run(["dissect", "-"], stdin: bytes)
        let fromFile = try CLI.run(["dissect", trace])
        #expect(fromStdin.status == 0)
        #expect(fromStdin.stdout == fromFile.stdout)
        let defaultArgument = try CLI.run(["dissect"], stdin: bytes)
        #expect(defaultArgument.stdout == fromFile.stdout)
    }

    @Test func jsonIsOneObjectPerLine() throws {
        let r = try CLI.run(["dissect", "--format", "json", trace])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 65)   // 62 frames + 3 sessions
        for line in lines {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(o?["type"] != nil)
        }
    }

    @Test func verboseTreeAndColour() throws {
        let r = try CLI.run(["dissect", "-V", trace])
        #expect(r.status == 0)
        #expect(r.stdout.contains("[1..5] Password: 12 34 56 78"))
        let coloured = try CLI.run(["dissect", "-V", "--color", "always", trace])
        #expect(coloured.stdout.contains("\u{1B}["))
        let noColor = try CLI.run(["dissect", "--color", "auto", trace], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
    }

    @Test func usageErrorsExitWith2() throws {
        let r = try CLI.run(["dissect", "--format", "xml", trace])
        #expect(r.status == 2)
        #expect(r.stderr.contains("xml"))
        let c = try CLI.run(["convert", trace, "-"])
        #expect(c.status == 2)
        #expect(c.stderr == "nfctrace: cannot tell the output format of \"-\"; give --to pcap|pcapng|nfctrace|pm3|nfclab\n")
        #expect(try CLI.run(["frobnicate"]).status == 2)
        #expect(try CLI.run(["--help"]).status == 0)
        #expect(try CLI.run(["dissect", "--help"]).stdout.contains("--format"))
    }

    @Test func missingFileIsAnIOError() throws {
        let r = try CLI.run(["dissect", "/nonexistent/capture.pcap"])
        #expect(r.status == 74)
        #expect(r.stderr == "nfctrace: /nonexistent/capture.pcap: cannot open: No such file or directory\n")
    }

    @Test func badInputsGetOneLineAndExit65() throws {
        let empty = CLI.temporaryFile([])
        let e = try CLI.run(["dissect", empty])
        #expect(e.status == 65)
        #expect(e.stderr == "nfctrace: \(empty): empty file, no capture in it\n")

        let text = CLI.temporaryFile(Array("just some notes\n".utf8))
        let t = try CLI.run(["dissect", text])
        #expect(t.status == 65)
        #expect(t.stderr.hasPrefix("nfctrace: \(text): not a capture nfctrace can read (text starting \"just some notes\")"))
        #expect(t.stderr.split(separator: "\n").count == 1)

        // A pcap of Ethernet frames.
        var ether: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 1, 0, 0, 0]
        ether += [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0xAA, 0xBB]
        let eth = CLI.temporaryFile(ether)
        let l = try CLI.run(["dissect", eth])
        #expect(l.status == 65)
        #expect(l.stderr.contains("pcap link type 1 (EN10MB) carries no NFC frames"))
    }

    @Test func damagedFileIsDissectedUpToTheDamage() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/" + trace)))
        bytes.removeLast(3)
        let path = CLI.temporaryFile(bytes)
        let r = try CLI.run(["dissect", path])
        #expect(r.status == 65)
        let numbers = r.stdout.split(separator: "\n").compactMap { Int($0.prefix(6).trimmingCharacters(in: .whitespaces)) }
        #expect(numbers.last == 61, "every frame before the damage is printed, none after")
        #expect(r.stderr.hasPrefix("nfctrace: \(path): damaged at byte "))
        #expect(r.stderr.contains("(frame 62): libpcap: truncated dump file"))
    }

    @Test func convertRoundTripThroughText() throws {
        let text = NSTemporaryDirectory() + "nfctrace-\(UUID().uuidString).nfctrace"
        let back = NSTemporaryDirectory() + "nfctrace-\(UUID().uuidString).pcap"
        #expect(try CLI.run(["convert", trace, text]).status == 0)
        #expect(try CLI.run(["convert", text, back]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/" + trace))
        let b = try Data(contentsOf: URL(fileURLWithPath: back))
        // Byte for byte but the snapshot length (header bytes 16–19): the trace was written with
        // 65535, nfctrace writes 262144 now, so that a 65,535-byte frame fits (issue 51, point 10).
        func sameButSnaplen(_ x: Data, _ y: Data) -> Bool {
            x.count == y.count && x.count > 24 && Array(x.prefix(16)) == Array(y.prefix(16)) && x.dropFirst(20) == y.dropFirst(20)
        }
        #expect(sameButSnaplen(a, b))
        #expect(Array(b[16..<20]) == [0x00, 0x00, 0x04, 0x00], "snaplen 262144, little-endian")
        let toStdout = try CLI.run(["convert", trace, "-", "--to", "nfctrace"])
        #expect(toStdout.stdout.hasPrefix("nfctrace 1\n"))
        let pcapOut = try CLI.run(["convert", "-", "-", "--to", "pcap"], stdin: a)
        #expect(sameButSnaplen(pcapOut.stdoutBytes, a) && pcapOut.stdoutBytes == b)
    }

    // Issue 20: a converted trace carries no card number unless asked; the masked one dissects
    // to the same masked view, and --show-secrets converts byte for byte.
    @Test func convertMasksCardData() throws {
        let emv = "Traces/emv-test-card-nfcpy.nfctrace"
        let masked = try CLI.run(["convert", emv, "-", "--to", "nfctrace"])
        #expect(masked.status == 0)
        #expect(!masked.stdout.contains("41 11 11 11 11 11 11 11") && !masked.stdout.contains("54 45 53 54 2F"), "no card number, no name")
        #expect(masked.stdout.contains("5A 08 41 11 11 00 00 00 11 11 5F 20 0D 00 00") && masked.stdout.contains("# card data masked by nfctrace"))
        #expect(masked.stderr.contains("card data masked in 1 frame (--show-secrets keeps it)"))
        let again = try CLI.run(["dissect", "-"], stdin: masked.stdoutBytes)
        #expect(again.stdout == (try CLI.run(["dissect", emv])).stdout.replacingOccurrences(of: "emv-test-card-nfcpy.nfctrace", with: "-"))
        let shown = try CLI.run(["convert", "--show-secrets", emv, "-", "--to", "nfctrace"])
        #expect(shown.stdoutBytes == (try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/" + emv))) && shown.stderr.isEmpty)
    }

    @Test func failOnWarningsExitsWith1() throws {
        let bad = CLI.temporaryFile(Array("nfctrace 1\nR 30 03 99 9B\n".utf8))
        let r = try CLI.run(["dissect", "--fail-on", "warning", bad])
        #expect(r.status == 1)
        #expect(r.stdout.contains("CRC_A mismatch, expected 99 9A"))
        #expect(try CLI.run(["dissect", bad]).status == 0)
    }
}

/// The Wireshark Lua dissector for nfctrace's LINKTYPE_USER3 encapsulation, run by real tshark.
@Suite struct WiresharkLuaTests {
    static var tshark: String? {
        ["/usr/bin/tshark", "/usr/local/bin/tshark"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
    static var required: Bool { ProcessInfo.processInfo.environment["NFCTRACE_REQUIRE_ORACLES"] == "1" }

    @Test func tsharkShowsTechnologyDirectionAndPayload() throws {
        guard let tshark = Self.tshark else {
            if Self.required { Issue.record("tshark is not installed; scripts/setup installs it") }
            return
        }
        let text = CLI.temporaryFile(Array("""
            nfctrace 1
            @tech felica
            @origin 1795392000000000
            0 field-on
            100 R 06 00 FE 00 00 00 \(Self.crcF([0x06, 0x00, 0xFE, 0x00, 0x00, 0x00])) rate=212
            900 T 05 26 01 00 tech=15693 crc=stripped
            1000 R 26/7 tech=14443a
            2000 field-off

            """.utf8), suffix: ".nfctrace")
        let pcap = NSTemporaryDirectory() + "nfctrace-lua-\(UUID().uuidString).pcap"
        #expect(try CLI.run(["convert", text, pcap]).status == 0)
        let r = try ChildProcess.run(tshark, ["-X", "lua_script:\(CLI.root)/contrib/wireshark/nfctrace.lua", "-r", pcap, "-T", "fields", "-E", "separator=|",
                                              "-e", "nfctrace.technology", "-e", "nfctrace.event", "-e", "nfctrace.flags.crc", "-e", "nfctrace.flags.last_bits",
                                              "-e", "nfctrace.rate", "-e", "nfctrace.data", "-e", "_ws.col.Info"])
        let data = r.stdout
        #expect(r.status == 0)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == [
            "0x0f|2|0|0|0||FeliCa, field on",
            "0x0f|0|1|0|212|06 00 fe 00 00 00 \(Self.crcF([0x06, 0x00, 0xFE, 0x00, 0x00, 0x00]).lowercased())|FeliCa, reader to tag: 06 00 FE 00 00 00 \(Self.crcF([0x06, 0x00, 0xFE, 0x00, 0x00, 0x00]))",
            "0x05|1|0|0|0|05 26 01 00|ISO 15693, tag to reader: 05 26 01 00",
            "0x0a|0|1|7|0|26|ISO 14443-A, reader to tag: 26",
            "0x0f|3|0|0|0||FeliCa, field off",
        ])
    }

    static func crcF(_ bytes: [UInt8]) -> String {
        var crc: UInt16 = 0
        for b in bytes {
            crc ^= UInt16(b) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        return String(format: "%02X %02X", crc >> 8, crc & 0xFF)
    }
}
