#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that replaces its target only once it is complete (DESIGN.md, "Writes are atomic").
///
/// The bytes go to a temporary file beside the target (same directory, so the rename cannot
/// cross file systems); `commit` flushes it to the disk and renames it over the target. Until
/// then the target is untouched: a failed write, a full disk, an error thrown halfway or a
/// signal leaves the old file as it was, and the temporary is removed (`discard`, or
/// `discardAllPending` from the signal path). Only SIGKILL can leave a temporary behind, named
/// `.NAME.nfctrace-XXXXXX`, never the target.
///
/// Targets that are not regular files (`/dev/null`, a FIFO, a terminal) cannot be renamed over;
/// they are written in place, as any tool would.
public final class AtomicFile {
    /// The file the caller asked for (a symbolic link is followed: its target is replaced).
    public let target: String
    /// Where the bytes go until `commit`; the target itself when it is not a regular file.
    public let temporary: String
    public private(set) var descriptor: Int32
    /// The target's directory (`/` ended), where the temporary is made and the rename lands.
    private let directory: String
    private var finished = false

    private init(target: String, temporary: String, descriptor: Int32, directory: String = "") {
        self.target = target
        self.temporary = temporary
        self.descriptor = descriptor
        self.directory = directory
    }

    deinit { discard() }

    /// Whether the bytes go through a temporary (false for devices and FIFOs).
    public var isReplacing: Bool { temporary != target }

    /// Opens a temporary beside `path`. Throws `cannotOpen` when the directory is not writable
    /// or the target is a directory: callers create their outputs when the command starts, so
    /// that a bad path is found before any work is done.
    public static func create(_ path: String) throws(CaptureError) -> AtomicFile {
        var st = stat()
        var target = path
        if stat(path, &st) == 0 {
            let kind = st.st_mode & S_IFMT
            if kind == S_IFDIR { throw CaptureError.cannotOpen(path: path, reason: "is a directory") }
            if kind != S_IFREG {
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
                guard fd >= 0 else { throw CaptureError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
                return AtomicFile(target: path, temporary: path, descriptor: fd)
            }
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        }
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array((directory + "." + base + ".nfctrace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw CaptureError.cannotOpen(path: path, reason: "cannot create a file in \(directory.isEmpty ? "." : directory): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp makes 0600; the result gets the old file's mode, or what open(2) would give.
        let mode: mode_t
        if stat(target, &st) == 0 {
            mode = st.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o666 & ~mask
        }
        _ = fchmod(fd, mode)
        let file = AtomicFile(target: target, temporary: temporary, descriptor: fd, directory: directory)
        Pending.add(temporary)
        return file
    }

    /// Checks that `path` can be written (the directory accepts new files, the target is not a
    /// directory) without touching it: for outputs written only at the end of a long run.
    public static func checkWritable(_ path: String) throws(CaptureError) {
        let probe = try create(path)
        probe.discard()
    }

    /// Flushes the temporary to the disk and renames it over the target.
    public func commit() throws(CaptureError) {
        guard !finished else { return }
        finished = true
        if !isReplacing {
            _ = close(descriptor)
            return
        }
        defer { Pending.remove(temporary) }
        if fsync(descriptor) != 0 && errno != EINVAL {
            let reason = String(cString: strerror(errno))
            _ = close(descriptor)
            unlink(temporary)
            throw CaptureError.io(path: target, reason: reason)
        }
        if close(descriptor) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CaptureError.io(path: target, reason: reason)
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CaptureError.io(path: target, reason: "cannot replace the file: \(reason)")
        }
        // The rename itself reaches the disk with the directory.
        let dfd = open(directory.isEmpty ? "." : directory, O_RDONLY)
        if dfd >= 0 {
            _ = fsync(dfd)
            _ = close(dfd)
        }
    }

    /// Removes the temporary; the target stays as it was. Idempotent.
    public func discard() {
        guard !finished else { return }
        finished = true
        _ = close(descriptor)
        if isReplacing {
            unlink(temporary)
            Pending.remove(temporary)
        }
    }

    /// Removes every temporary not yet committed or discarded. The signal path calls it before
    /// the process ends, so an interrupted write leaves no half file beside the old one.
    public static func discardAllPending() {
        for path in Pending.all() { unlink(path) }
    }

    /// The temporaries in flight, for `discardAllPending` (called from another thread).
    private enum Pending {
        nonisolated(unsafe) static var paths: Set<String> = []
        nonisolated(unsafe) static var lock: pthread_mutex_t = {
            var m = pthread_mutex_t()
            pthread_mutex_init(&m, nil)
            return m
        }()

        static func add(_ path: String) {
            pthread_mutex_lock(&lock)
            paths.insert(path)
            pthread_mutex_unlock(&lock)
        }

        static func remove(_ path: String) {
            pthread_mutex_lock(&lock)
            paths.remove(path)
            pthread_mutex_unlock(&lock)
        }

        static func all() -> [String] {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            return Array(paths)
        }
    }
}

/// The identity of a file (device and inode), to refuse writing onto an input.
public struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` (links followed); nil when there is none.
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        self.init(st)
    }

    /// The file open at `descriptor`.
    public init?(descriptor: Int32) {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return nil }
        self.init(st)
    }

    private init?(_ st: stat) {
        // Regular files, and named pipes (FIFOs): one FIFO as input and output would lose the
        // output to the reader. Terminals and devices (/dev/null) are no file a writer could
        // replace; an anonymous pipe (`|`) is a FIFO too, but never the same as another.
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG || kind == S_IFIFO else { return nil }
        device = UInt64(truncatingIfNeeded: st.st_dev)   // dev_t is signed on Darwin
        inode = UInt64(truncatingIfNeeded: st.st_ino)
    }
}
