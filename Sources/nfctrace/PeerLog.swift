#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

/// Diagnostics about what peers send, for a server that must keep serving whatever they send.
///
/// The serving loop only appends a line to a short queue; a thread of its own writes the queue
/// to stderr. So a stderr that nobody drains (a pipe whose reader stopped) blocks that thread
/// alone, never the answers. Lines are rate limited (a burst of `burst`, then `perSecond`) and
/// the queue is bounded: what does not fit is counted and the count written when it can be.
/// Text that came from the peer must be passed through `PrintableText.escaped` by the caller.
final class PeerLog: @unchecked Sendable {
    private var queue: [String] = []
    private var dropped = 0
    private var tokens: Double
    private var lastRefill: Double
    private var writing = false
    private let burst: Double
    private let perSecond: Double
    private let capacity: Int
    private var lock = pthread_mutex_t()
    private var wake = pthread_cond_t()

    init(burst: Int = 20, perSecond: Int = 5, capacity: Int = 64) {
        self.burst = Double(burst)
        self.perSecond = Double(perSecond)
        self.capacity = capacity
        tokens = Double(burst)
        lastRefill = MonotonicClock.seconds()
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&wake, nil)
        // The writer keeps the log alive for the rest of the process.
        POSIXThread.detach { self.writeLoop() }
    }

    /// A diagnostic caused by a peer: rate limited, never blocks.
    func peer(_ line: String) { enqueue(line, limited: true) }

    /// A message of nfctrace's own (the summary at the end): not rate limited, never blocks.
    func own(_ line: String) { enqueue(line, limited: false) }

    private func enqueue(_ line: String, limited: Bool) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if limited {
            let t = MonotonicClock.seconds()
            tokens = min(burst, tokens + (t - lastRefill) * perSecond)
            lastRefill = t
            guard tokens >= 1 else {
                dropped += 1
                return
            }
            tokens -= 1
        }
        guard queue.count < capacity else {
            dropped += 1
            return
        }
        queue.append(line)
        pthread_cond_signal(&wake)
    }

    /// Waits until everything queued is written, at most `seconds` (stderr may never drain).
    func drain(seconds: Double) {
        pthread_mutex_lock(&lock)
        pthread_cond_signal(&wake)   // a count of dropped lines is written now
        pthread_mutex_unlock(&lock)
        let deadline = MonotonicClock.seconds() + seconds
        while MonotonicClock.seconds() < deadline {
            pthread_mutex_lock(&lock)
            let idle = queue.isEmpty && dropped == 0 && !writing
            pthread_mutex_unlock(&lock)
            if idle { return }
            usleep(5_000)
        }
    }

    private func writeLoop() {
        while true {
            pthread_mutex_lock(&lock)
            // Woken by a line, or by drain() for a count of dropped ones alone (a drop does not
            // wake the thread, or a flood would turn into a flood of counts).
            if queue.isEmpty { pthread_cond_wait(&wake, &lock) }
            if queue.isEmpty && dropped == 0 {
                pthread_mutex_unlock(&lock)
                continue
            }
            var lines: [String] = []
            if dropped > 0 {
                lines.append("\(dropped) more message\(dropped == 1 ? "" : "s") about peer input dropped (rate limit)")
                dropped = 0
            }
            lines += queue
            queue.removeAll()
            writing = true
            pthread_mutex_unlock(&lock)
            for line in lines { FileHandleOutput.standardError("nfctrace: \(line)\n") }
            pthread_mutex_lock(&lock)
            writing = false
            pthread_mutex_unlock(&lock)
        }
    }
}
