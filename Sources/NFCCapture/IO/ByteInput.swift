#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CStream

/// A buffered, peekable reader over a file or standard input.
///
/// Capture formats are detected by content, so the first bytes must be looked at and then
/// handed to whichever reader takes the file, stdin included. `offset` counts the bytes
/// consumed, which is how damage is reported by byte offset.
public final class ByteInput {
    /// What error messages call this input: the path, or `<stdin>`.
    public let name: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Bytes consumed by `read`/`skip` so far.
    public private(set) var offset = 0
    /// Set when reading failed with an I/O error (not at end of file).
    public private(set) var ioError: String?

    private init(name: String, fd: Int32, ownsDescriptor: Bool, bufferSize: Int = 1 << 16) {
        self.name = name
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        self.buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    deinit {
        if ownsDescriptor { _ = close(fd) }
    }

    /// Opens `path`, or standard input for `-`.
    public static func open(_ path: String) throws(CaptureError) -> ByteInput {
        if path == "-" { return ByteInput(name: "<stdin>", fd: STDIN_FILENO, ownsDescriptor: false) }
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else {
            throw CaptureError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            _ = close(fd)
            throw CaptureError.cannotOpen(path: path, reason: "is a directory")
        }
        return ByteInput(name: path, fd: fd, ownsDescriptor: true)
    }

    /// Reads the whole of `bytes` as an input (used by tests and in-memory conversions).
    public static func memory(_ bytes: [UInt8], name: String = "<memory>") -> ByteInput {
        let input = ByteInput(name: name, fd: -1, ownsDescriptor: false, bufferSize: max(bytes.count, 1))
        input.buffer.replaceSubrange(0..<bytes.count, with: bytes)
        input.end = bytes.count
        input.atEOF = true
        return input
    }

    public var buffered: Int { end - start }

    /// Fills the buffer until at least `count` bytes are buffered or the input ends.
    private func fill(_ count: Int) {
        if buffered >= count || atEOF { return }
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { p in
                if let base = p.baseAddress, end > start { memmove(base, base + start, end - start) }
            }
            end -= start
            start = 0
        }
        if count > buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: count - buffer.count)) }
        while end < count && !atEOF {
            let n = buffer.withUnsafeMutableBytes { p in Glibc.read(fd, p.baseAddress! + end, p.count - end) }
            if n > 0 {
                end += n
            } else if n == 0 {
                atEOF = true
            } else if errno != EINTR {
                ioError = String(cString: strerror(errno))
                atEOF = true
            }
        }
    }

    /// Up to `count` next bytes without consuming them (fewer at end of input).
    public func peek(_ count: Int) -> ArraySlice<UInt8> {
        fill(count)
        return buffer[start..<start + min(count, buffered)]
    }

    /// Whether no byte is left.
    public var isAtEnd: Bool {
        fill(1)
        return buffered == 0
    }

    /// Consumes up to `count` bytes.
    public func read(_ count: Int) -> ArraySlice<UInt8> {
        fill(count)
        let n = min(count, buffered)
        defer {
            start += n
            offset += n
        }
        return buffer[start..<start + n]
    }

    /// Copies up to `count` bytes into `dst`; returns how many. Used by the libpcap bridge.
    func read(into dst: UnsafeMutableRawPointer, count: Int) -> Int {
        var copied = 0
        while copied < count {
            if buffered == 0 { fill(min(count - copied, buffer.count)) }
            if buffered == 0 { break }
            let n = min(count - copied, buffered)
            _ = buffer.withUnsafeBytes { p in memcpy(dst + copied, p.baseAddress! + start, n) }
            start += n
            offset += n
            copied += n
        }
        return copied
    }

    /// Consumes one line (without its `\n` or `\r\n`), or nil at end of input. A line longer
    /// than `limit` bytes is returned cut at `limit` with `truncated` set.
    public func readLine(limit: Int = 1 << 20) -> (line: ArraySlice<UInt8>, truncated: Bool)? {
        var scanned = 0
        while true {
            let slice = buffer[(start + scanned)..<end]
            if let nl = slice.firstIndex(of: 0x0A) {
                var lineEnd = nl
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = buffer[start..<lineEnd]
                let consumed = nl + 1 - start
                start += consumed
                offset += consumed
                return (line, false)
            }
            scanned = buffered
            if buffered >= limit {
                let line = read(limit)
                return (line, true)
            }
            if atEOF {
                if buffered == 0 { return nil }
                let line = read(buffered)
                return (line, false)
            }
            fill(buffered + 4096)
        }
    }

    /// A stdio stream that reads from this input, peeked bytes included. libpcap reads through
    /// it; `position(of:)` tells how far its reader got. The input must outlive it.
    /// Bytes consumed by the reader of `file` (a stream made by `makeCFile`).
    func position(of file: UnsafeMutablePointer<FILE>) -> Int {
        offset - nfctrace_stream_buffered(file)
    }

    func makeCFile() -> UnsafeMutablePointer<FILE>? {
        nfctrace_open_read_stream(Unmanaged.passUnretained(self).toOpaque()) { cookie, buf, size in
            guard let cookie, let buf else { return -1 }
            let input = Unmanaged<ByteInput>.fromOpaque(cookie).takeUnretainedValue()
            return input.read(into: UnsafeMutableRawPointer(buf), count: size)
        }
    }
}
