#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on a clock that never jumps (unlike the wall clock, which NTP and users set): for
/// timeouts, rate limits and idle limits.
public enum MonotonicClock {
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
