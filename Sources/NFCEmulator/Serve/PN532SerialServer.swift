#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CStream
import NFCCore

/// A PN532 on a serial line, as libnfc's `pn532_uart` driver talks to it, with the emulated tag
/// in its field: a pseudo-terminal whose slave side `path` links to. Each host frame (after any
/// wake-up bytes) is acknowledged and answered (`PN532Frame`); the commands run on the reader
/// model of `PCSCContactlessCard.pn532(_:)`, the same the ACR122 direct transmit uses. A frame
/// with wrong checksums gets a NACK, a NACK from the host the last answer again.
///
/// The server keeps the slave side open itself (in raw mode, so that the line discipline never
/// echoes an answer back), so a client closing the port and opening it again finds it serving.
///
/// Nothing the host does may hold the server: its side of the pty is non-blocking, and answers
/// a host does not read wait in a bounded queue, then are dropped, as a UART's output is lost
/// when nobody reads the line. So a stop is always seen within 100 ms.
public final class PN532SerialServer {
    public let path: String
    public let reader: PCSCContactlessCard
    /// What the host caused (commands not emulated, frames left unfinished, answers not read):
    /// peer input, to be rate limited by the caller.
    public var onLog: ((String) -> Void)?
    /// The number of host frames answered.
    public private(set) var commands = 0
    private let master: Int32
    private let slave: Int32
    private var lastAnswer: [UInt8] = []
    /// Answers written to the pty but not yet taken by it (the host is not reading).
    private var output: [UInt8] = []
    /// The most the queue holds: many answers (the longest is under 300 bytes).
    private static let outputLimit = 1 << 16
    private var linkRemoved = false

    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(reader: PCSCContactlessCard, path: String) throws(SetupError) {
        var st = stat()
        if lstat(path, &st) == 0 {
            throw SetupError(description: "\(path) exists already: remove it or give another path to --pn532")
        }
        // openpty (Linux pty.h, macOS util.h, through CStream) gives both sides and the slave's name.
        var m: Int32 = -1, s: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        guard nfctrace_openpty(&m, &s, &name, name.count) == 0 else {
            throw SetupError(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slaveName = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var t = termios()
        tcgetattr(s, &t)
        cfmakeraw(&t)
        tcsetattr(s, TCSANOW, &t)
        _ = fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK)
        guard symlink(slaveName, path) == 0 else {
            close(s)
            close(m)
            throw SetupError(description: "cannot make \(path) point to \(slaveName): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.reader = reader
        self.master = m
        self.slave = s
    }

    deinit {
        removeLink()
        close(slave)
        close(master)
    }

    /// Removes the link at `path` (once): when serving ends, and from the signal path when a
    /// second signal ends the process at once, so that the next start finds the path free.
    public func removeLink() {
        guard !linkRemoved else { return }
        linkRemoved = true
        unlink(path)
    }

    private func send(_ bytes: [UInt8]) {
        guard output.count + bytes.count <= Self.outputLimit else {
            onLog?("the PN532 host does not read its answers: \(bytes.count) bytes dropped")
            return
        }
        output += bytes
        flush()
    }

    /// Writes what the pty takes now, never waiting.
    private func flush() {
        while !output.isEmpty {
            let n = output.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            output.removeFirst(n)
        }
    }

    /// Serves until `shouldStop` says so (checked at least every 100 ms).
    public func serve(shouldStop: () -> Bool) {
        // An unfinished frame left on the line (a host that died mid-frame, a header announcing
        // more bytes than ever come) must not swallow the next host's frames: the reassembler
        // gives it up at the next whole frame or wake-up, or after 300 ms of silence.
        var frames = PN532FrameReassembler(idleLimit: 0.3)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !shouldStop() {
            var fds = pollfd(fd: master, events: Int16(POLLIN) | (output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0)
            let ready = poll(&fds, 1, 100)
            let before = frames.discarded
            if ready > 0, fds.revents & Int16(POLLOUT) != 0 { flush() }
            // POLLIN, or POLLHUP/POLLERR, which the read then reports (it is not retried at once).
            if ready > 0, fds.revents & ~Int16(POLLOUT) != 0 {
                let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n > 0 {
                    frames.append(chunk[0..<n], at: MonotonicClock.seconds())
                    while let frame = frames.next() { handle(frame) }
                } else {
                    usleep(50_000)
                }
            }
            frames.expire(at: MonotonicClock.seconds())
            if frames.discarded > before {
                onLog?("dropped \(frames.discarded - before) bytes of an unfinished PN532 frame from the host")
            }
        }
    }

    private func handle(_ frame: PN532Frame) {
        switch frame {
        case .information(let body):
            commands += 1
            send(PN532Frame.ack.encode())
            let answer = reader.pn532(body).map { PN532Frame.information($0) } ?? .error
            if answer == .error { onLog?("PN532 command \(Hex.string(body.prefix(2))) is not emulated: answered with the error frame") }
            lastAnswer = answer.encode()
            send(lastAnswer)
        case .nack:
            send(lastAnswer)
        case .error:
            send(PN532Frame.nack.encode())
        case .ack:
            break   // the host aborts the command it sent last: nothing runs in the background here
        }
    }
}
