#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore
import NFCEmulator

/// A tag behind nfcpy's UDP contactless-frontend protocol (notes/real-clients.md §1): another
/// `nfctrace emulate --udp`, nfcpy's own tag emulation, anything speaking it. The protocol has no
/// CRCs: they are removed before sending and the answers come back without them.
public final class UDPTarget: ReplayTarget {
    public let name: String
    private let fd: Int32
    private var address: sockaddr_in
    /// How long to wait for an answer before calling it silence.
    public var timeoutMilliseconds: Int32

    public init(host: String, port: UInt16, timeoutMilliseconds: Int32 = 100) throws(ReplayTargetError) {
        name = "udp:\(host):\(port)"
        self.timeoutMilliseconds = timeoutMilliseconds
        guard let address = ServeSupport.address(host, port) else {
            throw ReplayTargetError("udp target: \(host) is no IPv4 address")
        }
        self.address = address
        fd = socket(AF_INET, ServeSupport.datagramSocket, 0)
        guard fd >= 0 else { throw ReplayTargetError("udp target: socket: \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    public var answersCarryCRC: Bool { false }

    public func fieldOn() {}

    public func fieldOff() throws(ReplayTargetError) { try send("RFOFF") }

    private func send(_ text: String) throws(ReplayTargetError) {
        var bytes = Array(text.utf8)
        let n = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, &bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard n == bytes.count else { throw ReplayTargetError("udp target \(name): send failed: \(String(cString: strerror(errno)))") }
    }

    static func rate(_ frame: Frame) throws(ReplayTargetError) -> String {
        switch frame.technology {
        case .iso14443a: return "\(frame.bitRate ?? 106)A"
        case .iso14443b: return "\(frame.bitRate ?? 106)B"
        case .felica: return "\(frame.bitRate ?? 212)F"
        case .iso15693: throw ReplayTargetError("nfcpy's UDP protocol has no ISO 15693 (NFC-V)")
        case .iclass: throw ReplayTargetError("nfcpy's UDP protocol has no iClass")
        }
    }

    public func transmit(_ frame: Frame) throws(ReplayTargetError) -> Frame? {
        let token = try Self.rate(frame)
        // nfcpy's frames carry no CRC.
        let bytes = frame.payloadDroppingValidCRC()
        // Drain stale datagrams so that a late answer to an earlier frame is not taken for this one.
        var buffer = [UInt8](repeating: 0, count: 2048)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
        try send("\(token) \(Hex.string(bytes, separator: "").lowercased())")
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMilliseconds) > 0 else { return nil }
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        let parts = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ")
        guard parts.count == 2, let answer = Hex.parse(parts[1]) else {
            throw ReplayTargetError("udp target \(name): answer is no nfcpy frame: \(PrintableText.escaped(buffer[0..<n], limit: 60))")
        }
        // The protocol carries whole bytes: a 4-bit ACK/NAK arrives as one byte, like from a
        // capture without bit counts; the dissector reads it in the context of its request.
        return Frame(.data(.tagToReader), technology: frame.technology, bytes: answer, crcStripped: true)
    }
}
