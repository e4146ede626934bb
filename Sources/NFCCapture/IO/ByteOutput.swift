#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// write(2) by a name that ByteOutput's own `write` methods do not hide.
#if canImport(Glibc)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
#elseif canImport(Musl)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Musl.write(fd, buffer, count) }
#elseif canImport(Darwin)
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
#endif

/// A buffered writer to a file or standard output. Renderers and capture writers append bytes
/// and flush in large chunks so that output is never the bottleneck. A file is written through
/// an `AtomicFile`: it replaces the target at `finish()`, and an output dropped without
/// `finish()` (an error thrown, a signal) leaves the old file as it was.
public final class ByteOutput {
    public let name: String
    private let fd: Int32
    private let file: AtomicFile?
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// The first write error, if any; later writes are dropped.
    public private(set) var error: String?
    /// In-memory outputs keep everything here instead of writing to a descriptor.
    public private(set) var memory: [UInt8]?

    private init(name: String, fd: Int32, file: AtomicFile? = nil, capacity: Int = 1 << 16) {
        self.name = name
        self.fd = fd
        self.file = file
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 4096)
    }

    deinit {
        // A file not finished is abandoned (its AtomicFile removes the temporary); standard
        // output gets what was written.
        if file == nil { flush() }
    }

    /// A new file that replaces `path` at `finish()`, or standard output for `-`. The
    /// directory is checked now (the temporary is created), so a bad path fails early.
    public static func create(_ path: String) throws(CaptureError) -> ByteOutput {
        if path == "-" { return standardOutput() }
        let file = try AtomicFile.create(path)
        return ByteOutput(name: path, fd: file.descriptor, file: file)
    }

    public static func standardOutput() -> ByteOutput { ByteOutput(name: "<stdout>", fd: STDOUT_FILENO) }
    public static func standardError() -> ByteOutput { ByteOutput(name: "<stderr>", fd: STDERR_FILENO, capacity: 0) }

    /// An output that collects bytes in memory (tests, golden files).
    public static func inMemory(name: String = "<memory>") -> ByteOutput {
        let o = ByteOutput(name: name, fd: -1)
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
                let n = systemWrite(fd, p.baseAddress! + written, p.count - written)
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

    /// Flushes, reports a pending write error, and puts a file in place of its target (on an
    /// error the target keeps its old content).
    public func finish() throws(CaptureError) {
        flush()
        if let error {
            file?.discard()
            throw CaptureError.io(path: name, reason: error)
        }
        try file?.commit()
    }
}
