import Testing
@testable import NFCCore

/// Timestamps beyond the 64-bit nanosecond range saturate instead of trapping (found by
/// FuzzTextTrace: a carrier-cycle time near Int64.max overflowed while being compared).
@Suite struct TimestampTests {
    @Test func carrierCyclesConvertExactlyInRange() {
        #expect(Timestamp(13_560_000, .carrierCycles).nanoseconds == 1_000_000_000)
        #expect(Timestamp(1, .carrierCycles).nanoseconds == 74)
        #expect(Timestamp(-13_560_000, .carrierCycles).nanoseconds == -1_000_000_000)
    }

    @Test(arguments: [TimeUnit.microseconds, .carrierCycles])
    func extremesSaturateOnTheirSide(unit: TimeUnit) {
        #expect(Timestamp(Int64.max, unit).nanoseconds == Int64.max)
        #expect(Timestamp(Int64.min, unit).nanoseconds == Int64.min)
        #expect(Timestamp(Int64.min, unit).converted(to: .nanoseconds).value == Int64.min)
        #expect(Timestamp(Int64.max / 1000 + 1, .microseconds).nanoseconds == Int64.max)
    }
}
