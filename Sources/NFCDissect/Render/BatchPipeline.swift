#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

/// Hands items from the calling thread to one worker thread in batches, in order.
///
/// `nfctrace dissect` uses it to dissect on one core while the other renders and writes: the
/// dissector's state is sequential, but rendering a finished frame needs nothing but that frame.
/// At most `depth` batches wait at any time, so memory stays bounded whatever the capture's
/// length; a producer that gets ahead waits for the worker.
///
/// When the worker is the slower side (the queue is full as a batch is handed over), the
/// producer first runs `help` on that batch: work the worker would otherwise do (for `nfctrace
/// dissect`, building session summaries), done on a core that would only wait.
public final class BatchPipeline<Item: Sendable> {
    private let batchSize: Int
    private let depth: Int
    private let help: ((inout [Item]) -> Void)?
    /// How many batches the producer has helped with (for tests and benchmarks).
    public private(set) var helped = 0
    private var batch: [Item] = []
    private let shared: Shared
    private var thread: pthread_t?

    /// State both threads touch, always under `lock`.
    private final class Shared: @unchecked Sendable {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        var queue: [[Item]] = []
        var head = 0
        var closed = false
        /// Runs on the worker thread only, once it has started.
        let consume: (inout [Item]) -> Void

        init(consume: @escaping (inout [Item]) -> Void) {
            self.consume = consume
            pthread_mutex_init(lock, nil)
            pthread_cond_init(changed, nil)
        }

        deinit {
            pthread_cond_destroy(changed)
            pthread_mutex_destroy(lock)
            lock.deallocate()
            changed.deallocate()
        }

        var waiting: Int { queue.count - head }

        /// Starts the worker thread, or returns nil when none can be had (the producer then
        /// consumes each batch itself: same output, one core).
        func start() -> pthread_t? { POSIXThread.start { self.run() } }

        /// The worker's loop: takes batches in order until the producer has closed and the queue is empty.
        func run() {
            while true {
                pthread_mutex_lock(lock)
                while waiting == 0 && !closed { pthread_cond_wait(changed, lock) }
                if waiting == 0 {
                    pthread_mutex_unlock(lock)
                    return
                }
                var next = queue[head]
                queue[head] = []
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                pthread_cond_broadcast(changed)
                pthread_mutex_unlock(lock)
                consume(&next)
            }
        }
    }

    /// `consume` is called on the worker thread with each batch, in submission order. The batch
    /// is its own (uniquely referenced): it may take the items out by moving them instead of
    /// copying. It must own whatever it touches (the caller hands its renderer and output over
    /// and does not use them until `finish()` has returned).
    ///
    /// `help`, when given, may change a batch on the calling thread before it is handed over; it
    /// must leave what `consume` makes of the batch unchanged.
    public init(batchSize: Int = 256, depth: Int = 8, help: ((inout [Item]) -> Void)? = nil,
                consume: @escaping (inout [Item]) -> Void) {
        self.batchSize = max(1, batchSize)
        self.depth = max(1, depth)
        self.help = help
        self.shared = Shared(consume: consume)
        batch.reserveCapacity(self.batchSize)
        thread = shared.start()
    }

    deinit { finish() }

    /// Queues one item; hands a full batch to the worker (waiting while `depth` batches are queued).
    public func submit(_ item: consuming Item) {
        batch.append(item)
        if batch.count >= batchSize { handOver() }
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        var full = batch
        batch = []
        batch.reserveCapacity(batchSize)
        guard thread != nil else {
            shared.consume(&full)
            return
        }
        if let help {
            pthread_mutex_lock(shared.lock)
            let behind = shared.waiting >= depth
            pthread_mutex_unlock(shared.lock)
            if behind {
                help(&full)
                helped += 1
            }
        }
        pthread_mutex_lock(shared.lock)
        while shared.waiting >= depth { pthread_cond_wait(shared.changed, shared.lock) }
        shared.queue.append(full)
        pthread_cond_broadcast(shared.changed)
        pthread_mutex_unlock(shared.lock)
    }

    /// Hands over what is left and waits until the worker has consumed everything. Idempotent.
    public func finish() {
        handOver()
        guard let t = thread else { return }
        thread = nil
        pthread_mutex_lock(shared.lock)
        shared.closed = true
        pthread_cond_broadcast(shared.changed)
        pthread_mutex_unlock(shared.lock)
        pthread_join(t, nil)
    }
}
