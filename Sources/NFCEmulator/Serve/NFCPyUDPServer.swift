#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

public struct ServeError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// Serves an emulated tag to nfcpy's UDP contactless frontend (notes/real-clients.md §1): one
/// datagram per frame, ASCII `"<rate> <hex>"` (e.g. `106A 26`, `212F 0600ffff0100`), `RFOFF`
/// when the reader mutes; frames carry no CRC; answers go to each datagram's sender.
public final class NFCPyUDPServer {
    public let tag: EmulatedTag
    private let fd: Int32
    /// The port actually bound (useful when 0 asked for any free port).
    public let port: UInt16
    public let host: String
    /// Called for every reader frame and the tag's answer (nil = silence).
    public var onExchange: ((Frame, Frame?) -> Void)?
    /// Called when the reader switches its field off (RFOFF).
    public var onFieldOff: ((Timestamp) -> Void)?
    /// Called for datagrams that are not nfcpy frames, with the datagram as received (bytes from
    /// a peer: escape them before printing).
    public var onIgnored: (([UInt8]) -> Void)?
    private var fieldIsOn = false

    /// Rate tokens of the tag's technology.
    var rates: [String] {
        switch tag.technology {
        case .iso14443a: return ["106A", "212A", "424A"]
        case .iso14443b: return ["106B", "212B", "424B"]
        case .felica: return ["212F", "424F"]
        case .iso15693, .iclass: return []
        }
    }

    public init(tag: EmulatedTag, host: String = "127.0.0.1", port: UInt16) throws(ServeError) {
        guard tag.technology != .iso15693 else {
            throw ServeError(message: "nfcpy's UDP frontend has no ISO 15693 (NFC-V); serve this tag with replay instead")
        }
        self.tag = tag
        self.host = host
        let fd = socket(AF_INET, ServeSupport.datagramSocket, 0)
        guard fd >= 0 else { throw ServeError(message: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard var addr = ServeSupport.address(host, port) else {
            close(fd)
            throw ServeError(message: "\(host) is no IPv4 address")
        }
        let bound = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServeError(message: "cannot listen on udp \(host):\(port): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(fd) }

    /// Handles datagrams until `shouldStop` says so (checked at least every 100 ms).
    public func serve(shouldStop: () -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while !shouldStop() {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            var from = sockaddr_storage()
            var fromLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let n = buffer.withUnsafeMutableBytes { b in
                withUnsafeMutablePointer(to: &from) { f in
                    f.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, b.baseAddress, b.count, 0, $0, &fromLength) }
                }
            }
            guard n > 0 else { continue }
            if let reply = handle(Array(buffer[0..<n])) {
                var bytes = Array(reply.utf8)
                _ = withUnsafePointer(to: &from) { f in
                    f.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, &bytes, bytes.count, 0, $0, fromLength) }
                }
            }
        }
    }

    /// One datagram in, the reply datagram out (nil = silence). Never traps on garbage. It is
    /// taken as bytes: a datagram that is no frame reaches `onIgnored` as it came, not as what a
    /// lossy UTF-8 decoding left of it.
    public func handle(_ datagram: [UInt8]) -> String? {
        let text = String(decoding: datagram, as: UTF8.self)
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        if parts.count == 1, parts[0] == "RFOFF" {
            if fieldIsOn {
                tag.fieldOff()
                fieldIsOn = false
                onFieldOff?(Timestamp.now())
            }
            return nil
        }
        guard parts.count == 2, let bytes = Hex.parse(parts[1]), !bytes.isEmpty else {
            onIgnored?(datagram)
            return nil
        }
        let rate = String(parts[0])
        guard rates.contains(rate) else { return nil }   // another technology polls: we stay silent
        if !fieldIsOn {
            tag.fieldOn()
            fieldIsOn = true
        }
        let kbps = Int(rate.dropLast()) ?? 106
        // nfcpy sends REQA/WUPA as whole bytes; on air they are 7-bit short frames.
        let shortFrame = tag.technology == .iso14443a && bytes.count == 1 && (bytes[0] == ISO14443A.reqa || bytes[0] == ISO14443A.wupa)
        let frame = Frame(.data(.readerToTag), technology: tag.technology, bytes: bytes, lastByteBits: shortFrame ? 7 : 8,
                          crcStripped: true, start: Timestamp.now(), bitRate: kbps)
        var answer = tag.respond(to: frame)
        if answer != nil {
            answer?.start = Timestamp.now()
            answer?.bitRate = kbps
        }
        onExchange?(frame, answer)
        guard let a = answer else { return nil }
        return "\(rate) \(Hex.string(a.bytes, separator: "").lowercased())"
    }
}
