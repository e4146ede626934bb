import NFCCore

/// Dissection on one core, rendering on the other: what `nfctrace dissect` runs.
///
/// Frames are dissected in order on the calling thread (session state is sequential); finished
/// events go to a worker thread in batches, where session summaries are built and `consume`
/// renders and writes them. The output is the same as dissecting and rendering on one thread.
public enum PipelinedDissection {
    /// One batch of events in order; a session's summary may not be built yet (the renderers'
    /// `render(pending:into:)` builds it, or `PendingEvent.resolved()`). Take the events out
    /// with `drain`: reading them in place copies each (a retain and a release of everything in
    /// it), since the renderer gets a value it could keep.
    public typealias Batch = [PendingEvent]

    /// Hands `body` each event of `batch` in order, moved out of it; `batch` is left empty.
    @inline(__always)
    public static func drain(_ batch: inout Batch, _ body: (consuming PendingEvent) -> Void) {
        // Reversed once in place, each element moved (`Array.reverse` would copy them), then
        // taken from the end: `popLast` moves an element out of a uniquely referenced array.
        batch.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            var i = 0, j = buf.count - 1
            while i < j {
                let t = (base + i).move()
                (base + i).moveInitialize(from: base + j, count: 1)
                (base + j).initialize(to: t)
                i += 1
                j -= 1
            }
        }
        while let event = batch.popLast() { body(event) }
    }

    /// Reads frames with `next` until it returns nil or throws. `consume` gets every event, in
    /// order, on the worker thread; it owns what it touches until `run` returns. Returns the
    /// worst severity among the frames' diagnostics. A reader error is rethrown after every
    /// event before it has been consumed (a damaged file loses nothing that came before).
    /// `batchSize` and `depth` are those of `BatchPipeline`; `helped`, when given, is told how
    /// many batches had their summaries built on the calling thread.
    public static func run(_ dissector: Dissector, frames next: () throws -> Frame?,
                           batchSize: Int = 256, depth: Int = 8, helped: ((Int) -> Void)? = nil,
                           consume: @escaping (inout Batch) -> Void) throws -> Diagnostic.Severity? {
        // Summaries are the worker's biggest job; when it falls behind, the dissecting thread
        // builds those of the batch it hands over instead of waiting.
        let pipeline = BatchPipeline<PendingEvent>(batchSize: batchSize, depth: depth, help: { batch in
            for i in batch.indices { batch[i].buildSummary() }
        }, consume: consume)
        var worst: Diagnostic.Severity? = nil
        // Consumed and moved on: binding a frame without `consume` would copy all of it.
        let emit: (consuming PendingEvent) -> Void = { event in
            switch consume event {
            case .frame(let d):
                if let s = d.worstSeverity { worst = max(worst ?? s, s) }
                pipeline.submit(.frame(consume d))
            case .session(let s):
                pipeline.submit(.session(consume s))
            }
        }
        var failure: Error? = nil
        do {
            while let frame = try next() { dissector.processPending(frame, emit: emit) }
        } catch {
            failure = error
        }
        dissector.finishPending(emit: emit)
        pipeline.finish()
        helped?(pipeline.helped)
        if let failure { throw failure }
        return worst
    }
}
