import Foundation
import Testing

/// Issue 51 ("Hostile input, round two"): peers that send what no peer should, and the options
/// that name them.
@Suite struct HostilePeerTests {
    // MARK: point 17b: an address that cannot be parsed

    /// A HOST the sockets cannot take is a usage error naming the option (exit 2), for every
    /// option that takes one; before, --udp failed with 74 and --vpcd waited for ever.
    @Test(arguments: [
        (["emulate", "--model", "ntag215", "--udp", "999.1.1.1:0"], "--udp"),
        (["emulate", "--model", "ntag215", "--udp", "no.such.host:4000"], "--udp"),
        (["emulate", "--model", "ntag215", "--vpcd", "999.1.1.1:35963"], "--vpcd"),
        (["replay", "Traces/ntag215-password-read.pcap", "--against", "udp:999.1.1.1:5000"], "--against"),
    ])
    func anAddressThatCannotBeParsedIsAUsageError(arguments: [String], option: String) throws {
        let r = try ChildProcess.run(CLI.binary, arguments, directory: CLI.root, seconds: 10)
        let err = String(decoding: r.stderr, as: UTF8.self)
        #expect(!r.timedOut && r.status == 2, "exit \(r.status): \(err)")
        #expect(err.contains(option) && err.contains("is no IPv4 address"), "\(err)")
        #expect(!err.contains("emulating"), "refused before serving")
    }
}
