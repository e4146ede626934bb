#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCapture
import NFCCore

/// SIGINT, SIGTERM and SIGHUP are taken on a thread of their own (sigwait), never by a handler
/// that interrupts whatever the main thread is doing: so they are seen even while the main
/// thread is blocked (a full pipe on stderr), and what they do may take locks and allocate.
///
/// By default a signal removes the temporaries of files being written (the targets keep their
/// old content) and ends the process by the same signal. A command that stops gracefully (the
/// emulator saves the tag first) installs `onStop`; a second signal then ends the process at once.
enum SignalPath {
    nonisolated(unsafe) static var handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Set by a command that wants to stop by itself; called on the signal thread.
    nonisolated(unsafe) static var onStop: ((Int32) -> Void)?
    /// What must not outlive the process when a signal ends it at once (the emulator's pty
    /// link, which would make the next start refuse its path); called on the signal thread.
    nonisolated(unsafe) static var onAbort: (() -> Void)?
    nonisolated(unsafe) private static var stopping = false

    /// Call first in `main`, before any other thread exists: threads inherit the blocked mask.
    static func start() {
        // A file-size limit (ulimit -f) then fails the write with EFBIG, which the writers report
        // and clean up after, instead of killing the process mid-file.
        signal(SIGXFSZ, SIG_IGN)
        // A signal the parent set to be ignored stays ignored (nohup ignores SIGHUP).
        handled = handled.filter { s in
            let previous = signal(s, SIG_DFL)
            let ignored = unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
            signal(s, previous)
            return !ignored
        }
        var set = sigset_t()
        sigemptyset(&set)
        for s in handled { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        POSIXThread.detach {
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                SignalPath.received(received)
            }
        }
    }

    private static func received(_ number: Int32) {
        if let onStop, !stopping {
            stopping = true
            onStop(number)
            return
        }
        onAbort?()
        AtomicFile.discardAllPending()
        // End by the signal itself, so that the parent sees what ended us.
        signal(number, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(number)
        _exit(128 + number)
    }
}
