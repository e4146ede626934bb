import Testing
import NFCCore
@testable import NFCCapture

@Suite struct PcapTests {
    typealias R = Fixtures.Record

    @Test func readsAllSixEventTypes() throws {
        let bytes = Fixtures.pcap([
            R(seconds: 100, fraction: 1, data: Fixtures.iso14443(0xFC, [])),
            R(seconds: 100, fraction: 2, data: Fixtures.iso14443(0xFE, [0x30, 0x00, 0x02, 0xA8])),
            R(seconds: 100, fraction: 3, data: Fixtures.iso14443(0xFF, [0x01, 0x02])),
            R(seconds: 100, fraction: 4, data: Fixtures.iso14443(0xFA, [0x30, 0x00])),
            R(seconds: 100, fraction: 5, data: Fixtures.iso14443(0xFB, [0x01])),
            R(seconds: 100, fraction: 6, data: Fixtures.iso14443(0xFD, [])),
        ])
        let (frames, error, reader) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(reader.format == .pcap)
        #expect(frames.map(\.event) == [.fieldOn, .data(.readerToTag), .data(.tagToReader), .data(.readerToTag), .data(.tagToReader), .fieldOff])
        #expect(frames.map(\.crcStripped) == [false, false, false, true, true, false])
        #expect(frames[1].bytes == [0x30, 0x00, 0x02, 0xA8])
        #expect(frames[1].start == Timestamp(100_000_002, .microseconds))
    }

    @Test func keepsNanosecondResolution() throws {
        let bytes = Fixtures.pcap([R(seconds: 7, fraction: 123_456_789, data: Fixtures.iso14443(0xFE, [0x26]))], nanosecond: true)
        let (frames, _, reader) = try Fixtures.read(bytes)
        #expect(frames.first?.start == Timestamp(7_123_456_789, .nanoseconds))
        #expect(reader.metadata["timebase"] == "ns")
    }

    @Test(arguments: [
        ([0x01, 0xFE, 0x00, 0x01, 0x26], "pseudo-header version 1, expected 0"),
        ([0x00, 0x11, 0x00, 0x01, 0x26], "pseudo-header event 0x11 is none of FA…FF"),
        ([0x00, 0xFE, 0x02, 0x00, 0x30, 0x00], "length field looks little-endian: 02 00 read big-endian is 512, the record holds 2 bytes"),
        ([0x00, 0xFE, 0x00, 0x05, 0x30, 0x00], "length field says 5 bytes, the record holds 2"),
        ([0x00, 0xFE], "record of 2 bytes is shorter than the 4-byte ISO 14443 pseudo-header"),
        ([0x00, 0xFC, 0x00, 0x01, 0x00], "field-on event with 1 data bytes, expected none"),
    ] as [([UInt8], String)])
    func badPseudoHeadersAreReportedNotDropped(record: [UInt8], reason: String) throws {
        let bytes = Fixtures.pcap([
            R(seconds: 1, fraction: 0, data: Fixtures.iso14443(0xFE, [0x26])),
            R(seconds: 1, fraction: 1, data: record),
            R(seconds: 1, fraction: 2, data: Fixtures.iso14443(0xFF, [0x44, 0x00])),
        ])
        let (frames, error, _) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(frames.count == 3, "the bad record is kept between its neighbours")
        #expect(frames[1].event == .malformed(reason: reason))
        #expect(frames[1].bytes == record, "the raw record is kept so that writing it back loses nothing")
    }

    @Test func snapshotLengthCutIsNamed() throws {
        var r = R(seconds: 1, fraction: 0, data: [0x00, 0xFE, 0x00, 0x10, 0x30, 0x00])
        r.originalLength = 20
        let (frames, _, _) = try Fixtures.read(Fixtures.pcap([r]))
        #expect(frames.first?.event == .malformed(reason: "record cut by the capture's snapshot length: 2 of 16 bytes captured"))
    }

    @Test func truncatedFileYieldsEveryFrameBeforeTheDamage() throws {
        let good = [
            R(seconds: 1, fraction: 0, data: Fixtures.iso14443(0xFE, [0x26])),
            R(seconds: 1, fraction: 1, data: Fixtures.iso14443(0xFF, [0x44, 0x00])),
            R(seconds: 1, fraction: 2, data: Fixtures.iso14443(0xFE, [0x93, 0x20])),
        ]
        var bytes = Fixtures.pcap(good + [R(seconds: 1, fraction: 3, data: Fixtures.iso14443(0xFF, [0x88, 0x04, 0xA2, 0x2C, 0x02]))])
        bytes.removeLast(4)
        let (frames, error, _) = try Fixtures.read(bytes)
        #expect(frames.count == 3)
        let offset = 24 + (16 + 5) + (16 + 6) + (16 + 6)
        guard case .damaged(let path, let at, let frame, let reason)? = error else {
            Issue.record("expected damage, got \(String(describing: error))")
            return
        }
        #expect(path == "test.cap")
        #expect(at == offset)
        #expect(frame == 4)
        #expect(reason.contains("truncated"))
        #expect(error?.exitCode == .dataError && error?.exitCode.rawValue == 65)
    }

    @Test func truncatedRecordHeader() throws {
        var bytes = Fixtures.pcap([R(seconds: 1, fraction: 0, data: Fixtures.iso14443(0xFE, [0x26]))])
        bytes += [0x01, 0x00, 0x00]
        let (frames, error, _) = try Fixtures.read(bytes)
        #expect(frames.count == 1)
        guard case .damaged(_, let at, let frame, _)? = error else {
            Issue.record("expected damage")
            return
        }
        #expect(at == 24 + 16 + 5)
        #expect(frame == 2)
    }

    @Test func otherLinkTypeIsRefusedWithItsName() throws {
        let bytes = Fixtures.pcap([R(seconds: 1, fraction: 0, data: [0, 1, 2, 3])], linkType: 1)
        #expect(throws: CaptureError.unsupportedLinkType(path: "test.cap", linkType: 1, name: "EN10MB")) {
            _ = try Fixtures.read(bytes)
        }
    }

    @Test func emptyAndForeignFilesGetOneLineErrors() throws {
        #expect(throws: CaptureError.empty(path: "test.cap")) { _ = try Fixtures.read([]) }
        do {
            _ = try Fixtures.read(Array("hello world, this is not a capture\n".utf8))
            Issue.record("a text file was accepted")
        } catch let e as CaptureError {
            guard case .unrecognized(_, let detail) = e else { Issue.record("\(e)"); return }
            #expect(detail == "text starting \"hello world, this is not\"")
            #expect(!e.description.contains("\n"))
        }
        #expect(throws: CaptureError.self) { _ = try Fixtures.read([0xA1, 0xB2]) }
    }

    @Test func truncatedGlobalHeaderIsDamageAtByteZero() throws {
        let bytes = Array(Fixtures.pcap([]).prefix(12))
        #expect {
            _ = try Fixtures.read(bytes)
        } throws: { e in
            guard case CaptureError.damaged(_, 0, 1, let reason) = e else { return false }
            return reason.contains("libpcap")
        }
    }

    @Test(arguments: [TimeUnit.microseconds, .nanoseconds])
    func pcapWriteReadRoundTrip(resolution: TimeUnit) throws {
        let frames: [Frame] = [
            Frame(.fieldOn, start: Timestamp(1_795_392_000_000_000_000, .nanoseconds)),
            Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: Timestamp(1_795_392_000_000_100_000, .nanoseconds)),
            Frame(.data(.tagToReader), bytes: [0x44, 0x00], start: Timestamp(1_795_392_000_000_186_000, .nanoseconds)),
            Frame(.data(.readerToTag), bytes: [0x30, 0x00], crcStripped: true, start: Timestamp(1_795_392_000_000_500_123, .nanoseconds)),
            Frame(.malformed(reason: "x"), bytes: [0x01, 0xFE, 0x00, 0x01, 0x26], start: Timestamp(1_795_392_000_000_600_000, .nanoseconds)),
            Frame(.fieldOff, start: Timestamp(1_795_392_000_001_000_000, .nanoseconds)),
        ]
        let bytes = try Fixtures.write(frames, format: .pcap, resolution: resolution)
        let (back, error, _) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(back.count == frames.count)
        for (a, b) in zip(frames, back) {
            if case .malformed = a.event {
                #expect(b.event == .malformed(reason: "pseudo-header version 1, expected 0"))
            } else {
                #expect(a.event == b.event)
            }
            #expect(a.crcStripped == b.crcStripped)
            let ns = try #require(a.start?.nanoseconds)
            let expected = resolution == .nanoseconds ? ns : ns / 1000 * 1000
            #expect(b.start?.nanoseconds == expected)
        }
        #expect(back[1].bytes == [0x26])
    }

    @Test func pcapngWrittenByUsIsReadByLibpcap() throws {
        let frames: [Frame] = [
            Frame(.data(.readerToTag), bytes: [0x30, 0x04, 0x26, 0xEE], start: Timestamp(1_000_000_123_456_789, .nanoseconds)),
            Frame(.data(.tagToReader), bytes: Array(repeating: 0xAB, count: 18), start: Timestamp(1_000_000_123_556_789, .nanoseconds)),
        ]
        for resolution in [TimeUnit.microseconds, .nanoseconds] {
            let bytes = try Fixtures.write(frames, format: .pcapng, resolution: resolution)
            let (back, error, reader) = try Fixtures.read(bytes)
            #expect(error == nil)
            #expect(reader.format == .pcapng)
            #expect(reader.metadata["timebase"] == resolution.rawValue)
            #expect(back.map(\.bytes) == frames.map(\.bytes))
            #expect(back.first?.start?.nanoseconds == (resolution == .nanoseconds ? 1_000_000_123_456_789 : 1_000_000_123_456_000))
        }
    }

    @Test func technologyOverride() throws {
        let bytes = Fixtures.pcap([R(seconds: 1, fraction: 0, data: Fixtures.iso14443(0xFE, [0x05, 0x00, 0x08, 0x39, 0x73]))])
        let (frames, _, _) = try Fixtures.read(bytes, options: CaptureReadOptions(technology: .iso14443b))
        #expect(frames.first?.technology == .iso14443b)
    }
}
