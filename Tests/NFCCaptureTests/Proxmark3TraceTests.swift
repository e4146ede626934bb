import Testing
import NFCCore
@testable import NFCCapture

@Suite struct Proxmark3TraceTests {
    static var shared: String? { Fixtures.sharedDirectory }

    func readShared(_ name: String) throws -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        let input = try ByteInput.open("\(Self.shared ?? "")/pm3-traces/\(name)")
        return Fixtures.readAll(try Capture.open(input))
    }

    @Test(.enabled(if: shared != nil, "../shared/pm3-traces is not beside this checkout"),
          arguments: [("hf_14a_mfu.trace", 11, 11), ("hf_14a_reader_4b.trace", 3, 3), ("hf_14a_reader_7b_rats.trace", 10, 6),
                      ("hf_14a_mfuc.trace", 16, 16), ("hf_mfdes_sniff.trace", 31, 22)])
    func realTracesAreDetectedAndReadCompletely(name: String, readerFrames: Int, tagFrames: Int) throws {
        let (frames, error, reader) = try readShared(name)
        #expect(error == nil)
        #expect(reader.format == .proxmark3)
        #expect(frames.filter(\.isReaderFrame).count == readerFrames)
        #expect(frames.filter(\.isTagFrame).count == tagFrames)
        #expect(frames.allSatisfy { $0.start?.unit == .carrierCycles })
    }

    @Test(.enabled(if: shared != nil, "../shared/pm3-traces is not beside this checkout"))
    func keepsTimingShortFramesAndParity() throws {
        let (frames, _, _) = try readShared("hf_14a_mfu.trace")
        // First record: REQA at 97634075 carrier periods, 1056 long, 7 bits.
        #expect(frames[0].bytes == [0x26])
        #expect(frames[0].lastByteBits == 7)
        #expect(frames[0].start == Timestamp(97_634_075, .carrierCycles))
        #expect(frames[0].end == Timestamp(97_634_075 + 1056, .carrierCycles))
        #expect(frames[1].bytes == [0x44, 0x00] && frames[1].lastByteBits == 8)
        #expect(frames.allSatisfy { $0.parityErrors == [] }, "a clean reader session has no parity errors")
    }

    @Test func parityErrorsAreFoundAndWrittenBack() throws {
        var frame = Frame(.data(.tagToReader), bytes: [0x04, 0xDA, 0x17], start: Timestamp(2000, .carrierCycles), end: Timestamp(5000, .carrierCycles))
        frame.parityErrors = [1]
        let bytes = try Fixtures.write([Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: Timestamp(0, .carrierCycles), end: Timestamp(1056, .carrierCycles)), frame], format: .proxmark3)
        let (back, error, _) = try Fixtures.read(bytes, options: CaptureReadOptions(format: .proxmark3))
        #expect(error == nil)
        #expect(back.count == 2)
        #expect(back[0].lastByteBits == 7)
        #expect(back[1].parityErrors == [1])
        #expect(back[1].end == Timestamp(5000, .carrierCycles))
    }

    @Test func truncatedRecordIsDamageWithOffset() throws {
        let good = try Fixtures.write([
            Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: Timestamp(0, .carrierCycles)),
            Frame(.data(.tagToReader), bytes: [0x44, 0x00], start: Timestamp(2000, .carrierCycles)),
        ], format: .proxmark3)
        let bytes = good + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x05, 0x00, 0x93]
        let (frames, error, _) = try Fixtures.read(bytes, options: CaptureReadOptions(format: .proxmark3))
        #expect(frames.count == 2)
        guard case .damaged(_, let offset, let frame, let reason)? = error else { Issue.record("expected damage"); return }
        #expect(offset == good.count)
        #expect(frame == 3)
        #expect(reason == "truncated record: header announces 5 data and 1 parity bytes, only 1 follow")
    }

    @Test func structuralDetectionRejectsNoise() {
        #expect(Proxmark3Trace.looksLikeTrace([0x00, 0x01, 0x02], complete: true) == false)
        #expect(Proxmark3Trace.looksLikeTrace([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0xFF, 0x7F] + [UInt8](repeating: 0, count: 40), complete: true) == false)
        // A single REQA record: header, data 26, parity 00.
        #expect(Proxmark3Trace.looksLikeTrace([0, 0, 0, 0, 0x20, 0x04, 0x01, 0x00, 0x26, 0x00], complete: true))
        // Parity bits beyond the data bytes must be zero.
        #expect(Proxmark3Trace.looksLikeTrace([0, 0, 0, 0, 0x20, 0x04, 0x01, 0x00, 0x26, 0x01], complete: true) == false)
    }

    @Test func shortFrameBitsFromDuration() {
        #expect(Proxmark3Trace.estimatedBits(dataLength: 1, duration: 1056) == 7)
        #expect(Proxmark3Trace.estimatedBits(dataLength: 1, duration: 640) == 4)
        #expect(Proxmark3Trace.estimatedBits(dataLength: 1, duration: 1200) == 8)
        #expect(Proxmark3Trace.estimatedBits(dataLength: 2, duration: 500) == 8)
    }
}
