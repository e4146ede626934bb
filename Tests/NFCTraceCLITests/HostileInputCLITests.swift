import Foundation
import Testing
import NFCTestInputs

/// Issue 51 ("Hostile input, round two"): input shapes that took quadratic time or memory,
/// records a conversion could not hold, and outputs that land on their own input.
@Suite struct HostileInputCLITests {
    static let oneFrame = CLI.temporaryFile(Array("nfctrace 1\n0 R 26\n".utf8), suffix: ".nfctrace")

    static func file(_ text: String, suffix: String = "") -> String { CLI.temporaryFile(Array(text.utf8), suffix: suffix) }

    /// `nfctrace ARGS` with `@` standing for a file of `text`, timed by LinearTime.
    static func run(_ text: String, _ arguments: [String], suffix: String = "") throws {
        let path = file(text, suffix: suffix)
        defer { unlink(path) }
        _ = try CLI.run(arguments.map { $0 == "@" ? path : $0 })
    }

    // MARK: point 2: runs of blanks and many tokens in the text readers

    /// Trimmed Character by Character from the end, 8 KiB of blanks took 0.4 s and 32 KiB 6 s.
    @Test func trailingBlanksAfterTextTraceLines() throws {
        try LinearTime.expect("blanks after the first event", n: 8192) { n in
            try Self.run("nfctrace 1\n0 R 26" + String(repeating: " \t", count: n / 2) + "\n", ["convert", "@", "-", "--to", "pcap"])
        }
        try LinearTime.expect("blanks after an @key value", n: 8192) { n in
            try Self.run("nfctrace 1\n@device NTAG215" + String(repeating: " ", count: n) + "\n0 R 26\n", ["convert", "@", "-", "--to", "pcap"])
        }
        try LinearTime.expect("blanks after a later event", n: 8192) { n in
            try Self.run("nfctrace 1\n0 R 26\n1 T 44 00" + String(repeating: " ", count: n) + "\n", ["convert", "@", "-", "--to", "pcap"])
        }
        let r = try CLI.run(["dissect", Self.file("nfctrace 1\n0 R 26" + String(repeating: " ", count: 65536) + "\n")])
        #expect(r.status == 0 && r.stdout.contains("REQA"))
    }

    @Test func manyTokensAndCommentsInATextTrace() throws {
        try LinearTime.expect("bytes with parity marks on one line", n: 16384) { n in
            try Self.run("nfctrace 1\n0 R " + String(repeating: "26! ", count: n / 4) + "\n", ["convert", "@", "-", "--to", "pm3"])
        }
        try LinearTime.expect("comment lines", n: 16384) { n in
            try Self.run("nfctrace 1\n0 R 26\n" + String(repeating: "#\n", count: n / 2) + "1 T 44 00\n", ["convert", "@", "-", "--to", "nfclab"])
        }
    }

    @Test func trailingBlanksAndManyKeysInKeyFiles() throws {
        try LinearTime.expect("blanks after a key", n: 8192) { n in
            try Self.run("A0A1A2A3A4A5" + String(repeating: " ", count: n) + "\n", ["dissect", "--keys", "@", Self.oneFrame])
        }
        // Each key was looked for in the list before it: 2,000 keys 0.1 s, 8,000 keys 2 s.
        try LinearTime.expect("many keys", n: 2000) { n in
            try Self.run((0..<n).map { String(format: "%012X\n", $0) }.joined(), ["dissect", "--keys", "@", Self.oneFrame])
        }
    }

    static let flipper = """
        Filetype: Flipper NFC device
        Version: 4
        Device type: NTAG215
        UID: 04 51 5C FA 6F 73 81
        ATQA: 00 44
        SAK: 00

        """

    @Test func trailingBlanksInFlipperDumps() throws {
        try LinearTime.expect("blanks after a Flipper value", n: 8192) { n in
            let text = Self.flipper.replacingOccurrences(of: "Version: 4", with: "Version: 4" + String(repeating: " ", count: n))
            try Self.run(text, ["replay", Self.oneFrame, "--against", "emulator:@"], suffix: ".nfc")
        }
    }

    static let listingHeader = """
              Start |        End | Src | Data (! denotes parity error)      | CRC | Annotation
        ------------+------------+-----+-----------------------------------+-----+-----------

        """

    @Test func listingsOfUnitLinesAndOfLongFrames() throws {
        // Each unit line that names both ISO 15693 and iClass split the next 64 KiB into lines:
        // 256 of them 0.1 s, 1,024 of them 1.5 s.
        try LinearTime.expect("unit lines", n: 256) { n in
            try Self.run(String(repeating: "[=] ISO15693 / iCLASS - all times are in carrier periods (1/13.56MHz)\n", count: n),
                         ["convert", "--from", "pm3list", "@", "-", "--to", "nfctrace"])
        }
        // Issue 51 point 3: the parity errors of a frame were copied for every row it goes on in.
        try LinearTime.expect("continuation rows of parity errors", n: 2000) { n in
            let rows = String(repeating: "            |            |     |26! 26! 26! 26!                    |     |\n", count: n)
            try Self.run(Self.listingHeader + "          0 |       1056 | Rdr |26!                                |     |\n" + rows,
                         ["convert", "--from", "pm3list", "@", "-", "--to", "pm3"])
        }
    }

    @Test func labExportsWithLongDataAndManyFrames() throws {
        try LinearTime.expect("one long frameData", n: 1 << 18) { n in
            try Self.run("{\"frames\":[{\"frameType\":258,\"techType\":257,\"frameData\":\"" + String(repeating: "A5:", count: n / 3) + "A5\"}]}",
                         ["convert", "@", "/dev/null", "--to", "nfclab"])
        }
        try LinearTime.expect("blanks between frames", n: 1 << 18) { n in
            try Self.run("{\"frames\":[{\"frameType\":258,\"techType\":257,\"frameData\":\"26\"}," + String(repeating: " \n", count: n / 2)
                         + "{\"frameType\":259,\"techType\":257,\"frameData\":\"44:00\"}]}", ["convert", "@", "-", "--to", "nfctrace"])
        }
    }

    /// Issue 51 point 3, readers' part: a random .trace read and written again without the text
    /// renderer (0.5 MB against 2 MB; records of up to 4 KiB with random parity).
    @Test func randomProxmark3TracesConvertInLinearTime() throws {
        let seed = TestSeed(0x7ACE_0001)
        var generator = seed.generator
        func trace(_ size: Int) -> [UInt8] {
            var out: [UInt8] = []
            var ticks: UInt32 = 0
            while out.count < size {
                let length = Int.random(in: 1...4096, using: &generator)
                ticks &+= UInt32.random(in: 0...5000, using: &generator)
                out += [UInt8(ticks & 0xFF), UInt8((ticks >> 8) & 0xFF), UInt8((ticks >> 16) & 0xFF), UInt8(ticks >> 24), 0xE8, 0x03,
                        UInt8(length & 0xFF), UInt8(length >> 8)]
                out += (0..<length + (length - 1) / 8 + 1).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if length % 8 != 0 { out[out.count - 1] &= UInt8(truncatingIfNeeded: 0xFF << (8 - length % 8)) }
            }
            return out
        }
        try LinearTime.expect("random .trace to .trace, \(seed)", n: 500_000) { n in
            let path = CLI.temporaryFile(trace(n), suffix: ".trace")
            defer { unlink(path) }
            let r = try CLI.run(["convert", "--from", "pm3", path, "-", "--to", "pm3"])
            #expect(r.status == 0, "\(r.stderr), \(seed)")
        }
    }
}
