import Glibc
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// `nfctrace dissect` dissects on one thread and renders on another (summaries built there too);
/// its output must be byte for byte what one thread produces.
@Suite struct PipelinedDissectionTests {
    struct Failure: Error {}

    /// Renders `frames` through the pipeline; `failAfter` makes the frame source throw there.
    /// `slowWorker` makes the rendering thread the slower one, so the dissecting thread builds
    /// session summaries for it.
    static func pipelined(_ frames: [Frame], mode: GoldenTests.Mode, failAfter: Int? = nil,
                          slowWorker: Bool = false, helped: ((Int) -> Void)? = nil) -> (output: String, error: Error?) {
        let dissector = Dissector(detail: mode == .text ? .summary : .full)
        let text = TextRenderer(verbose: mode == .verbose, color: false)
        let json = JSONRenderer()
        final class Sink: @unchecked Sendable { var bytes: [UInt8] = [] }
        let sink = Sink()
        if mode == .text { sink.bytes += Array(text.header().utf8) }
        var i = 0
        do {
            _ = try PipelinedDissection.run(dissector, frames: {
                if let failAfter, i == failAfter { throw Failure() }
                guard i < frames.count else { return nil }
                defer { i += 1 }
                return frames[i]
            }, batchSize: slowWorker ? 16 : 256, depth: slowWorker ? 2 : 8, helped: helped) { events in
                if slowWorker { usleep(2_000) }
                PipelinedDissection.drain(&events) { e in
                    if mode == .json { json.render(pending: e, into: &sink.bytes) } else { text.render(pending: e, into: &sink.bytes) }
                }
                #expect(events.isEmpty)
            }
            return (String(decoding: sink.bytes, as: UTF8.self), nil)
        } catch {
            return (String(decoding: sink.bytes, as: UTF8.self), error)
        }
    }

    static func sequential(_ frames: [Frame], mode: GoldenTests.Mode) -> String {
        let dissector = Dissector(detail: mode == .text ? .summary : .full)
        let text = TextRenderer(verbose: mode == .verbose, color: false)
        let json = JSONRenderer()
        var out: [UInt8] = mode == .text ? Array(text.header().utf8) : []
        let emit: (DissectionEvent) -> Void = { e in
            if mode == .json { json.render(e, into: &out) } else { text.render(e, into: &out) }
        }
        for f in frames { dissector.process(f, emit: emit) }
        dissector.finish(emit: emit)
        return String(decoding: out, as: UTF8.self)
    }

    static func frames(_ path: String) throws -> [Frame] {
        let reader = try Capture.open(path)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return frames
    }

    /// The frames of every trace of Traces/, one trace after the other, `times` over.
    static func allTraces(times: Int) throws -> [Frame] {
        var all: [Frame] = []
        for path in GoldenTests.traces { all += try frames(GoldenTests.root + "/" + path) }
        return Array(repeatElement(all, count: times).joined())
    }

    /// Checks in every mode that the pipeline writes what one thread writes; returns how many
    /// batches the dissecting thread helped with in each mode.
    @discardableResult
    static func expectSameOutput(_ frames: [Frame], _ what: String, slowWorker: Bool = false) -> [Int] {
        GoldenTests.Mode.allCases.map { mode in
            var helped = 0
            let (output, error) = pipelined(frames, mode: mode, slowWorker: slowWorker, helped: { helped = $0 })
            #expect(error == nil)
            #expect(output == sequential(frames, mode: mode), "\(what) \(mode)")
            return helped
        }
    }

    @Test(arguments: GoldenTests.traces)
    func sameOutputAsOneThread(path: String) throws {
        Self.expectSameOutput(try Self.frames(GoldenTests.root + "/" + path), path)
    }

    /// Every trace of Traces/ one after the other, three times (every trace follows every other
    /// trace's end at least once, the last the first twice): thousands of events in many
    /// batches, sessions of every technology ending on field off and on new activations.
    @Test func manyBatchesOfMixedSessions() throws {
        let frames = try Self.allTraces(times: 3)
        #expect(frames.count > 10_000)
        Self.expectSameOutput(frames, "all traces")
    }

    /// With a worker that falls behind, the dissecting thread builds summaries of the batches it
    /// hands over: the output must not change.
    @Test func summariesBuiltByTheDissectingThread() throws {
        let helped = Self.expectSameOutput(try Self.allTraces(times: 2), "slow worker", slowWorker: true)
        for h in helped { #expect(h > 10, "the dissecting thread built summaries") }
    }

    @Test func anEndedSessionBuiltEarlyIsTheSame() throws {
        let frames = try Self.frames(GoldenTests.root + "/Traces/ntag215-password-read.pcap")
        let dissector = Dissector(detail: .full)
        let json = JSONRenderer()
        var late: [[UInt8]] = [], early: [[UInt8]] = []
        let emit: (consuming PendingEvent) -> Void = { event in
            guard case .session(let s) = event else { return }
            var built = s
            built.buildNow()
            var a: [UInt8] = [], b: [UInt8] = []
            json.render(.session(s.summary()), into: &a)
            json.render(.session(built.summary()), into: &b)
            late.append(a)
            early.append(b)
        }
        for f in frames { dissector.processPending(f, emit: emit) }
        dissector.finishPending(emit: emit)
        #expect(late.count >= 3)
        #expect(late == early)
    }

    @Test func aFailingSourceLosesNothingBeforeIt() throws {
        let frames = try Self.frames(GoldenTests.root + "/Traces/ntag215-password-read.pcap")
        let cut = frames.count / 2
        let (output, error) = Self.pipelined(frames, mode: .json, failAfter: cut)
        #expect(error is Failure)
        #expect(output == Self.sequential(Array(frames[..<cut]), mode: .json))
        #expect(output.split(separator: "\n").filter { $0.contains("\"type\":\"frame\"") }.count == cut)
    }
}
