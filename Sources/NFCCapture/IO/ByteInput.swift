#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CStream

// open(2) and read(2) by names that ByteInput's own `open` and `read` do not hide.
#if canImport(Glibc)
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Glibc.open(path, flags) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
#elseif canImport(Musl)
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Musl.open(path, flags) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Musl.read(fd, buffer, count) }
#elseif canImport(Darwin)
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Darwin.open(path, flags) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
#endif

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
        let fd = systemOpen(path, O_RDONLY)
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
        // Grown in place, without a temporary array of zeros as large as the growth.
        if count > buffer.count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
        while end < count && !atEOF {
            let n = buffer.withUnsafeMutableBytes { p in systemRead(fd, p.baseAddress! + end, p.count - end) }
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

    /// The rest of the input, read whole, if it is at most `limit` bytes. Inputs that are read
    /// whole are capped so that a stream that never ends (`/dev/zero`) is an error after
    /// `limit` bytes instead of taking all the memory. `what` names the input in the error.
    public func readAll(limit: Int, what: String) throws(CaptureError) -> [UInt8] {
        var bytes: [UInt8] = []
        while !isAtEnd {
            guard bytes.count < limit else {
                throw CaptureError.tooLarge(path: name, what: what, limit: Self.size(limit))
            }
            bytes += read(min(1 << 16, limit - bytes.count + 1))
            if bytes.count > limit { throw CaptureError.tooLarge(path: name, what: what, limit: Self.size(limit)) }
        }
        if let ioError { throw CaptureError.io(path: name, reason: ioError) }
        return bytes
    }

    /// `4 MiB`, `512 KiB`, `100 bytes`.
    static func size(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10, n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }

    /// What ends a line: LF (with an optional CR before it), or CR alone (old Mac files).
    public enum LineEnding: Sendable {
        case lf
        case cr

        /// The ending a text uses, from its first line break (LF when it has none).
        public static func of(_ prefix: ArraySlice<UInt8>) -> LineEnding {
            guard let i = prefix.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return .lf }
            if prefix[i] == 0x0A { return .lf }
            let next = prefix.index(after: i)
            return next < prefix.endIndex && prefix[next] == 0x0A ? .lf : .cr
        }
    }

    /// Consumes one line (without its line break), or nil at end of input; `start` is the byte
    /// offset where the line began. A line longer than `limit` bytes is returned cut at `limit`
    /// with `truncated` set.
    ///
    /// `.lf`: lines end at LF (a CR before it is dropped; other CRs are text). `.cr`: lines end
    /// at CR, and also at an LF (CR LF counting once), so a CR file with LF lines mixed in is
    /// not read as one long line.
    public func readLine(limit: Int = 1 << 20, ending: LineEnding = .lf) -> (line: ArraySlice<UInt8>, start: Int, truncated: Bool)? {
        var scanned = 0
        while true {
            let slice = buffer[(start + scanned)..<end]
            let found = ending == .lf ? slice.firstIndex(of: 0x0A) : slice.firstIndex { $0 == 0x0D || $0 == 0x0A }
            if let nl = found {
                var lineEnd = nl
                var breakEnd = nl + 1
                if ending == .lf, lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if ending == .cr, buffer[nl] == 0x0D {
                    if nl + 1 < end {
                        if buffer[nl + 1] == 0x0A { breakEnd = nl + 2 }
                    } else if !atEOF {
                        // The byte after the CR is not read yet: it may be the LF of a CR LF.
                        scanned = nl - start
                        fill(buffered + 4096)
                        continue
                    }
                }
                let line = buffer[start..<lineEnd]
                let lineStart = offset
                let consumed = breakEnd - start
                start += consumed
                offset += consumed
                return (line, lineStart, false)
            }
            scanned = buffered
            if buffered >= limit {
                let lineStart = offset
                return (read(limit), lineStart, true)
            }
            if atEOF {
                if buffered == 0 { return nil }
                let lineStart = offset
                return (read(buffered), lineStart, false)
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
