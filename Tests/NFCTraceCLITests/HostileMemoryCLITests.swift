import Foundation
import Testing

/// Issue 51, point 13: an nfc-laboratory export with one huge frameData.
extension HostileInputCLITests {
    // MARK: point 13: one huge frameData

    /// The peak resident memory of `nfctrace ARGS` in KiB, by GNU time (nil when it is missing).
    static func peakKiB(_ arguments: [String]) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        let report = CLI.temporaryFile([], suffix: ".time")
        defer { unlink(report) }
        _ = try ChildProcess.run("/usr/bin/time", ["-f", "%M", "-o", report, CLI.binary] + arguments)
        return Int(try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last ?? "")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time (apt-get install time) measures the peak"))
    func aHugeFrameDataTakesAFewTimesItsSize() throws {
        // 24 MB of frameData: read whole and parsed Character by Character it peaked at 20
        // times that (0.5 GB); read object by object, about 3 times.
        let size = 24_000_000
        var text = Array("{\"frames\":[{\"frameType\":258,\"techType\":257,\"frameData\":\"26\"},\n{\"frameType\":258,\"techType\":257,\"frameData\":\"".utf8)
        text.reserveCapacity(size + 100)
        for _ in 0..<(size / 3) { text += [0x41, 0x35, 0x3A] }
        text += Array("A5\"}]}\n".utf8)
        let path = CLI.temporaryFile(text, suffix: ".json")
        defer { unlink(path) }
        // pcap refuses the 8 MB frame after reading it: the reader's peak, no writer's.
        let peak = try #require(try Self.peakKiB(["convert", path, "/dev/null", "--to", "pcap"]))
        #expect(peak < 6 * size / 1024, "peak \(peak / 1024) MiB for a \(size / 1_000_000) MB export")
    }
}
