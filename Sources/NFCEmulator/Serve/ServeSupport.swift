#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

/// What the socket front ends share (nfcpy's UDP frontend and vpcd here, the UDP replay target in
/// NFCReplay): IPv4 socket addresses and the socket types, whose C types differ between the platforms.
package enum ServeSupport {
    // SOCK_DGRAM and SOCK_STREAM: `__socket_type` enum cases on Glibc, plain Int32s on Darwin.
    #if canImport(Glibc)
    package static var datagramSocket: Int32 { Int32(SOCK_DGRAM.rawValue) }
    package static var streamSocket: Int32 { Int32(SOCK_STREAM.rawValue) }
    #elseif canImport(Darwin)
    package static var datagramSocket: Int32 { SOCK_DGRAM }
    package static var streamSocket: Int32 { SOCK_STREAM }
    #endif

    /// `host` (an IPv4 address, or `localhost`) and `port` as a socket address; nil for another host.
    package static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
        var addr = sockaddr_in()
        #if canImport(Darwin)
        addr.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)   // BSD sockaddrs carry their length
        #endif
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &addr.sin_addr) == 1 else { return nil }
        return addr
    }
}
