import Foundation

// What tests that play a peer share: a socket on 127.0.0.1, and a loop on a thread of its own
// (a flood, a responder) stopped by the test.

/// `body` run again and again on a thread of its own until `stop`.
final class BackgroundLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [self] in
            while !isStopping { body() }
            done.signal()
        }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Idempotent; waits for the thread's last round (at most 5 s).
    func stop() {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        if first { _ = done.wait(timeout: .now() + 5) }
    }
}

/// Binds `fd` to 127.0.0.1 and a free port, which it returns.
func bindLoopback(_ fd: Int32) -> UInt16 {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return UInt16(bigEndian: addr.sin_port)
}
