#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Timestamp {
    /// The wall clock, to stamp frames as they happen (emulators serving readers, a replay's
    /// recording).
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec), .nanoseconds)
    }
}
