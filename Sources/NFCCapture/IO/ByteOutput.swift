#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer to a file or standard output. Renderers and capture writers append bytes
/// and flush in large chunks so that output is never the bottleneck.
public final class ByteOutput {
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The first write error, if any; later writes are dropped.
    public private(set) var error: String?
    /// In-memory outputs keep everything here instead of writing to a descriptor.
    public private(set) var memory: [UInt8]?

    private init(name: String, fd: Int32, ownsDescriptor: Bool, capacity: Int = 1 << 16) {
        self.name = name
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 4096)
    }

    deinit {
        flush()
        if ownsDescriptor { _ = close(fd) }
    }

    /// Creates (truncates) `path`, or standard output for `-`.
    public static func create(_ path: String) throws(CaptureError) -> ByteOutput {
        if path == "-" { return ByteOutput(name: "<stdout>", fd: STDOUT_FILENO, ownsDescriptor: false) }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CaptureError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        return ByteOutput(name: path, fd: fd, ownsDescriptor: true)
    }

    public static func standardOutput() -> ByteOutput { ByteOutput(name: "<stdout>", fd: STDOUT_FILENO, ownsDescriptor: false) }
    public static func standardError() -> ByteOutput { ByteOutput(name: "<stderr>", fd: STDERR_FILENO, ownsDescriptor: false, capacity: 0) }

    /// An output that collects bytes in memory (tests, golden files).
    public static func inMemory(name: String = "<memory>") -> ByteOutput {
        let o = ByteOutput(name: name, fd: -1, ownsDescriptor: false)
        o.memory = []
        return o
    }

    /// Whether the output is a terminal (for colour decisions).
    public var isTerminal: Bool { memory == nil && isatty(fd) == 1 }

    @inline(__always)
    public func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    @inline(__always)
    public func write<C: Collection>(contentsOf bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    @inline(__always)
    public func write(_ string: String) {
        var s = string
        s.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { flush() }
    }

    /// Gives a renderer direct access to the pending buffer (no intermediate arrays).
    @inline(__always)
    public func withBuffer(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= capacity { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        if memory != nil {
            memory?.append(contentsOf: buffer)
            return
        }
        guard error == nil else { return }
        var written = 0
        buffer.withUnsafeBytes { p in
            while written < p.count {
                let n = Glibc.write(fd, p.baseAddress! + written, p.count - written)
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    error = String(cString: strerror(errno))
                    return
                }
            }
        }
    }

    /// Flushes and reports a pending write error.
    public func finish() throws(CaptureError) {
        flush()
        if let error { throw CaptureError.io(path: name, reason: error) }
    }
}
