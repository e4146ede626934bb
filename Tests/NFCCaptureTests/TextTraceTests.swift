import Testing
import NFCCore
@testable import NFCCapture

@Suite struct TextTraceTests {
    static let sample = """
        nfctrace 1
        # a hand-written trace
        @tag NTAG215
        @source hand
        @tech 14443a
        @timebase us
        @origin 1000

        0  field-on
        100..185  R  26/7             # REQA
        271  T  44 00
        500  R  93 70 88 04 A2 2C 02 EB 68
        900  T  0A/4
        950  R  30 00 crc=stripped
        960  T  A2! 01 02
        970  R  06 00 FF FF 00 00 tech=felica rate=212
        980  malformed 01 FE 00 01 26 reason="pseudo-header version 1, expected 0"
        R  60 F8 32
        1000  field-off
        """

    func read(_ text: String) throws -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        try Fixtures.read(Array(text.utf8))
    }

    @Test func readsEveryFeature() throws {
        let (frames, error, reader) = try read(Self.sample)
        #expect(error == nil)
        #expect(reader.format == .nfctrace)
        #expect(reader.metadata["tag"] == "NTAG215")
        #expect(reader.metadata["source"] == "hand")
        #expect(frames.count == 11)
        #expect(frames[0].event == .fieldOn)
        #expect(frames[0].start == Timestamp(1000, .microseconds))
        #expect(frames[1].bytes == [0x26] && frames[1].lastByteBits == 7)
        #expect(frames[1].start == Timestamp(1100, .microseconds) && frames[1].end == Timestamp(1185, .microseconds))
        #expect(frames[1].comment == "REQA")
        #expect(frames[2].event == .data(.tagToReader))
        #expect(frames[4].lastByteBits == 4)
        #expect(frames[5].crcStripped)
        #expect(frames[6].parityErrors == [0])
        #expect(frames[7].technology == .felica && frames[7].bitRate == 212)
        #expect(frames[8].event == .malformed(reason: "pseudo-header version 1, expected 0"))
        #expect(frames[8].bytes == [0x01, 0xFE, 0x00, 0x01, 0x26])
        #expect(frames[9].start == nil)
        #expect(frames[10].event == .fieldOff)
    }

    @Test func writeThenReadKeepsEverything() throws {
        let (frames, _, reader) = try read(Self.sample)
        let bytes = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, error, reader2) = try Fixtures.read(bytes)
        #expect(error == nil)
        #expect(back == frames)
        #expect(reader2.metadata["tag"] == "NTAG215")
        // and writing again gives the same text
        let again = try Fixtures.write(back, format: .nfctrace, metadata: reader2.metadata)
        #expect(again == bytes)
    }

    @Test(arguments: [
        ("nfctrace 1\n10 X 26\n", 2, "expected R, T, field-on, field-off or malformed, found \"X\""),
        ("nfctrace 1\n10 R 2G\n", 2, "expected a hex byte (like 3A, 26/7 or A2!) or key=value, found \"2G\""),
        ("nfctrace 1\n10 R 26/9\n", 2, "valid-bit count after / must be 1…8 in \"26/9\""),
        ("nfctrace 1\n10 R 26/7 00\n", 2, "only the last byte may have fewer than 8 valid bits"),
        ("nfctrace 1\n10 R\n", 2, "a frame needs at least one byte, or empty for a frame of none"),
        ("nfctrace 1\n10 R empty 00\n", 2, "byte \"00\" after empty"),
        ("nfctrace 1\n10 R 00 empty\n", 2, "empty stands alone in place of the bytes of an R or T frame"),
        ("nfctrace 1\n10 malformed empty\n", 2, "empty stands alone in place of the bytes of an R or T frame"),
        ("nfctrace 1\n10 R 26 parity=maybe\n", 2, "parity= takes known or unknown, found \"maybe\""),
        ("nfctrace 1\n10 R 26! parity=unknown\n", 2, "parity=unknown on a frame with parity errors (!)"),
        ("nfctrace 1\n@parity checked\n", 2, "@parity takes known or unknown, found \"checked\""),
        ("nfctrace 1\n10 field-on 00\n", 2, "field-on carries no bytes"),
        ("nfctrace 1\n10 R 26 color=red\n", 2, "unknown attribute \"color\" (tech, crc, rate, parity, reason)"),
        ("nfctrace 1\n10 R 26 crc=maybe\n", 2, "crc= takes stripped or included, found \"maybe\""),
        ("nfctrace 1\n@tech nfc-z\n", 2, "unknown technology \"nfc-z\" (14443a, 14443b, felica, 15693)"),
        ("nfctrace 2\n", 1, "text trace version 2 is newer than this nfctrace understands (1)"),
        ("nfctrace 1\n1..x R 26\n", 2, "expected a time as <start> or <start>..<end> in us, found \"1..x\""),
        ("nfctrace 1\n10 R 26\n@tag late\n", 3, "metadata line after the first event; @lines belong in the header"),
        // Found by FuzzTextTrace: the sum used to overflow and trap.
        ("nfctrace 1\n@origin 9223372036854775807\n5 R 26\n", 3, "time 5 after @origin 9223372036854775807 is beyond the 64-bit range of us"),
        ("nfctrace 1\n@timebase ns\n@origin -9223372036854775808\n0..-1 R 26\n", 4, "time -1 after @origin -9223372036854775808 is beyond the 64-bit range of ns"),
        // Issue 24: in range of the timebase, beyond the nanoseconds every renderer computes in.
        ("nfctrace 1\n0 R 26/7\n9300000000000000 T 44 00\n", 3, "time 9300000000000000 us is beyond the 64-bit nanosecond range (±292 years of 1970)"),
        ("nfctrace 1\n-9223372036854775808 R 26/7\n", 2, "time -9223372036854775808 us is beyond the 64-bit nanosecond range (±292 years of 1970)"),
        ("nfctrace 1\n0 R 26 reason=\"abc\n", 2, "unterminated quoted value in \"reason=\"abc\""),
        ("nfctrace 1\n0 malformed 26 reason=\"abc\\\"\n", 2, "unterminated quoted value in \"reason=\"abc\\\"\""),
    ] as [(String, Int, String)])
    func errorsNameLineAndReason(text: String, line: Int, reason: String) throws {
        do {
            let (_, error, _) = try read(text)
            guard case .damaged(_, _, _, let r)? = error else {
                Issue.record("expected damage for \(text.debugDescription), got \(String(describing: error))")
                return
            }
            #expect(r == "line \(line): \(reason)")
        } catch let CaptureError.damaged(_, _, _, r) {
            #expect(r == "line \(line): \(reason)")
        }
    }

    @Test func framesBeforeABadLineAreDelivered() throws {
        let text = "nfctrace 1\n10 R 26/7\n20 T 44 00\n30 R zz\n40 R 93 20\n"
        let (frames, error, _) = try read(text)
        #expect(frames.count == 2)
        guard case .damaged(_, let offset, let frame, _)? = error else { Issue.record("expected damage"); return }
        #expect(offset == text.utf8.count - "30 R zz\n40 R 93 20\n".utf8.count)
        #expect(frame == 3)
    }

    @Test func detectionNeedsTheMagicLine() {
        #expect(CaptureFormat.detect(Array("nfctrace 1\n".utf8)[...], complete: true) == .nfctrace)
        #expect(CaptureFormat.detect(Array("\u{FEFF}\n nfctrace 1\n".utf8)[...], complete: true) == .nfctrace)
        #expect(CaptureFormat.detect(Array("nfctrace\n".utf8)[...], complete: true) == nil)
    }

    /// Quotes and backslashes in a malformed event's reason survive write → read, and an escaped
    /// quote does not swallow the attributes after it (found by FuzzTextTrace); also when a
    /// combining mark follows the quote or backslash (one Character, two scalars).
    @Test(arguments: ["\"", "a\\b", "\\", "say \"hi\" # not a comment", "end\\\"", "\"\u{07A9}x", "\\\u{0301}", "x\u{07A9}[\""])
    func reasonsWithQuotesAndBackslashesRoundTrip(reason: String) throws {
        let frame = Frame(.malformed(reason: reason), bytes: [0x01, 0xFE], bitRate: 424)
        let text = try Fixtures.write([frame], format: .nfctrace)
        let (back, error, _) = try read(String(decoding: text, as: UTF8.self))
        #expect(error == nil)
        #expect(back.first?.event == .malformed(reason: reason) && back.first?.bitRate == 424, "\(String(decoding: text, as: UTF8.self))")
    }

    @Test func escapedQuoteDoesNotEndTheValue() throws {
        let (frames, error, _) = try read("nfctrace 1\n10 malformed 01 reason=\"a\\\"b\" rate=424 # note\n")
        #expect(error == nil)
        #expect(frames.first?.event == .malformed(reason: "a\"b") && frames.first?.bitRate == 424 && frames.first?.comment == "note")
    }

    @Test func timeTooFarFromTheOriginIsUnrepresentable() {
        let frames = [Frame(.fieldOn, start: Timestamp(Int64.max, .nanoseconds)), Frame(.fieldOff, start: Timestamp(Int64.min, .nanoseconds))]
        #expect(throws: CaptureError.unrepresentable(path: "<memory>", frame: 2, reason: "its time is more than 64 bits of ns away from @origin 9223372036854775807")) {
            _ = try Fixtures.write(frames, format: .nfctrace)
        }
    }

    /// Found by FuzzTextTrace: write → read lost @origin when the first frame had no time, an
    /// empty comment came back as none, a CR inside a comment was dropped.
    @Test func originIsKeptWhenTheFirstFrameHasNoTime() throws {
        let (frames, _, reader) = try read("nfctrace 1\n@origin 1795392000000000\nR 26\n100..500 R 26 01\n")
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, error, _) = try read(String(decoding: text, as: UTF8.self))
        #expect(error == nil && back == frames, "\(String(decoding: text, as: UTF8.self))")
        #expect(back.last?.start == Timestamp(1_795_392_000_000_100, .microseconds))
    }

    @Test(arguments: ["10 R 26 #", "10 R 26 # a\rb", "10 R 26 # ends with CR\r\r"])
    func commentsRoundTrip(line: String) throws {
        let (frames, _, reader) = try read("nfctrace 1\n" + line + "\n")
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, _, _) = try read(String(decoding: text, as: UTF8.self))
        #expect(back == frames && frames.count == 1)
        #expect(line.hasSuffix("#") ? frames.first?.comment == nil : frames.first?.comment?.contains("\r") == true)
    }

    /// Found by FuzzTextTrace (CI fuzz-smoke, 2026-11-25): a file whose first line ends in CR
    /// was read line by CR only, so LF-ended lines after it became one frame's comment (frames
    /// lost, and the comment did not survive write → read). LF ends a line in a CR file too.
    @Test func aCRFileWithLFLinesKeepsEveryFrame() throws {
        let (frames, error, reader) = try read("nfctrace 1\r100..200  R  26/7  # first\n300..400  T  44 00\r\n500..600  R  93 20\r700 T 04 A2 2C 12 DE\n")
        #expect(error == nil && frames.count == 4, "\(frames)")
        #expect(frames.first?.comment == "first")
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, _, _) = try read(String(decoding: text, as: UTF8.self))
        #expect(back == frames)
    }

    /// Found by FuzzTextTrace: Int64.min did not read (its magnitude was accumulated as a
    /// positive number), and a malformed event's valid-bit count was not written back.
    @Test func int64MinTimesAndMalformedBitCountsRoundTrip() throws {
        let (frames, error, reader) = try read("nfctrace 1\n@timebase ns\n-9223372036854775808 R 26\n-9223372036854775800 malformed 26/7\n")
        #expect(error == nil && frames.count == 2)
        #expect(frames.first?.start == Timestamp(Int64.min, .nanoseconds) && frames.last?.lastByteBits == 7)
        let text = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, e2, _) = try read(String(decoding: text, as: UTF8.self))
        #expect(e2 == nil && back == frames, "\(String(decoding: text, as: UTF8.self))")
    }

    /// Issue 44: an iClass sniff's bare SOF (a frame of no bytes) is written as `empty` and
    /// reads back; before, it became an `R` line without bytes that stopped the read.
    @Test func framesWithoutBytesRoundTrip() throws {
        let frames = [
            Frame(.data(.readerToTag), technology: .iclass, bytes: [0x0A], start: Timestamp(0, .carrierCycles), end: Timestamp(5600, .carrierCycles)),
            Frame(.data(.tagToReader), technology: .iclass, bytes: [], start: Timestamp(6624, .carrierCycles), end: Timestamp(8672, .carrierCycles)),
            Frame(.data(.readerToTag), technology: .iso15693, bytes: [], start: Timestamp(9000, .carrierCycles), comment: "EOF"),
        ]
        let text = String(decoding: try Fixtures.write(frames, format: .nfctrace), as: UTF8.self)
        #expect(text.contains("6624..8672  T  empty\n"), "\(text)")
        #expect(text.contains("R  empty tech=15693  # EOF"), "\(text)")
        let (back, error, _) = try read(text)
        #expect(error == nil)
        #expect(back == frames)
    }

    /// `@parity known` (written for a trace from a Proxmark3): 14443-A frames without `!` have
    /// right parity; `parity=unknown` and `parity=known` say otherwise of one frame. Without it a
    /// frame's parity is unknown unless it has `!` marks.
    @Test func parityKnownOrUnknownRoundTrips() throws {
        let (frames, error, reader) = try read("""
            nfctrace 1
            @parity known
            10 R 26/7
            20 T 44 00
            30 T 04 DA! 17
            40 R 30 04 26 EE parity=unknown
            50 R 05 00 08 39 73 tech=14443b parity=known
            60 R 0A tech=iclass

            """)
        #expect(error == nil)
        #expect(frames.map(\.parityErrors) == [[], [], [1], nil, [], nil])
        let bytes = try Fixtures.write(frames, format: .nfctrace, metadata: reader.metadata)
        let (back, _, _) = try read(String(decoding: bytes, as: UTF8.self))
        #expect(back == frames)
        // Without the header line, known parity is said frame by frame.
        let plain = String(decoding: try Fixtures.write(frames, format: .nfctrace), as: UTF8.self)
        #expect(plain.contains("R  26/7 parity=known") && plain.contains("T  44 00 parity=known") && !plain.contains("DA! 17 parity"), "\(plain)")
        #expect(try read(plain).frames == frames)
    }
}
