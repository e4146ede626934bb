#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin

/// `char ***_NSGetEnviron(void)` (<crt_externs.h>): Darwin declares no `environ` for Swift, and
/// this is how its libSystem hands out the environment (as the Swift runtime itself does).
@_silgen_name("_NSGetEnviron")
private func darwinEnviron() -> UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
#endif
import NFCCore

/// Runs a program with posix_spawn: optional bytes on stdin, stdout and stderr read as they
/// come (stderr line by line to a handler, for progress), an optional time limit after which
/// the program's process group is killed. No Foundation, so `nfctrace` stays light.
struct Subprocess {
    struct Result {
        /// Exit status when the program exited, nil when a signal ended it.
        var status: Int32?
        var signal: Int32?
        var timedOut: Bool
        var stdout: [UInt8]
        var stderr: [UInt8]
    }

    var arguments: [String]
    /// Added to (or replacing) the parent's environment.
    var environment: [String: String] = [:]
    var stdin: [UInt8]? = nil
    /// Seconds; nil = no limit.
    var timeout: Double? = nil
    /// Its own process group, so that a timeout kills what it started too. Off for programs
    /// that should see the terminal's Ctrl-C (a long libFuzzer run).
    var ownProcessGroup = true
    /// Keep stdout/stderr (up to this many bytes each).
    var keep = 1 << 20
    /// Each complete stderr line, as it arrives.
    var onStderrLine: ((Substring) -> Void)? = nil
    /// Where stdout goes when not kept: nil = kept, else inherited (the user's terminal).
    var inheritStdout = false

    func run() throws(CLIFailure) -> Result {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, pipe(&inPipe) == 0 else {
            throw CLIFailure(message: "cannot create pipes: \(String(cString: strerror(errno)))", code: .ioError)
        }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #elseif canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil   // an opaque pointer on Darwin, a struct on Glibc
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        if !inheritStdout { posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1) }
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        #if canImport(Glibc)
        var attributes = posix_spawnattr_t()
        #elseif canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Default signal handling in the child, whatever the parent ignores or blocks.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if ownProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var env = Self.environment()
        for (k, v) in environment { env[k] = v }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments.first ?? "", &actions, &attributes, argv, envp)
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        guard spawned == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            throw CLIFailure(message: "cannot run \(arguments.first ?? ""): \(String(cString: strerror(spawned)))", code: .ioError)
        }
        if let stdin, !stdin.isEmpty {
            // A program that does not read its input must not block us: write what fits.
            _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
            _ = stdin.withUnsafeBytes { write(inPipe[1], $0.baseAddress, $0.count) }
        }
        close(inPipe[1])
        return collect(pid: pid, out: inheritStdout ? -1 : outPipe[0], err: errPipe[0], closeOut: outPipe[0])
    }

    private func collect(pid: pid_t, out: Int32, err: Int32, closeOut: Int32) -> Result {
        var result = Result(status: nil, signal: nil, timedOut: false, stdout: [], stderr: [])
        var open = [out, err].filter { $0 >= 0 }
        if out < 0 { close(closeOut) }
        let deadline = timeout.map { MonotonicClock.seconds() + $0 }
        var pendingLine: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var exited = false
        var waitStatus: Int32 = 0
        while !open.isEmpty || !exited {
            if let deadline, !result.timedOut, MonotonicClock.seconds() >= deadline {
                result.timedOut = true
                kill(ownProcessGroup ? -pid : pid, SIGKILL)
            }
            if !open.isEmpty {
                var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                _ = poll(&fds, nfds_t(fds.count), 100)
                for p in fds where p.revents != 0 {
                    let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress, $0.count) }
                    if n <= 0 {
                        close(p.fd)
                        open.removeAll { $0 == p.fd }
                        continue
                    }
                    let chunk = buffer[0..<n]
                    if p.fd == err {
                        if result.stderr.count < keep { result.stderr += chunk.prefix(keep - result.stderr.count) }
                        if let handler = onStderrLine {
                            pendingLine += chunk
                            while let nl = pendingLine.firstIndex(of: 0x0A) {
                                handler(Substring(decoding: pendingLine[..<nl], as: UTF8.self))
                                pendingLine.removeSubrange(...nl)
                            }
                        }
                    } else if result.stdout.count < keep {
                        result.stdout += chunk.prefix(keep - result.stdout.count)
                    }
                }
            }
            if !exited {
                let r = waitpid(pid, &waitStatus, open.isEmpty ? 0 : WNOHANG)
                if r == pid { exited = true } else if r < 0 && errno != EINTR { exited = true }
            }
            // Pipes kept open by a grandchild must not keep us once the child is gone and killed.
            if exited && result.timedOut { open.forEach { close($0) }; open.removeAll() }
        }
        if waitStatus & 0x7F == 0 { result.status = (waitStatus >> 8) & 0xFF } else { result.signal = waitStatus & 0x7F }
        return result
    }

    static func environment() -> [String: String] {
        var env: [String: String] = [:]
        #if canImport(Glibc)
        var p = environ
        #elseif canImport(Darwin)
        guard var p = darwinEnviron().pointee else { return env }
        #endif
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return env
    }
}
