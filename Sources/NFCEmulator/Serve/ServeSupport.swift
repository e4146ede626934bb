#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

/// What the serving front ends (nfcpy's UDP frontend, vpcd) share: IPv4 socket addresses.
enum ServeSupport {
    /// `host` (an IPv4 address, or `localhost`) and `port` as a socket address; nil for another host.
    static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
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
