import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// `nfctrace dissect` dissects on one thread and renders on another (summaries built there too);
/// its output must be byte for byte what one thread produces.
@Suite struct PipelinedDissectionTests {
    struct Failure: Error {}

    /// Renders `frames` through the pipeline; `failAfter` makes the frame source throw there.
    static func pipelined(_ frames: [Frame], mode: GoldenTests.Mode, failAfter: Int? = nil) -> (output: String, error: Error?) {
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
            }) { events in
                for e in events {
                    if mode == .json { json.render(e, into: &sink.bytes) } else { text.render(e, into: &sink.bytes) }
                }
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

    @Test(arguments: GoldenTests.traces)
    func sameOutputAsOneThread(path: String) throws {
        let frames = try Self.frames(GoldenTests.root + "/" + path)
        for mode in GoldenTests.Mode.allCases {
            let (output, error) = Self.pipelined(frames, mode: mode)
            #expect(error == nil)
            #expect(output == Self.sequential(frames, mode: mode), "\(path) \(mode)")
        }
    }

    /// Every trace of Traces/ one after the other, 30 times: thousands of events in many
    /// batches, sessions of every technology ending on field off and on new activations.
    @Test func manyBatchesOfMixedSessions() throws {
        var all: [Frame] = []
        for path in GoldenTests.traces { all += try Self.frames(GoldenTests.root + "/" + path) }
        let frames = Array(repeatElement(all, count: 30).joined())
        #expect(frames.count > 2_000)
        for mode in GoldenTests.Mode.allCases {
            let (output, error) = Self.pipelined(frames, mode: mode)
            #expect(error == nil)
            #expect(output == Self.sequential(frames, mode: mode), "\(mode)")
        }
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
