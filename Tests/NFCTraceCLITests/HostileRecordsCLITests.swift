import Foundation
import Testing

/// Issue 51, points 9, 10 and 18a: records without bytes, and the longest records pcap holds.
extension HostileInputCLITests {
    // MARK: point 9: records without bytes

    /// Converts `input` with `options` into a temporary file, and that back to a text trace.
    static func roundTrip(_ input: String, _ options: [String]) throws -> (output: String, text: String) {
        let output = CLI.temporaryFile([], suffix: ".out")
        let r = try CLI.run(["convert", input, output] + options)
        #expect(r.status == 0, "\(input) \(options): \(r.stderr)")
        let back = try CLI.run(["convert", output, "-", "--to", "nfctrace"])
        #expect(back.status == 0, "\(input) \(options), read back: \(back.stderr)")
        return (output, back.stdout)
    }

    @Test func recordsWithoutBytesConvertToFilesThatReadBack() throws {
        // A LINKTYPE_ISO_14443 data record of length 0, and an nfc-laboratory frame of "".
        var pcap: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 8, 1, 0, 0]
        for (i, record) in ([[0x00, 0xFE, 0x00, 0x01, 0x26], [0x00, 0xFE, 0x00, 0x00]] as [[UInt8]]).enumerated() {
            let header: [UInt8] = [1, 0, 0, 0, UInt8(i), 0, 0, 0, UInt8(record.count), 0, 0, 0, UInt8(record.count), 0, 0, 0]
            pcap += header + record
        }
        let lab = Self.file("{\"frames\":[{\"frameType\":258,\"techType\":257,\"frameData\":\"26\"},{\"frameType\":258,\"techType\":257,\"frameData\":\"\"}]}")
        for input in [CLI.temporaryFile(pcap, suffix: ".pcap"), lab] {
            for format in ["nfctrace", "pcap", "pcapng", "pm3", "nfclab"] {
                let (output, back) = try Self.roundTrip(input, ["--to", format])
                #expect(back.contains(" R  empty"), "\(input) → \(format): \(back)")
                #expect(try CLI.run(["dissect", output]).status == 0)
            }
        }
    }

    @Test(arguments: ["12", "[]", "{}", "null"])
    func frameDataThatIsNoStringIsDamage(value: String) throws {
        let path = Self.file("{\"frames\":[{\"frameType\":258,\"techType\":257,\"frameData\":\"26\"},\n{\"frameType\":259,\"techType\":257,\"frameData\":\(value)}]}")
        let r = try CLI.run(["convert", path, "-", "--to", "nfctrace"])
        #expect(r.status == 65)
        #expect(r.stdout.hasSuffix(" R  26\n"), "the frame before the damage is written")
        #expect(r.stderr.contains("\(path): damaged at byte 62 (frame 2): frameData "), "\(r.stderr)")
        #expect(r.stderr.contains("is no string of hex bytes"), "\(r.stderr)")
    }

    // MARK: points 10 and 18a: the longest frames in pcap and pcapng

    @Test func aFrameOf65535BytesRoundTripsThroughPcapAndPcapng() throws {
        let bytes = (0..<65535).map { String(format: "%02X", $0 & 0xFF) }.joined(separator: " ")
        let input = Self.file("nfctrace 1\n@timebase us\n0 R \(bytes)\n", suffix: ".nfctrace")
        for format in ["pcap", "pcapng"] {
            for linkType in ["iso14443", "nfctrace"] {
                let (output, back) = try Self.roundTrip(input, ["--to", format, "--link-type", linkType])
                #expect(back.contains(" R  \(bytes)"), "\(format) \(linkType): the frame reads back whole")
                #expect(!back.contains("malformed"))
                if FileManager.default.isExecutableFile(atPath: "/usr/bin/tshark") {
                    let t = try ChildProcess.run("/usr/bin/tshark", ["-r", output, "-T", "fields", "-e", "frame.cap_len", "-e", "frame.len"])
                    #expect(t.status == 0, "\(String(decoding: t.stderr, as: UTF8.self))")
                    let lengths = String(decoding: t.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace)
                    let record = linkType == "iso14443" ? "65539" : "65545"
                    #expect(lengths == [Substring(record), Substring(record)], "tshark reads the record whole")
                }
            }
        }
    }

    @Test func aFrameLongerThanARecordIsRefusedForItsLength() throws {
        let input = Self.file("nfctrace 1\n0 R " + String(repeating: "00 ", count: 70_000) + "\n", suffix: ".nfctrace")
        for (format, linkType) in [("pcap", "iso14443"), ("pcapng", "iso14443"), ("pcap", "nfctrace"), ("pcapng", "nfctrace")] {
            let r = try CLI.run(["convert", input, "-", "--to", format, "--link-type", linkType])
            #expect(r.status == 65)
            let header = linkType == "iso14443" ? "LINKTYPE_ISO_14443" : "nfctrace"
            #expect(r.stderr == "nfctrace: <stdout>: frame 1 cannot be written: its 70000 bytes are more than a record holds: the \(header) pseudo-header counts at most 65535 bytes\n")
        }
    }
}
