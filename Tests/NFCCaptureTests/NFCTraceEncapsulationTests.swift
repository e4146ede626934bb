import Testing
import NFCCore
@testable import NFCCapture

/// nfctrace's LINKTYPE_USER3 pseudo-header (docs/trace-format.md).
@Suite struct NFCTraceEncapsulationTests {
    static let frames: [Frame] = [
        Frame(.fieldOn, technology: .felica, start: Timestamp(1_000_000_000, .microseconds)),
        Frame(.data(.readerToTag), technology: .felica, bytes: CRC.appending(.felica, to: [0x06, 0x00, 0xFE, 0x00, 0x00, 0x00]), start: Timestamp(1_000_000_100, .microseconds), bitRate: 212),
        Frame(.data(.readerToTag), technology: .iso15693, bytes: [0x26, 0x01, 0x00], crcStripped: true, start: Timestamp(1_000_000_200, .microseconds), bitRate: 26),
        Frame(.data(.readerToTag), technology: .iso14443a, bytes: [0x26], lastByteBits: 7, start: Timestamp(1_000_000_300, .microseconds)),
        Frame(.data(.tagToReader), technology: .iso14443b, bytes: [0x50, 1, 2, 3, 4], start: Timestamp(1_000_000_400, .microseconds)),
        Frame(.fieldOff, technology: .felica, start: Timestamp(1_000_000_500, .microseconds)),
    ]

    @Test(arguments: [CaptureFormat.pcap, .pcapng])
    func everyTechnologyRoundTrips(format: CaptureFormat) throws {
        let bytes = try Fixtures.write(Self.frames, format: format)
        let (back, error, _) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(back == Self.frames, "technology, direction, CRC flag, bit count, rate and time all survive")
    }

    @Test func firstFrameChoosesTheLinkType() throws {
        let felica = try Fixtures.write(Array(Self.frames.prefix(2)), format: .pcap)
        #expect(Array(felica[20..<24]) == [150, 0, 0, 0], "FeliCa first: LINKTYPE_USER3")
        let nfca = try Fixtures.write([Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7)], format: .pcap)
        #expect(Array(nfca[20..<24]) == [0x08, 0x01, 0, 0], "14443-A first: LINKTYPE_ISO_14443 (264)")
    }

    @Test func mixedTraceIn264IsRefusedWithAHint() throws {
        let frames = [Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7), Self.frames[1]]
        #expect {
            _ = try Fixtures.write(frames, format: .pcap)
        } throws: { e in
            guard case CaptureError.unrepresentable(_, 2, let reason) = e else { return false }
            return reason.contains("--link-type nfctrace")
        }
    }

    @Test(arguments: [
        ([0x4E, 0x47, 1, 0x0F, 0, 1, 0, 0, 0, 1, 0x06], "nfctrace pseudo-header must start with 4E 46 (\"NF\")"),
        ([0x4E, 0x46, 2, 0x0F, 0, 1, 0, 0, 0, 1, 0x06], "nfctrace pseudo-header version 2, expected 1"),
        ([0x4E, 0x46, 1, 0x0D, 0, 1, 0, 0, 0, 1, 0x06], "nfctrace pseudo-header technology 0x0D is none of 0A, 0B, 0F, 05, 0C"),
        ([0x4E, 0x46, 1, 0x0F, 9, 1, 0, 0, 0, 1, 0x06], "nfctrace pseudo-header event 0x09 is none of 00…03"),
        ([0x4E, 0x46, 1, 0x0F, 0, 1, 0, 0, 0, 2, 0x06], "length field says 2 bytes, the record holds 1"),
        ([0x4E, 0x46, 1, 0x0F, 0, 1], "record of 6 bytes is shorter than the 10-byte nfctrace pseudo-header"),
        ([0x4E, 0x46, 1, 0x0F, 2, 0, 0, 0, 0, 1, 0x06], "field event with 1 data bytes, expected none"),
        ([0x4E, 0x46, 1, 0x0F, 0, 0x91, 0, 0, 0, 1, 0x06], "valid-bit count 9 in the flags is above 8"),
    ] as [([UInt8], String)])
    func badHeadersAreReported(record: [UInt8], reason: String) throws {
        let bytes = Fixtures.pcap([.init(seconds: 1, fraction: 0, data: record)], linkType: 150)
        let (frames, error, _) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(frames.first?.event == .malformed(reason: reason))
        #expect(frames.first?.bytes == record)
    }
}
