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

extension HostilePeerTests {
    // MARK: point 6: signals while a peer misbehaves

    /// A fresh folder with the paths a stopping emulator writes: the recording, the saved tag,
    /// the pty link.
    struct Outputs {
        let record: String
        let save: String
        let link: String

        init() throws {
            let dir = NSTemporaryDirectory() + "nfctrace-peers-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            record = dir + "/session.nfctrace"
            save = dir + "/tag.nfc"
            link = dir + "/pn532"
        }

        /// Both files complete, with the write of page 0x10 (CA FE F0 0D) in them.
        func checkWritten() throws {
            let saved = String(decoding: FileManager.default.contents(atPath: save) ?? Data(), as: UTF8.self)
            #expect(saved.contains("Page 16: CA FE F0 0D"), "\(saved)")
            let dissected = try CLI.run(["dissect", record])
            #expect(dissected.status == 0 && dissected.stdout.contains("WRITE page 0x10"), "\(dissected.stdout)\n\(dissected.stderr)")
        }
    }

    /// One `signal` to the emulator: its exit status and how long it took to end (killed after 5 s).
    static func stopOnce(_ emulator: EmulatorChild, _ signal: Int32) -> (status: Int32, seconds: Double) {
        stopOnce(emulator.process, signal)
    }

    static func stopOnce(_ process: Process, _ signal: Int32) -> (status: Int32, seconds: Double) {
        let start = Date()
        kill(process.processIdentifier, signal)
        let ended = ChildProcess.wait(process, seconds: 5)
        let seconds = Date().timeIntervalSince(start)
        if !ended {
            kill(process.processIdentifier, SIGKILL)
            _ = ChildProcess.wait(process, seconds: 5)
            return (-1, seconds)
        }
        return (process.terminationStatus, seconds)
    }

    /// A PN532 host frame (protocols-wave2.md §8.1), as the test's host writes it.
    static func pn532(_ body: [UInt8]) -> [UInt8] {
        let len = UInt8(body.count)
        return [0x00, 0x00, 0xFF, len, 0 &- len] + body + [0 &- body.reduce(0, &+), 0x00]
    }

    /// What arrives on `fd` within `seconds`.
    static func received(_ fd: Int32, seconds: Double) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 20) > 0 else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { out += buffer[0..<n] }
        }
        return out
    }

    /// Writes `bytes` to the non-blocking `fd` again and again, never reading, until stopped
    /// (a socket with MSG_NOSIGNAL: the emulator's end closing must not kill the test).
    static func flood(_ fd: Int32, _ bytes: [UInt8], socket: Bool = false) -> BackgroundLoop {
        BackgroundLoop {
            let n = bytes.withUnsafeBytes { socket ? send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) : write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { usleep(5_000) }
        }
    }

    /// A PN532 host that selects the tag, writes page 0x10, then keeps sending and never reads:
    /// one signal stops the emulator within a second, exit 0, with the recording and the saved
    /// tag complete and the pty link gone. SIGINT and SIGHUP take the same path as SIGTERM.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aPN532HostThatNeverReadsDoesNotHoldUpTheStop(signal: Int32) throws {
        let out = try Outputs()
        let emulator = try EmulatorChild(["--model", "ntag215", "--pn532", out.link, "--record", out.record, "--save", out.save],
                                         ready: "in the field of a PN532")
        defer { _ = emulator.stop() }
        let fd = open(out.link, O_RDWR | O_NOCTTY | O_NONBLOCK)
        #expect(fd >= 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // InListPassiveTarget (one 106 kbit/s type A target), then WRITE page 0x10 through InDataExchange.
        let list = Self.pn532([0xD4, 0x4A, 0x01, 0x00])
        #expect(list.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == list.count)
        #expect(Self.received(fd, seconds: 0.5).contains(0x4B), "InListPassiveTarget answered")
        let page = Self.pn532([0xD4, 0x40, 0x01, 0xA2, 0x10, 0xCA, 0xFE, 0xF0, 0x0D])
        #expect(page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == page.count)
        let answer = Self.received(fd, seconds: 0.5)
        #expect(answer.suffix(5).starts(with: [0xD5, 0x41, 0x00]), "WRITE answered: \(answer)")
        // GetFirmwareVersion again and again, never read, until well after the signal.
        let flood = Self.flood(fd, Array(repeating: Self.pn532([0xD4, 0x02]), count: 64).flatMap { $0 })
        defer { flood.stop() }
        usleep(1_500_000)
        let stop = Self.stopOnce(emulator, signal)
        flood.stop()
        print("PN532 host that never reads: signal \(signal) to exit \(String(format: "%.3f", stop.seconds)) s, status \(stop.status)")
        #expect(stop.status == 0 && stop.seconds < 1, "signal \(signal): status \(stop.status) after \(stop.seconds) s")
        var st = stat()
        #expect(lstat(out.link, &st) != 0, "the pty link is removed")
        try out.checkWritten()
    }

    /// Two signals in a row (what a user whose first one seemed lost does): whichever ends the
    /// emulator, the pty link goes with it.
    @Test func twoSignalsLeaveNoPTYLink() throws {
        let out = try Outputs()
        let emulator = try EmulatorChild(["--model", "ntag215", "--pn532", out.link], ready: "in the field of a PN532")
        defer { _ = emulator.stop() }
        let fd = open(out.link, O_RDWR | O_NOCTTY | O_NONBLOCK)
        #expect(fd >= 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let flood = Self.flood(fd, Array(repeating: Self.pn532([0xD4, 0x02]), count: 64).flatMap { $0 })
        defer { flood.stop() }
        usleep(1_500_000)
        kill(emulator.process.processIdentifier, SIGTERM)
        usleep(50_000)
        kill(emulator.process.processIdentifier, SIGTERM)
        #expect(ChildProcess.wait(emulator.process, seconds: 5))
        flood.stop()
        var st = stat()
        #expect(lstat(out.link, &st) != 0, "the pty link is removed")
    }

    /// A usage error found after the link was made (the recording's format) removes it too.
    @Test func thePTYLinkIsRemovedOnAUsageErrorAfterItWasMade() throws {
        let out = try Outputs()
        let r = try CLI.run(["emulate", "--model", "ntag215", "--pn532", out.link, "--record", out.link + ".txt"])
        #expect(r.status == 2, "\(r.stderr)")
        var st = stat()
        #expect(lstat(out.link, &st) != 0, "the pty link is removed")
    }

    /// The link is removed on the other ways out too: a save that fails after serving (a
    /// file-size limit stands in for a full disk) ends the process with 74, without deinit.
    @Test func thePTYLinkIsRemovedWhenTheSaveFails() throws {
        let out = try Outputs()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -f 1; exec \"$0\" \"$@\"", CLI.binary, "emulate", "--model", "ntag215", "--pn532", out.link, "--save", out.save]
        p.standardError = FileHandle.nullDevice
        try p.run()
        var st = stat()
        let deadline = Date().addingTimeInterval(20)
        while lstat(out.link, &st) != 0 && Date() < deadline && p.isRunning { usleep(20_000) }
        #expect(lstat(out.link, &st) == 0, "serving")
        let stop = Self.stopOnce(p, SIGTERM)
        #expect(stop.status == 74, "the save failed: \(stop.status)")
        #expect(lstat(out.link, &st) != 0, "the pty link is removed")
    }

    /// pcscd's vpcd driver as the emulator meets it: listening on 127.0.0.1 (the emulator is
    /// the virtual card and connects, VPCDClient), one 2-byte big-endian length and a payload
    /// per message.
    final class VPCDPeer {
        let listener: Int32
        let port: UInt16
        private(set) var connection: Int32 = -1

        /// `receiveBuffer` makes the connection's receive buffer small, so that a peer that
        /// stops reading fills it soon.
        init(receiveBuffer: Int32? = nil) {
            listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if var size = receiveBuffer { setsockopt(listener, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
            port = bindLoopback(listener)
            listen(listener, 1)
        }

        deinit {
            if connection >= 0 { close(connection) }
            close(listener)
        }

        func acceptCard(seconds: Double) -> Bool {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(seconds * 1000)) > 0 else { return false }
            connection = accept(listener, nil, nil)
            return connection >= 0
        }

        func put(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func message(_ payload: [UInt8]) { put([UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload) }

        /// The next message from the card (nil: none within `seconds`).
        func answer(seconds: Double = 5) -> [UInt8]? {
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 1)
            while Date() < deadline {
                if bytes.count >= 2, bytes.count == 2 + (Int(bytes[0]) << 8 | Int(bytes[1])) { return Array(bytes.dropFirst(2)) }
                var pfd = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 20) > 0 else { continue }
                guard recv(connection, &buffer, 1, 0) == 1 else { return nil }
                bytes += buffer
            }
            return nil
        }
    }

    /// The emulator connected to `peer`, the tag powered and page 0x10 written (PC/SC Part 3
    /// UPDATE BINARY, as pyscard's client in PCSCTests writes it).
    static func connectedAndWritten(_ peer: VPCDPeer, _ out: Outputs) throws -> EmulatorChild {
        // The driver check: any file that exists stands in for vpcd's driver (no pcscd here).
        let emulator = try EmulatorChild(["--model", "ntag215", "--vpcd", "127.0.0.1:\(peer.port)", "--record", out.record, "--save", out.save],
                                         ready: "the card is in the reader", environment: ["NFCTRACE_VPCD_DRIVER": CLI.binary])
        #expect(peer.acceptCard(seconds: 10))
        peer.message([0x01])
        peer.message([0x04])
        #expect(peer.answer()?.first == 0x3B, "the ATR")
        peer.message([0xFF, 0xD6, 0x00, 0x10, 0x04, 0xCA, 0xFE, 0xF0, 0x0D])
        #expect(peer.answer() == [0x90, 0x00], "UPDATE BINARY page 0x10")
        return emulator
    }

    /// A vpcd peer that announces 65,535 bytes and sends 10: one SIGTERM stops the emulator
    /// within a second, exit 0, the write recorded and saved.
    @Test func aVPCDPeerThatSendsLessThanItAnnouncesDoesNotHoldUpTheStop() throws {
        let out = try Outputs()
        let peer = VPCDPeer()
        let emulator = try Self.connectedAndWritten(peer, out)
        defer { _ = emulator.stop() }
        peer.put([0xFF, 0xFF] + [UInt8](repeating: 0xB0, count: 10))
        usleep(300_000)
        let stop = Self.stopOnce(emulator, SIGTERM)
        print("vpcd peer announcing 65535 bytes, sending 10: SIGTERM to exit \(String(format: "%.3f", stop.seconds)) s, status \(stop.status)")
        #expect(stop.status == 0 && stop.seconds < 1, "status \(stop.status) after \(stop.seconds) s")
        try out.checkWritten()
    }

    /// Whether the emulator's end of the connection to `peerPort` has commands waiting and has
    /// sent nothing more for a second (its send queue unchanged), within `seconds`. Linux reads
    /// the queues from /proc/net/tcp; elsewhere the flood just lasts 10 s.
    static func waitUntilStuck(peerPort: UInt16, seconds: Double) -> Bool {
        #if os(Linux)
        func queues() -> (send: Int, receive: Int)? {
            guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
            // sl local_address rem_address st tx_queue:rx_queue …; the emulator's end is the one
            // whose remote port is the peer's.
            for line in table.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ")
                guard f.count > 4, let remote = f[2].split(separator: ":").last, UInt16(remote, radix: 16) == peerPort else { continue }
                let q = f[4].split(separator: ":")
                guard q.count == 2, let tx = Int(q[0], radix: 16), let rx = Int(q[1], radix: 16) else { continue }
                return (tx, rx)
            }
            return nil
        }
        let deadline = Date().addingTimeInterval(seconds)
        var last = queues()?.send ?? -1, since = Date()
        while Date() < deadline {
            usleep(100_000)
            guard let q = queues() else { continue }
            if q.send != last {
                last = q.send
                since = Date()
            } else if q.receive > 0 && Date().timeIntervalSince(since) >= 1 {
                return true
            }
        }
        return false
        #else
        usleep(10_000_000)
        return true
        #endif
    }

    /// A vpcd peer that keeps sending READ BINARY and stops reading the answers: one SIGTERM
    /// stops the emulator within a second, exit 0, the write recorded and saved.
    @Test func aVPCDPeerThatStopsReadingDoesNotHoldUpTheStop() throws {
        let out = try Outputs()
        let peer = VPCDPeer(receiveBuffer: 4096)
        let emulator = try Self.connectedAndWritten(peer, out)
        defer { _ = emulator.stop() }
        _ = fcntl(peer.connection, F_SETFL, fcntl(peer.connection, F_GETFL) | O_NONBLOCK)
        let read: [UInt8] = [0x00, 0x05, 0xFF, 0xB0, 0x00, 0x04, 0x00]
        let flood = Self.flood(peer.connection, Array(repeating: read, count: 256).flatMap { $0 }, socket: true)
        defer { flood.stop() }
        // Until the emulator's answers fill the socket buffers and it answers no more of the
        // commands waiting (READ BINARY of 256 bytes fills them soonest).
        let stuck = Self.waitUntilStuck(peerPort: peer.port, seconds: 40)
        #expect(stuck, "the emulator kept answering")
        let stop = Self.stopOnce(emulator, SIGTERM)
        flood.stop()
        _ = emulator.stop()
        print("vpcd peer that stops reading (stuck: \(stuck)): SIGTERM to exit \(String(format: "%.3f", stop.seconds)) s, status \(stop.status)\n\(emulator.log)")
        #expect(stop.status == 0 && stop.seconds < 1, "status \(stop.status) after \(stop.seconds) s")
        try out.checkWritten()
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
