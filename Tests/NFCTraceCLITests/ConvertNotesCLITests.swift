import Foundation
import Testing

/// Issue 44, point 3, through the binary: `convert` says what the output could not carry, one
/// `convert: note:` line per kind of loss; it does not offer or accept a format it cannot write;
/// what it writes reads back.
@Suite struct ConvertNotesCLITests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "nfctrace-notes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `text` as the file `name` in `dir`; its path.
    static func file(_ dir: String, _ name: String, _ text: String) -> String {
        _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(text.utf8))
        return dir + "/" + name
    }

    /// The note lines of a run, by what they name.
    static func notes(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("nfctrace: convert: note: ") }.map { String($0.dropFirst("nfctrace: convert: note: ".count)) }
    }

    @Test func aProxmark3ListingIsNotOfferedNorWritten() throws {
        let help = try CLI.run(["convert", "--help"])
        let to = help.stdout.split(separator: "\n").first { $0.contains("--to <to>") } ?? ""
        #expect(!to.isEmpty && !to.contains("pm3list"), "\(help.stdout)")
        let r = try CLI.run(["convert", "Traces/ntag215-password-read.pcap", "-", "--to", "pm3list"])
        #expect(r.status == 2)
        #expect(r.stderr == "nfctrace: nfctrace reads Proxmark3 listings but does not write them; --to pm3 writes the .trace the Proxmark3 client lists\n")
        #expect(r.stdout.isEmpty)
    }

    /// A trace of ISO 14443-A, -B and FeliCa frames, field events and comments into a .trace: a
    /// note for the technology, the field events, the comments, each once, with a count.
    @Test func aMixedTraceIntoATraceSaysWhatItLoses() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["convert", "Traces/mixed-polling-loop.nfctrace", dir + "/m.trace", "--pm3-times", "first"])
        #expect(r.status == 0, "\(r.stderr)")
        let notes = Self.notes(r.stderr)
        let kinds = notes.map { $0.prefix { $0 != ":" } }
        #expect(Set(kinds).count == kinds.count, "one note per kind: \(notes)")
        #expect(notes.contains { $0.hasPrefix("technology: a .trace does not say it: frames read back as --tech says (14443a by default) (") })
        #expect(notes.contains { $0.hasPrefix("field on/off events: a .trace has none: dropped (") && $0.hasSuffix("events, first: frame 1)") })
        #expect(notes.contains { $0.hasPrefix("frame comments: ") })
        #expect(try CLI.run(["dissect", dir + "/m.trace"]).status == 0)
    }

    /// Issue 44's first case: an iClass sniff (a Proxmark3 listing with bare SOFs) into the text
    /// format, and back to a .trace, reads back whole.
    @Test func anIClassSniffConvertsAndReadsBack() throws {
        let dir = try Self.folder()
        let input = Self.file(dir, "sniff.txt", """
            [=] ISO15693 / iCLASS - all times are in carrier periods (1/13.56MHz)
                  Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation
            ------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------
                 159733 |     169429 | Rdr |88  02                                                                  |     | READCHECK[Kd](2)
                 171625 |     205929 | Tag |FE  FF  FF  FF  FF  FF  FF  FF                                          |     |
                 350000 |     352048 | Tag | <SOF>                                                                  |     |

            """)
        let text = try CLI.run(["convert", input, dir + "/sniff.nfctrace"])
        #expect(text.status == 0 && Self.notes(text.stderr).isEmpty, "\(text.stderr)")
        let written = try String(contentsOfFile: dir + "/sniff.nfctrace", encoding: .utf8)
        #expect(written.contains("190267..192315  T  empty"), "\(written)")
        let trace = try CLI.run(["convert", dir + "/sniff.nfctrace", dir + "/sniff.trace"])
        #expect(trace.status == 0)
        let back = try CLI.run(["dissect", "--tech", "iclass", dir + "/sniff.trace", "--format", "json"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"frame\"") }.count == 3)
        #expect(back.stdout.contains("\"direction\":\"tag\",\"technology\":\"iclass\",\"start\":350000"))
    }

    /// `--pm3-times first` on a trace whose second frame starts before the first: counted from
    /// the earliest, it is written.
    @Test func pm3TimesFirstTakesAFrameBeforeTheFirst() throws {
        let dir = try Self.folder()
        let input = Self.file(dir, "back.nfctrace", "nfctrace 1\n@origin 1795392000000000\n1000 R 26/7\n990 R 52/7\n1200 T 44 00\n")
        let r = try CLI.run(["convert", input, dir + "/back.trace", "--pm3-times", "first"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("0 s after the first frame"))
        let listed = try CLI.run(["convert", dir + "/back.trace", "-", "--to", "nfctrace"])
        // 10 µs (136 carrier periods) before the first frame, which the text counts from.
        #expect(listed.stdout.contains("-136..888  R  52/7"), "\(listed.stdout)")
    }

    /// A comment has no place in pcap (a note says so); pcapng keeps it as the packet's comment,
    /// which tshark shows.
    @Test func commentsInPcapAndPcapng() throws {
        let dir = try Self.folder()
        let input = Self.file(dir, "c.nfctrace", "nfctrace 1\n@origin 1795392000000000\n0 R 26/7 # REQA, seen by the bench\n100 T 44 00\n")
        let pcap = try CLI.run(["convert", input, dir + "/c.pcap"])
        #expect(pcap.status == 0)
        #expect(Self.notes(pcap.stderr).contains("frame comments: pcap has no comments (pcapng keeps them) (1 frame, first: frame 1)"), "\(pcap.stderr)")
        let ng = try CLI.run(["convert", input, dir + "/c.pcapng", "--link-type", "nfctrace"])
        #expect(ng.status == 0)
        #expect(!Self.notes(ng.stderr).contains { $0.hasPrefix("frame comments") }, "\(ng.stderr)")
        #expect(try CLI.run(["convert", dir + "/c.pcapng", "-", "--to", "nfctrace"]).stdout.contains("R  26/7  # REQA, seen by the bench"))
        guard let tshark = WiresharkLuaTests.tshark else {
            if WiresharkLuaTests.required { Issue.record("tshark is not installed; scripts/setup installs it") }
            return
        }
        let r = try ChildProcess.run(tshark, ["-r", dir + "/c.pcapng", "-T", "fields", "-e", "frame.comment"])
        #expect(r.status == 0)
        #expect(String(decoding: r.stdout, as: UTF8.self) == "REQA, seen by the bench\n\n")
    }
}
