import Testing
import NFCCore
@testable import NFCCapture

/// Times that readers once took wrongly or silently (issue 51, points 8 and 11): pcap seconds
/// past 2038, a listing's time beyond 64-bit nanoseconds, a Proxmark3 counter that wrapped, and
/// pcapng interface options no time can be read in.
@Suite struct HostileTimesTests {
    /// 2050-01-01 and the last second pcap holds (2106-02-07 06:28:15).
    @Test(arguments: [2_524_608_000, 4_294_967_295] as [Int64])
    func pcapSecondsPast2038ReadBackUnsigned(seconds: Int64) throws {
        for format in [CaptureFormat.pcap, .pcapng] {
            for resolution in [TimeUnit.microseconds, .nanoseconds] {
                let ns = seconds * 1_000_000_000 + 123_456_000
                let frame = Frame(.data(.readerToTag), bytes: [0x26], start: Timestamp(ns, .nanoseconds))
                let (frames, error, _) = try Fixtures.read(try Fixtures.write([frame], format: format, resolution: resolution))
                #expect(error == nil)
                #expect(frames.first?.start?.checkedNanoseconds == ns, "\(format) \(resolution): \(String(describing: frames.first?.start))")
            }
        }
    }
}
