import Foundation
import Testing
import NFCCore
@testable import NFCCapture

/// `pcap → .nfctrace → pcap` keeps every frame, and the committed traces agree with each other.
@Suite struct ConversionTests {
    static let tracesDirectory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Traces"
    }()

    @Test func pcapToTextToPcapIsByteIdentical() throws {
        let input = try ByteInput.open("\(Self.tracesDirectory)/ntag215-password-read.pcap")
        var original: [UInt8] = []
        while !input.isAtEnd { original += input.read(65536) }
        let (frames, error, reader) = try Fixtures.read(original)
        #expect(error == nil)
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (fromText, error2, textReader) = try Fixtures.read(text)
        #expect(error2 == nil)
        #expect(fromText.count == frames.count)
        let unit = TimeUnit(rawValue: textReader.metadata["timebase"] ?? "us") ?? .microseconds
        let back = try Fixtures.write(fromText, format: .pcap, resolution: unit)
        // But for the snapshot length in the file header: the capture says 65535, nfctrace writes
        // libpcap's largest, which its longest records need (issue 51, point 10).
        #expect(back[16..<20] == Fixtures.le32(UInt32(PcapEncapsulation.snapshotLength))[...])
        #expect(back[..<16] == original[..<16] && back[20...] == original[20...])
    }

    @Test func malformedRecordsSurviveTheRoundTrip() throws {
        let records: [Fixtures.Record] = [
            .init(seconds: 5, fraction: 1, data: Fixtures.iso14443(0xFE, [0x26])),
            .init(seconds: 5, fraction: 2, data: [0x00, 0xFE, 0x02, 0x00, 0x30, 0x00]),
            .init(seconds: 5, fraction: 3, data: [0x07]),
        ]
        let original = Fixtures.pcap(records)
        let (frames, _, reader) = try Fixtures.read(original)
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (fromText, _, _) = try Fixtures.read(text)
        let back = try Fixtures.write(fromText, format: .pcap)
        #expect(back == original)
    }

    /// Every `.nfctrace` in Traces/ has a `.pcap` twin holding the same frames.
    static var textTraces: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tracesDirectory)) ?? []).filter { $0.hasSuffix(".nfctrace") }.sorted()
    }

    @Test(arguments: textTraces)
    func textAndPcapTracesHoldTheSameFrames(name: String) throws {
        let text = try readAll("\(Self.tracesDirectory)/\(name)")
        let pcap = try readAll("\(Self.tracesDirectory)/\(name.dropLast(".nfctrace".count)).pcap")
        #expect(text.count == pcap.count)
        for (t, p) in zip(text, pcap) {
            #expect(t.event == p.event)
            #expect(t.bytes == p.bytes)
            // LINKTYPE_ISO_14443 says nothing of a field event's technology (A or B): data frames only.
            if case .data = t.event { #expect(t.technology == p.technology) }
            #expect(t.crcStripped == p.crcStripped)
            #expect(t.start?.nanoseconds == p.start?.nanoseconds)
        }
    }

    /// `convert` without --link-type (as scripts/make-traces runs it): a trace of A, B and FeliCa
    /// frames goes to nfctrace's USER3 encapsulation, a Type B-only trace to LINKTYPE_ISO_14443.
    @Test func theLinkTypeFollowsTheTechnologiesOfTheTrace() throws {
        #expect(try Capture.open("\(Self.tracesDirectory)/mixed-polling-loop.pcap").metadata["link-type"] == "150")
        #expect(try Capture.open("\(Self.tracesDirectory)/sri512-read.pcap").metadata["link-type"] == "264")
    }

    func readAll(_ path: String) throws -> [Frame] {
        let reader = try Capture.open(path)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return frames
    }
}
