#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

#if canImport(Glibc)
/// A peer that went away must not kill the emulator with SIGPIPE.
private var noSignal: Int32 { Int32(MSG_NOSIGNAL) }
#elseif canImport(Darwin)
/// Darwin has no MSG_NOSIGNAL: the socket gets SO_NOSIGPIPE instead (connectOnce).
private var noSignal: Int32 { 0 }
#endif

/// The virtual card of vsmartcard's `vpcd`, the pcscd reader driver for virtual cards
/// (protocols-wave2.md §7.4): vpcd listens (port 35963 for its first slot), the card connects;
/// every message both ways is a 2-byte big-endian length and a payload. A 1-byte payload is
/// control — `00` power off, `01` power on, `02` reset, `04` the ATR (answered) — anything longer
/// a command APDU, answered with the response APDU. Every PC/SC application then sees the
/// emulated tag in the reader "Virtual PCD 00 00".
public final class VPCDClient {
    public let card: PCSCContactlessCard
    public let host: String
    public let port: UInt16
    /// Progress and trouble, one line each (connected, waiting for vpcd, connection lost).
    public var onLog: ((String) -> Void)?

    public init(card: PCSCContactlessCard, host: String = "127.0.0.1", port: UInt16 = 35963) {
        self.card = card
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// The answer to one message from vpcd, or nil when it takes none.
    public func handle(_ message: [UInt8]) -> [UInt8]? {
        guard message.count == 1 else { return card.transmit(message) }
        switch message[0] {
        case 0x00:
            card.powerOff()
            return nil
        case 0x01:
            card.powerOn()
            return nil
        case 0x02:
            card.powerOff()
            card.powerOn()
            return nil
        case 0x04:
            // vpcd asks for the ATR on every poll: a card not yet powered is activated first.
            if !card.isActive { card.powerOn() }
            return card.atr ?? []
        default:
            return nil
        }
    }

    /// Connects (again and again, once a second, until `shouldStop`) and serves until vpcd
    /// closes the connection or `shouldStop` says so; checked at least every 100 ms.
    public func serve(shouldStop: () -> Bool) {
        var warned = false
        while !shouldStop() {
            guard let fd = connectOnce(shouldStop: shouldStop) else {
                if !warned {
                    onLog?("waiting for vpcd on tcp \(host):\(port) (pcscd with vsmartcard-vpcd running?)")
                    warned = true
                }
                for _ in 0..<10 where !shouldStop() { usleep(100_000) }
                continue
            }
            warned = false
            onLog?("connected to vpcd on tcp \(host):\(port): the card is in the reader")
            let reason = session(fd, shouldStop: shouldStop)
            close(fd)
            card.powerOff()
            if let reason { onLog?("vpcd connection ended: \(reason); reconnecting") }
        }
    }

    /// One connection attempt, at most 5 s long: a host that drops the SYN would otherwise hold
    /// `connect` for minutes, deaf to a stop.
    private func connectOnce(shouldStop: () -> Bool) -> Int32? {
        let fd = socket(AF_INET, ServeSupport.streamSocket, 0)
        guard fd >= 0 else { return nil }
        guard var addr = ServeSupport.address(host, port) else {
            close(fd)
            return nil
        }
        // vpcd asks and the card answers, one message at a time: a small send buffer is plenty,
        // and a vpcd that stops reading fills it after a few answers instead of 4 MB of them.
        var sendBuffer: Int32 = 1 << 17
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var connected = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0, errno == EINPROGRESS {
            for _ in 0..<50 where !shouldStop() {
                guard Self.wait(fd, for: Int16(POLLOUT)) else { continue }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                connected = error == 0 ? 0 : -1
                break
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        // vpcd writes length and payload in two sends; without NODELAY each APDU waits ~40 ms
        // on Nagle and delayed ACK (protocols-wave2.md §7.4).
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// How a read or a write on the connection ended.
    private enum Transfer {
        case done([UInt8])
        case stopped
        case failed(String)
    }

    /// Serves one connection; the reason it ended, nil when asked to stop.
    ///
    /// The socket is non-blocking and every wait is a poll of at most 100 ms: a vpcd that
    /// announces 65,535 bytes and sends 10, or stops reading the answers, holds the card in
    /// that message, never the stop.
    private func session(_ fd: Int32, shouldStop: () -> Bool) -> String? {
        while true {
            let head: [UInt8]
            switch read(fd, count: 2, shouldStop: shouldStop) {
            case .done(let bytes): head = bytes
            case .stopped: return nil
            case .failed(let reason): return reason
            }
            let message: [UInt8]
            switch read(fd, count: Int(head[0]) << 8 | Int(head[1]), shouldStop: shouldStop) {
            case .done(let bytes): message = bytes
            case .stopped: return nil
            case .failed(let reason): return reason + " inside a message"
            }
            let reply = handle(message)
            if getenv("NFCTRACE_VPCD_DEBUG") != nil { onLog?("vpcd → \(Hex.string(message)), ← \(reply.map { Hex.string($0) } ?? "nothing")") }
            guard let reply else { continue }
            switch write(fd, [UInt8(reply.count >> 8 & 0xFF), UInt8(reply.count & 0xFF)] + reply, shouldStop: shouldStop) {
            case .done: continue
            case .stopped: return nil
            case .failed(let reason): return reason
            }
        }
    }

    /// Whether `fd` became ready for `events` within 100 ms.
    private static func wait(_ fd: Int32, for events: Int16) -> Bool {
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        return poll(&pfd, 1, 100) > 0
    }

    private func read(_ fd: Int32, count: Int, shouldStop: () -> Bool) -> Transfer {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            if shouldStop() { return .stopped }
            guard Self.wait(fd, for: Int16(POLLIN)) else { continue }
            let n = out.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + got, count - got, 0) }
            if n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            guard n > 0 else { return .failed(n == 0 ? "vpcd closed the connection" : "cannot read from vpcd: \(String(cString: strerror(errno)))") }
            got += n
            #if os(Linux)
            // vpcd's own socket has Nagle on: its payload waits for our ACK of the length bytes,
            // which Linux delays up to 40 ms unless asked (QUICKACK lasts one ACK: set per read).
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
        }
        return .done(out)
    }

    private func write(_ fd: Int32, _ bytes: [UInt8], shouldStop: () -> Bool) -> Transfer {
        var sent = 0
        while sent < bytes.count {
            if shouldStop() { return .stopped }
            guard Self.wait(fd, for: Int16(POLLOUT)) else { continue }
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, noSignal) }
            if n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            guard n > 0 else { return .failed("cannot write to vpcd: \(String(cString: strerror(errno)))") }
            sent += n
        }
        return .done([])
    }
}
