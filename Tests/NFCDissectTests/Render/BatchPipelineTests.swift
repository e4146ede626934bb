import Glibc
import Synchronization
import Testing
import NFCDissect

@Suite struct BatchPipelineTests {
    /// What the consumer saw; written on the worker thread, read after `finish()`.
    final class Seen: @unchecked Sendable {
        var items: [Int] = []
        var batches: [Int] = []
        var threads: Set<UInt> = []
    }

    @Test(arguments: [(1, 1), (7, 2), (256, 8), (10_000, 3)])
    func everyItemArrivesOnceInOrder(batchSize: Int, depth: Int) {
        let seen = Seen()
        let pipeline = BatchPipeline<Int>(batchSize: batchSize, depth: depth) { batch in
            seen.items.append(contentsOf: batch)
            seen.batches.append(batch.count)
            seen.threads.insert(UInt(pthread_self()))
        }
        for i in 0..<5_003 { pipeline.submit(i) }
        pipeline.finish()
        #expect(seen.items == Array(0..<5_003))
        #expect(seen.batches.dropLast().allSatisfy { $0 == batchSize })
        #expect(seen.threads.count == 1)
        #expect(!seen.threads.contains(UInt(pthread_self())), "batches are consumed on a second thread")
    }

    @Test func producerWaitsWhenTheWorkerFallsBehind() {
        let batchSize = 16, depth = 2
        let consumed = Atomic<Int>(0)
        let pipeline = BatchPipeline<Int>(batchSize: batchSize, depth: depth) { batch in
            usleep(200)
            consumed.add(batch.count, ordering: .sequentiallyConsistent)
        }
        var furthestAhead = 0
        for i in 1...4_000 {
            pipeline.submit(i)
            furthestAhead = max(furthestAhead, i - consumed.load(ordering: .sequentiallyConsistent))
        }
        pipeline.finish()
        #expect(consumed.load(ordering: .sequentiallyConsistent) == 4_000)
        // Queued batches, the one being consumed and the one being filled.
        #expect(furthestAhead <= batchSize * (depth + 2))
        #expect(furthestAhead > batchSize, "the producer did get ahead of a slow worker")
    }

    @Test func producerHelpsOnlyWhenTheWorkerIsBehind() {
        // A slow worker: the producer helps (here it negates items; the worker undoes it), and
        // what the worker sees is still every item once, in order.
        let slow = Seen()
        let helping = BatchPipeline<Int>(batchSize: 8, depth: 2, help: { batch in
            for i in batch.indices { batch[i] = -batch[i] }
        }, consume: { batch in
            usleep(300)
            slow.items.append(contentsOf: batch.map { abs($0) })
            slow.batches.append(batch.filter { $0 < 0 }.count)
        })
        for i in 1...800 { helping.submit(i) }
        helping.finish()
        #expect(slow.items == Array(1...800))
        #expect(helping.helped > 0)
        #expect(slow.batches.filter { $0 == 8 }.count == helping.helped, "helped batches arrive changed")
        // A fast worker with a deep queue: the producer never has to help.
        let fast = Seen()
        let idle = BatchPipeline<Int>(batchSize: 8, depth: 10_000, help: { _ in Issue.record("helped a worker that keeps up") },
                                      consume: { fast.items.append(contentsOf: $0) })
        for i in 1...800 { idle.submit(i) }
        idle.finish()
        #expect(fast.items == Array(1...800))
        #expect(idle.helped == 0)
    }

    @Test func finishIsIdempotentAndDeinitDrains() {
        let seen = Seen()
        do {
            let pipeline = BatchPipeline<Int>(batchSize: 100) { seen.items.append(contentsOf: $0) }
            for i in 0..<250 { pipeline.submit(i) }
            // No finish(): releasing the pipeline hands over the rest and waits for the worker.
        }
        #expect(seen.items == Array(0..<250))
        let again = Seen()
        let pipeline = BatchPipeline<Int>(batchSize: 3) { again.items.append(contentsOf: $0) }
        pipeline.submit(1)
        pipeline.finish()
        pipeline.finish()
        #expect(again.items == [1])
    }
}
