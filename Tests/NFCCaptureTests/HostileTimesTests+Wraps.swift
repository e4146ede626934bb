import Testing
import NFCCore
@testable import NFCCapture

/// Issue 51, point 11: a listing time beyond 64-bit nanoseconds, a wrapped Proxmark3 counter,
/// pcapng interface options no time can be read in.
extension HostileTimesTests {
    @Test func aListingTimeBeyondNanosecondsIsDamageWithItsLine() throws {
        let text = """
                  Start |        End | Src | Data (! denotes parity error)      | CRC | Annotation
            ------------+------------+-----+-----------------------------------+-----+-----------
            9223372036854775807 | 9223372036854775807 | Rdr |26(7)                  |     | REQA
                   1056 |       2000 | Tag |44  00                              |     |

            """
        // Later rows are read near the one before them (the client's times wrap at 2^32), so
        // only the first row's time is taken as printed.
        let (frames, error, _) = try Proxmark3ListingTests.read(text)
        #expect(frames.isEmpty)
        guard case .damaged(_, _, let frame, let reason)? = error else { Issue.record("expected damage, got \(String(describing: error))"); return }
        #expect(frame == 1)
        #expect(reason == "line 3: time 9223372036854775807 carrier is beyond the 64-bit nanosecond range (±292 years of 1970)")
    }

    static func record(_ ticks: UInt32, _ data: [UInt8]) -> [UInt8] {
        Fixtures.le32(ticks) + Fixtures.le16(1000) + Fixtures.le16(UInt16(data.count)) + data
            + [UInt8](repeating: 0xFF, count: Proxmark3Trace.parityLength(data.count))
    }

    @Test func aWrappedProxmark3CounterIsUnwrappedAndSaid() throws {
        let file = Self.record(4_294_960_000, [0x26, 0x10]) + Self.record(100, [0x44, 0x00]) + Self.record(200, [0x93, 0x20])
        let (frames, error, _) = try Fixtures.read(file, options: CaptureReadOptions(format: .proxmark3))
        #expect(error == nil)
        #expect(frames.map(\.start) == [Timestamp(4_294_960_000, .carrierCycles), Timestamp(4_294_967_396, .carrierCycles), Timestamp(4_294_967_496, .carrierCycles)])
        #expect(frames[1].end == Timestamp(4_294_968_396, .carrierCycles))
        #expect(frames.map(\.comment) == [nil, Proxmark3TraceReader.wrapNote, nil])
        // A small step back is no wrap.
        let back = try Fixtures.read(Self.record(5000, [0x26, 0x10]) + Self.record(4000, [0x44, 0x00]), options: CaptureReadOptions(format: .proxmark3))
        #expect(back.frames.map(\.start) == [Timestamp(5000, .carrierCycles), Timestamp(4000, .carrierCycles)])
    }

    typealias P = PcapngBlockReaderTests

    static func idb(options: [UInt8]) -> [UInt8] {
        P.block(1, P.le16(264) + P.le16(0) + P.le(0) + options + P.le16(0) + P.le16(0))
    }

    @Test(arguments: [
        (P.le16(14) + P.le16(8) + P.le(0) + P.le(0x8000_0000), "interface 0: if_tsoffset -9223372036854775808 s is beyond the 64-bit nanosecond range (±292 years of 1970)"),
        (P.le16(9) + P.le16(1) + [0x7F, 0, 0, 0], "interface 0: if_tsresol 0x7F (ticks of 10^-127 s) is finer than the 10^-19 or 2^-63 s nfctrace reads"),
        (P.le16(9) + P.le16(1) + [0xC0, 0, 0, 0], "interface 0: if_tsresol 0xC0 (ticks of 2^-64 s) is finer than the 10^-19 or 2^-63 s nfctrace reads"),
    ] as [([UInt8], String)])
    func pcapngInterfaceOptionsOutOfRangeAreDamage(option: [UInt8], reason: String) throws {
        let file = P.shb + Self.idb(options: option) + P.epb(0, 1, [0x00, 0xFE, 0x00, 0x01, 0x26])
        let (frames, error, _) = try Fixtures.read(file)
        #expect(frames.isEmpty)
        guard case .damaged(_, let offset, _, let why)? = error else { Issue.record("expected damage, got \(String(describing: error))"); return }
        #expect(offset == P.shb.count, "at the Interface Description Block")
        #expect(why == reason)
    }

    @Test func aLittleEndianTimeOffsetHasItsLowHalfFirst() throws {
        let file = P.shb + Self.idb(options: P.le16(14) + P.le16(8) + P.le(100) + P.le(0)) + P.epb(0, 1_000_000, [0x00, 0xFE, 0x00, 0x01, 0x26])
        let (frames, error, _) = try Fixtures.read(file)
        #expect(error == nil)
        #expect(frames.first?.start?.checkedNanoseconds == 101_000_000_000)
    }

    @Test func theFinestResolutionStillReads() throws {
        // 10^-19 s ticks: 10^19 - 1 of them is just under a second.
        let file = P.shb + Self.idb(options: P.le16(9) + P.le16(1) + [19, 0, 0, 0]) + P.epb(0, 9_999_999_999_999_999_999, [0x00, 0xFE, 0x00, 0x01, 0x26])
        let (frames, error, _) = try Fixtures.read(file)
        #expect(error == nil)
        #expect(frames.first?.start?.checkedNanoseconds == 999_999_999)
    }
}
