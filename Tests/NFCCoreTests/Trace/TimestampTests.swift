import Testing
@testable import NFCCore

/// Timestamps beyond the 64-bit nanosecond range are reported (nil), never wrapped or trapped
/// on (found by FuzzTextTrace: a carrier-cycle time near Int64.max overflowed while being
/// compared; issue 24: two frames 292 years apart trapped the renderers).
@Suite struct TimestampTests {
    @Test func carrierCyclesConvertExactlyInRange() {
        #expect(Timestamp(13_560_000, .carrierCycles).nanoseconds == 1_000_000_000)
        #expect(Timestamp(1, .carrierCycles).nanoseconds == 74)
        #expect(Timestamp(-13_560_000, .carrierCycles).nanoseconds == -1_000_000_000)
        #expect(Timestamp(1_000_000_000, .nanoseconds).converted(to: .carrierCycles)?.value == 13_560_000)
    }

    @Test(arguments: [TimeUnit.microseconds, .carrierCycles])
    func outOfRangeTimesAreReported(unit: TimeUnit) {
        #expect(Timestamp(Int64.max, unit).checkedNanoseconds == nil)
        #expect(Timestamp(Int64.min, unit).checkedNanoseconds == nil)
        #expect(Timestamp(Int64.min, unit).converted(to: .nanoseconds) == nil)
        #expect(Timestamp(Int64.max, unit).converted(to: .nanoseconds) == nil)
        #expect(Timestamp(Int64.max / 1000 + 1, .microseconds).checkedNanoseconds == nil)
        #expect(Timestamp(Int64.max / 1000, .microseconds).checkedNanoseconds == Int64.max / 1000 * 1000)
        // The unchecked view saturates on its own side (for frames of readers, which never deliver these).
        #expect(Timestamp(Int64.max, unit).nanoseconds == Int64.max)
        #expect(Timestamp(Int64.min, unit).nanoseconds == Int64.min)
    }

    @Test func nanosecondsConvertAtTheExtremes() {
        #expect(Timestamp(Int64.max, .nanoseconds).converted(to: .microseconds)?.value == Int64.max / 1000 + 1)
        #expect(Timestamp(Int64.min, .nanoseconds).converted(to: .carrierCycles) != nil)
    }
}
