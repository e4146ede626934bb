import Foundation
import Testing

/// Issue 51, point 12: output onto the input through standard output or a FIFO.
extension HostileInputCLITests {
    // MARK: point 12: output onto the input through standard output or a FIFO

    static func shell(_ command: String) throws -> (status: Int32, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["NFCTRACE"] = CLI.binary
        let r = try ChildProcess.run("/bin/sh", ["-c", command], environment: environment)
        return (r.status, String(decoding: r.stderr, as: UTF8.self))
    }

    @Test func standardOutputOntoTheInputIsRefused() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: CLI.root + "/Traces/ntag215-password-read.pcap"))
        let path = CLI.temporaryFile(Array(original), suffix: ".pcap")
        let appended = try Self.shell("\"$NFCTRACE\" convert '\(path)' - --to pcap >> '\(path)'")
        #expect(appended.status == 2, "\(appended.stderr)")
        #expect(appended.stderr == "nfctrace: output <stdout> is the input \(path): nfctrace does not write onto a file it reads; write elsewhere, then move the file\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "nothing appended")
        let same = try Self.shell("\"$NFCTRACE\" convert - - --to pcap < '\(path)' >> '\(path)'")
        #expect(same.status == 2, "\(same.stderr)")
        #expect(same.stderr.contains("output <stdout> is the input <stdin>"))
        let other = CLI.temporaryFile([], suffix: ".pcap")
        #expect(try Self.shell("\"$NFCTRACE\" convert '\(CLI.root)/Traces/ntag215-password-read.pcap' - --to pcap >> '\(other)'").status == 0)
    }

    @Test func oneFIFOAsInputAndOutputIsRefused() throws {
        let fifo = NSTemporaryDirectory() + "nfctrace-fifo-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // `timeout`: before the check, opening the FIFO for reading blocked for ever.
        let byPath = try Self.shell("timeout 20 \"$NFCTRACE\" convert '\(fifo)' '\(fifo)' --to pcap")
        #expect(byPath.status == 2, "\(byPath.stderr)")
        #expect(byPath.stderr.contains("output \(fifo) is the input \(fifo)"))
        let byStdout = try Self.shell("timeout 20 \"$NFCTRACE\" convert '\(fifo)' - --to pcap 1<>'\(fifo)'")
        #expect(byStdout.status == 2, "\(byStdout.stderr)")
        #expect(byStdout.stderr.contains("output <stdout> is the input \(fifo)"))
    }
}
