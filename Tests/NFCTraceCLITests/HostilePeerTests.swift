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

    // MARK: point 18b: datagrams logged as the bytes received

    /// Bytes that are no UTF-8 (FF FE 80, a C3 before a non-continuation) and control bytes
    /// are shown one by one, as received, not as the U+FFFD a lossy decoding made of them.
    @Test func anIgnoredDatagramIsLoggedAsItsBytes() throws {
        let emulator = try Emulator(["--model", "ntag215"])
        emulator.send(Data([0xFF, 0xFE, 0x1B, 0x5B, 0x32, 0x4A, 0xC3, 0x28, 0x80]))
        #expect(emulator.exchange("106A 26") == "106A 4400")
        emulator.stop(SIGTERM)
        let err = String(decoding: emulator.stderr, as: UTF8.self)
        #expect(err.contains("no nfcpy frame: \\xFF\\xFE\\x1B[2J\\xC3(\\x80"), "\(err)")
        #expect(!err.contains("\\xEF\\xBF\\xBD") && !err.contains("\u{1B}"), "\(err)")
    }

    /// The replay's UDP target shows an answer that is no nfcpy frame as its bytes too.
    @Test func aGarbageAnswerToAReplayIsShownAsItsBytes() throws {
        let peer = UDPPeer(answer: [0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x20, 0xC3, 0x28])
        defer { peer.stop() }
        let r = try CLI.run(["replay", "Traces/ntag215-password-read.pcap", "--against", "udp:127.0.0.1:\(peer.port)"])
        let all = r.stdout + r.stderr
        #expect(all.contains("answer is no nfcpy frame: \\xFF\\x1B[2J \\xC3("), "\(all)")
        #expect(!all.contains("\u{FFFD}") && !all.contains("\u{1B}"), "\(all)")
    }
}

/// A UDP socket on 127.0.0.1 that answers every datagram with `answer` until `stop`.
final class UDPPeer {
    let fd: Int32
    let port: UInt16
    private var loop: BackgroundLoop?

    init(answer: [UInt8]) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
        port = bindLoopback(fd)
        loop = BackgroundLoop {
            var buffer = [UInt8](repeating: 0, count: 2048)
            var from = sockaddr_storage()
            var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let n = withUnsafeMutablePointer(to: &from) { f in
                f.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &fromLength) }
            }
            guard n > 0 else { return }
            _ = answer.withUnsafeBytes { b in
                withUnsafePointer(to: &from) { f in
                    f.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, b.baseAddress, b.count, 0, $0, fromLength) }
                }
            }
        }
    }

    func stop() {
        loop?.stop()
        close(fd)
    }
}
