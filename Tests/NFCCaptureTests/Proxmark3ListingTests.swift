import Testing
import NFCCore
@testable import NFCCapture

/// Proxmark3 `trace list` tables as input: the three listings in ../shared/captures (read in
/// place) give exactly the frames of the `.trace` they were listed from; pasted tables with
/// prose, colours and prefixes, the `-c`, `-u`, `-r` variants and the pre-2014 layout read too.
@Suite struct Proxmark3ListingTests {
    static var shared: String? { Fixtures.sharedDirectory }

    static func frames(_ path: String, technology: Technology? = nil) throws -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        Fixtures.readAll(try Capture.open(try ByteInput.open(path), options: CaptureReadOptions(technology: technology)))
    }

    static func read(_ text: String, technology: Technology? = nil) throws -> (frames: [Frame], error: CaptureError?, reader: FrameReader) {
        Fixtures.readAll(try Capture.open(ByteInput.memory(Array(text.utf8), name: "pasted.txt"), options: CaptureReadOptions(technology: technology)))
    }

    /// Same frames as the `.trace`: direction, bytes, bits, parity, and times (the listing counts
    /// from the first frame).
    @Test(.enabled(if: shared != nil, "../shared is not beside this checkout"),
          arguments: [("hf_14a_mfu", Technology.iso14443a, 22), ("hf_14b_reader", .iso14443b, 2), ("hf_mfdes_sniff", .iso14443a, 53)])
    func listingsGiveTheFramesOfTheirTrace(name: String, technology: Technology, count: Int) throws {
        let shared = try #require(Self.shared)
        let (listed, error, reader) = try Self.frames("\(shared)/captures/proxmark3-listings/\(name).txt")
        #expect(error == nil)
        #expect(reader.format == .proxmark3Listing)
        #expect(reader.metadata["tech"] == technology.rawValue, "the technology comes from the listing's unit line")
        let (traced, traceError, _) = try Self.frames("\(shared)/pm3-traces/\(name).trace", technology: technology)
        #expect(traceError == nil)
        #expect(listed.count == count && traced.count == count)
        let origin = traced.first?.start?.value ?? 0
        for (l, t) in zip(listed, traced) {
            #expect(l.event == t.event && l.technology == technology)
            #expect(l.bytes == t.bytes && l.lastByteBits == t.lastByteBits)
            #expect(l.parityErrors == t.parityErrors)
            #expect(l.start?.value == (t.start?.value ?? 0) - origin && l.start?.unit == .carrierCycles)
            #expect(l.end?.value == (t.end?.value ?? 0) - origin)
        }
    }

    /// What a user pastes from a web page or a terminal: prose around the table, ANSI colours,
    /// `[=]` prefixes, CRLF, `-c` brackets, a long frame on two rows, a parity error, a
    /// decrypted `*` row (the client's, not a frame).
    @Test func pastedTablesAreTolerated() throws {
        let esc = "\u{1B}"
        let text = """
        Here is what my Proxmark printed:\r
        [usb] pm3 --> trace list -t 14a -c\r
        [+] Recorded activity ( 372 bytes )\r
        [=] ISO14443A - all times are in carrier periods (1/13.56MHz)\r
        \r
        [=]       Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation\r
        [=] ------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------\r
        [=]           0 |       1056 | \(esc)[33mRdr\(esc)[0m |\(esc)[33m26(7)\(esc)[0m                                                                    |     | REQA\r
        [=]        2228 |       4596 | Tag |44  00                                                                   |     | \r
        [=]     2518840 |    2523544 | Rdr |30  04 [26  EE]                                                          |  ok | READBLOCK(4)\r
        [=]     2527084 |    2547948 | Tag |00  00  00  00  00  00  00  00  00  00  00  00  00  00  00  00  01! 02  |     | \r
        [=]             |            |     |03  [37  49]                                                             |  ok | \r
        [=]             |            |  *  |30  00  02  A8                                                           |  ok | READBLOCK(0)\r
        Thanks for any help!\r

        """
        let (frames, error, reader) = try Self.read(text)
        #expect(error == nil)
        #expect(reader.format == .proxmark3Listing)
        #expect(frames.count == 4)
        #expect(frames[0].bytes == [0x26] && frames[0].lastByteBits == 7 && frames[0].isReaderFrame)
        #expect(frames[2].bytes == [0x30, 0x04, 0x26, 0xEE], "the CRC in brackets is data")
        #expect(frames[3].bytes.count == 21 && frames[3].bytes.suffix(3) == [0x03, 0x37, 0x49], "a frame on two rows is one frame")
        #expect(frames[3].parityErrors == [16])
        #expect(frames[3].start == Timestamp(2_527_084, .carrierCycles))
    }

    /// `-r -u --frame`: gaps and durations in µs; `Frame Delay Time` rows are no frames.
    @Test func gapsAndMicroseconds() throws {
        let text = """
        [=] ISO14443A - all times are in microseconds
                Gap |   Duration | Src | Data (! denotes parity error, ' denotes short bytes)            | CRC | Annotation
        ------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------
                0.0 |       77.9 | Rdr |26'                                                                      |     | REQA
                0.0 |       86.4 |     |Frame Delay Time 86.4
               86.4 |      174.8 | Tag |44  00                                                                   |     |
        """
        let (frames, error, _) = try Self.read(text)
        #expect(error == nil)
        #expect(frames.count == 2)
        #expect(frames[0].start == Timestamp(0, .nanoseconds) && frames[0].end == Timestamp(77_900, .nanoseconds))
        #expect(frames[0].lastByteBits == 7, "a short byte of 77.9 µs is 7 bits")
        #expect(frames[1].start == Timestamp(164_300, .nanoseconds) && frames[1].end == Timestamp(339_100, .nanoseconds))
    }

    /// The clients before 2014: ` +delta: rssi: TAG bytes`, deltas between frame starts,
    /// lowercase, `!` after a tag byte, ` !crc` after the bytes.
    @Test func theOldLayoutReads() throws {
        let text = """
        recorded activity:
         ETU     :rssi: who bytes
        ---------+----+----+-----------
         +      0:    :     52
         +    236:   0: TAG 04  00
         +      0:    :     62  c6  da  97  5a  07  ab  21     !crc
         +    380:   0: TAG eb! 31  34! 96!
        """
        let (frames, error, _) = try Self.read(text)
        #expect(error == nil)
        #expect(frames.count == 4)
        #expect(frames.map(\.isTagFrame) == [false, true, false, true])
        #expect(frames[2].bytes == [0x62, 0xC6, 0xDA, 0x97, 0x5A, 0x07, 0xAB, 0x21])
        #expect(frames[3].parityErrors == [0, 2, 3])
        #expect(frames[3].start == Timestamp(616, .carrierCycles))
    }

    /// The technology comes from the header line; `--tech` wins over it.
    @Test func technologyFromTheHeaderAndTheUser() throws {
        let text = """
        [=] ISO15693 - all times are in carrier periods (1/13.56MHz)
              Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation
                  0 |       1000 | Rdr |26  01  00  F6  0A                                                       |  ok | INVENTORY
        """
        #expect(try Self.read(text).frames.first?.technology == .iso15693)
        #expect(try Self.read(text, technology: .iclass).frames.first?.technology == .iclass)
    }

    /// A row whose bytes are not hex is damage at its line; the frames before it are kept.
    @Test func aBadRowIsDamageAfterTheFramesBeforeIt() throws {
        let text = """
              Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation
                  0 |       1056 | Rdr |26(7)                                                                    |     | REQA
               2228 |       4596 | Tag |44  00                                                                   |     |
               5000 |       6000 | Rdr |93  2G                                                                   |     |
        """
        let (frames, error, _) = try Self.read(text)
        #expect(frames.count == 2)
        guard case .damaged(_, let offset, let frame, let reason)? = error else { Issue.record("expected damage, got \(String(describing: error))"); return }
        #expect(frame == 3)
        #expect(offset == text.utf8.count - text.split(separator: "\n").last!.utf8.count)
        #expect(reason.contains("93  2G"))
    }

    /// Prose alone is not a listing, nor is a `.nfctrace`; a binary `.trace` stays a `.trace`.
    @Test func detection() {
        #expect(!Proxmark3Listing.looksLikeListing(Array("Dear Proxmark users, | Src | is a column\nno table here\n".utf8)))
        #expect(CaptureFormat.detect(Array("nfctrace 1\n0 R 26\n".utf8)[...], complete: true) == .nfctrace)
        #expect(CaptureFormat.detect(Array("   0 |  1056 | Rdr |26(7)  | |\n 2228 | 4596 | Tag |44  00 | |\n".utf8)[...], complete: true) == .proxmark3Listing)
    }

    /// Issue 44: today's clients print one unit line for `-t 15` and `-t iclass`; the rows tell
    /// which. An iClass sniff's bare SOFs (`<SOF>`, 2048 carrier periods) are frames without
    /// bytes, not damage; times are as the client printed them (ends already ×32).
    @Test func anIClassSniffUnderTheSharedUnitLine() throws {
        let text = """
        [=] ISO15693 / iCLASS - all times are in carrier periods (1/13.56MHz)

              Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation
        ------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------
                  0 |       5600 | Rdr |0A                                                                      |     | ACTALL
               6624 |       8672 | Tag | <SOF>                                                                  |     |
              12797 |      18429 | Rdr |0C                                                                      |     | IDENTIFY
              20608 |      63104 | Tag |08  24  8E  00  01  40  02  5C  52  DE                                  |  ok |
        """
        let (frames, error, reader) = try Self.read(text)
        #expect(error == nil)
        #expect(reader.metadata["tech"] == "iclass")
        #expect(frames.count == 4 && frames.allSatisfy { $0.technology == .iclass && $0.parityErrors == nil })
        #expect(frames[1].isTagFrame && frames[1].bytes.isEmpty)
        #expect(frames[1].start == Timestamp(6624, .carrierCycles) && frames[1].end == Timestamp(8672, .carrierCycles))
        #expect(frames[3].bytes.count == 10)
    }

    /// The same unit line over ISO 15693 rows (flags first, `<EOF>` rows of the reader); the
    /// older clients' `… - Timings are not as accurate` unit lines name their technology.
    @Test(arguments: [
        ("[=] ISO15693 / iCLASS - all times are in carrier periods (1/13.56MHz)", "      94208 |      94720 | Rdr | <EOF>   |     |", Technology.iso15693),
        ("[=] ISO15693 / iCLASS - all times are in carrier periods (1/13.56MHz)", "      94208 |      99000 | Rdr |0C  01  FA  22 |     |", .iclass),
        ("iClass - Timings are not as accurate", "      94208 |      99000 | Rdr |22  20  81  DC |     |", .iclass),
        ("ISO15693 - Timings are not as accurate", "      94208 |      99000 | Rdr |0C  01  FA  22 |     |", .iso15693),
    ] as [(String, String, Technology)])
    func iClassOrISO15693FromTheRows(unit: String, row: String, technology: Technology) throws {
        let (frames, error, _) = try Self.read(unit + "\n      Start |        End | Src | Data | CRC | Annotation\n" + row + "\n")
        #expect(error == nil)
        #expect(frames.first?.technology == technology)
    }

    /// The client prints times as unsigned 32-bit counts since the first frame: a frame before
    /// it prints 4294937600, which is 2.19 ms early, not 316.7 s late; a long sniff wraps
    /// forwards. `-u` (µs) and `-r` (gaps) wrap the same way.
    @Test func printedTimesThatWrapAreReadNearTheFrameBefore() throws {
        let rows = """
              Start |        End | Src | Data | CRC | Annotation
                  0 |       1056 | Rdr |26(7)   |     | REQA
         4294937600 | 4294938656 | Rdr |52(7)   |     | WUPA
               2228 |       4596 | Tag |44  00  |     |
         2147000000 | 2147002000 | Rdr |93  20  |     |
         4294000000 | 4294002000 | Rdr |93  20  |     |
             500000 |     502000 | Tag |88  04  A8  1D  39 |  |
        """
        let (frames, error, _) = try Self.read(rows)
        #expect(error == nil)
        #expect(frames.map { $0.start?.value } == [0, -29_696, 2228, 2_147_000_000, 4_294_000_000, 4_295_467_296])
        #expect(frames[1].end == Timestamp(-28_640, .carrierCycles) && frames[1].lastByteBits == 7)
        #expect(frames[5].end == Timestamp(4_295_469_296, .carrierCycles))
        let µs = """
        [=] ISO14443A - all times are in microseconds
              Start |        End | Src | Data | CRC | Annotation
                0.0 |       77.9 | Rdr |26(7)   |     | REQA
        316737999.0 | 316738000.0 | Rdr |52(7)   |     | WUPA
        """
        #expect(try Self.read(µs).frames.map { $0.start?.value } == [0, -2_180], "ns: 2.18 µs before the first")
        let gaps = """
                Gap |   Duration | Src | Data | CRC | Annotation
                  0 |       1056 | Rdr |26(7)   |     | REQA
         4294966296 |       1056 | Rdr |52(7)   |     | WUPA
        """
        #expect(try Self.read(gaps).frames.map { $0.start?.value } == [0, 56], "a gap of 2^32 − 1000 is 1000 back")
        let excerpt = """
              Start |        End | Src | Data | CRC | Annotation
         3000000000 | 3000001056 | Rdr |26(7)   |     | REQA
         3000002228 | 3000004596 | Tag |44  00  |     |
        """
        #expect(try Self.read(excerpt).frames.map { $0.start?.value } == [3_000_000_000, 3_000_002_228], "a pasted excerpt's first row is as printed")
    }
}
