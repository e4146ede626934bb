import Foundation
import Testing
import NFCCore
@testable import NFCCapture

/// Issue 24's adversarial suite, in process: one small file of every format cut at every byte.
/// Each cut reads the frames before the cut and then either ends cleanly or reports damage (or,
/// for the shortest prefixes, an empty or unrecognised file): never a trap, never other frames.
/// (The CLI runs of the same cuts are in NFCTraceCLITests.)
@Suite struct CutPointTests {
    /// The article trace (a pcap), and the same written by nfctrace's other writers.
    static func file(_ format: CaptureFormat) throws -> [UInt8] {
        let pcap = String(#filePath.split(separator: "/Tests/")[0]) + "/Traces/ntag215-password-read.pcap"
        if format == .pcap { return Array(try Data(contentsOf: URL(fileURLWithPath: pcap))) }
        let source = try Capture.open(pcap)
        let output = ByteOutput.inMemory()
        let writer: FrameWriter = switch format {
        case .nfctrace: TextTraceWriter(output: output, metadata: source.metadata)
        case .proxmark3: Proxmark3TraceWriter(output: output, times: .first)
        default: PcapngWriter(output: output)
        }
        while let f = try source.next() { try writer.write(f) }
        try writer.finish()
        return output.memory ?? []
    }

    @Test(arguments: [CaptureFormat.pcap, .pcapng, .nfctrace, .proxmark3])
    func everyCutPointReadsTheFramesBeforeIt(format: CaptureFormat) throws {
        let bytes = try Self.file(format)
        let options = CaptureReadOptions(technology: format == .proxmark3 ? .iso14443a : nil)
        let full = try Fixtures.read(bytes, options: options)
        #expect(full.error == nil)
        #expect(full.frames.count > 40)
        var damaged = 0
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[0..<cut])
            let result: (frames: [Frame], error: CaptureError?)
            do {
                let r = try Fixtures.read(prefix, options: options)
                result = (r.frames, r.error)
            } catch let e as CaptureError {
                switch e {
                case .empty, .unrecognized, .damaged: result = ([], e)
                default:
                    Issue.record("cut at \(cut): \(e)")
                    continue
                }
            }
            // A text line cut short may still read as a (shorter) frame: all before it are exact.
            let exact = format == .nfctrace ? result.frames.dropLast() : result.frames[...]
            #expect(Array(exact) == Array(full.frames.prefix(exact.count)), "\(format) cut at \(cut)")
            #expect(result.frames.count <= full.frames.count)
            if case .damaged(_, let offset, let frame, _)? = result.error {
                damaged += 1
                #expect(offset >= 0 && offset <= cut, "\(format) cut at \(cut): damage at \(offset)")
                #expect(frame == result.frames.count + 1, "\(format) cut at \(cut)")
            }
        }
        #expect(damaged > 0, "some cuts are reported as damage")
    }
}
