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

    /// Writes frames into a `.trace` in memory with `times` and `origin`; returns the bytes and
    /// the writer's notes.
    static func write(_ frames: [Frame], times: Proxmark3Times = .absolute, origin: Timestamp? = nil) throws -> (bytes: [UInt8], losses: [FrameLoss]) {
        let out = ByteOutput.inMemory()
        let writer = Proxmark3TraceWriter(output: out, times: times, origin: origin)
        for f in frames { try writer.write(f) }
        try writer.finish()
        return (out.memory ?? [], writer.losses)
    }

    /// Issue 44: the firmware stores iClass durations ÷32 as it does ISO 15693's, and a bare SOF
    /// is a record without data of 64 (2048 carrier periods, which the client lists as `<SOF>`).
    @Test func iClassDurationsAreStoredDividedBy32() throws {
        let frames = [
            Frame(.data(.readerToTag), technology: .iclass, bytes: [0x0A], start: Timestamp(0, .carrierCycles), end: Timestamp(5600, .carrierCycles)),
            Frame(.data(.tagToReader), technology: .iclass, bytes: [], start: Timestamp(6624, .carrierCycles), end: Timestamp(8672, .carrierCycles)),
            Frame(.data(.readerToTag), technology: .iso15693, bytes: [], start: Timestamp(9000, .carrierCycles)),
        ]
        let (bytes, losses) = try Self.write(frames)
        // 5600 / 32 = 175 = AF 00; the SOF: 64, no data, one zero parity byte; the EOF: 16.
        #expect(Array(bytes[4..<6]) == [0xAF, 0x00])
        #expect(Array(bytes[10...]) == [0xE0, 0x19, 0, 0, 0x40, 0x00, 0x00, 0x80, 0x00, 0x28, 0x23, 0, 0, 0x10, 0x00, 0x00, 0x00, 0x00])
        let (back, error, _) = try Fixtures.read(bytes, options: CaptureReadOptions(format: .proxmark3, technology: .iclass))
        #expect(error == nil)
        #expect(back.prefix(2).map(\.end) == [Timestamp(5600, .carrierCycles), Timestamp(8672, .carrierCycles)])
        #expect(back[1].bytes.isEmpty && back[1].isTagFrame)
        // The EOF had no end: one is made up, and said.
        #expect(losses.map(\.kind) == [.technology, .endTimes])
    }

    /// A 4-bit ACK has no parity bit: its parity byte stays 00 (it was written 80); unknown
    /// parity is written as zero bits and read back as unknown where they would be errors.
    @Test func shortFramesAndUnknownParity() throws {
        var known = Frame(.data(.readerToTag), bytes: [0x30, 0x04, 0x26, 0xEE], start: Timestamp(0, .carrierCycles), end: Timestamp(4704, .carrierCycles))
        known.parityErrors = []
        let ack = Frame(.data(.tagToReader), bytes: [0x0A], lastByteBits: 4, parityErrors: [], start: Timestamp(5000, .carrierCycles), end: Timestamp(5640, .carrierCycles))
        // Crypto1-encrypted bytes from an nfc-laboratory export: parity unknown.
        let encrypted = Frame(.data(.tagToReader), bytes: [0x49, 0xB5, 0x18, 0x7D], start: Timestamp(6000, .carrierCycles), end: Timestamp(10700, .carrierCycles))
        let (bytes, losses) = try Self.write([known, ack, encrypted])
        #expect(bytes[13 + 8 + 1] == 0x00, "the ACK's parity byte")
        #expect(bytes.suffix(1) == [0x00], "zero bits for unknown parity")
        let (back, _, _) = try Fixtures.read(bytes, options: CaptureReadOptions(format: .proxmark3))
        #expect(back.map(\.parityErrors) == [[], [], nil])
        #expect(back[1].lastByteBits == 4)
        #expect(losses.isEmpty, "\(losses)")
        // Zero bits that are right parity read back as known: said as a loss.
        let odd = Frame(.data(.tagToReader), bytes: [0x01, 0x02], start: Timestamp(0, .carrierCycles), end: Timestamp(2400, .carrierCycles))
        #expect(try Self.write([odd]).losses.map(\.kind) == [.parity])
    }

    /// Issue 44: `--pm3-times first` with a frame before the first (a clock that went back):
    /// counted from the earliest it works; a frame before the origin fails with its real distance.
    @Test func firstCountsFromTheOriginAndSaysHowFarBeforeIt() throws {
        let frames = [
            Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: Timestamp(1_795_392_000_001_000, .microseconds)),
            Frame(.data(.readerToTag), bytes: [0x52], lastByteBits: 7, start: Timestamp(1_795_392_000_000_990, .microseconds)),
        ]
        let (bytes, losses) = try Self.write(frames, times: .first, origin: frames[1].start)
        let (back, _, _) = try Fixtures.read(bytes, options: CaptureReadOptions(format: .proxmark3))
        #expect(back.map { $0.start?.value } == [136, 0], "10 µs = 135.6 carrier periods")
        #expect(losses.map(\.kind).contains(.timeOrigin))
        #expect {
            _ = try Self.write(frames, times: .first)
        } throws: { error in
            guard case CaptureError.unrepresentable(_, 2, let reason) = error else { return false }
            return reason.hasPrefix("it starts 10.0 µs before the time --pm3-times first counts from") && reason.hasSuffix("give --pm3-times wrap to let the counter wrap as the device's does")
        }
    }
}
