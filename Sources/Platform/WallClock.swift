#if canImport(Glibc)
import Glibc
#endif

/// The one place the wall clock, the monotonic clock and the local time zone are read.
public enum WallClock {
    /// Now: seconds since 1970 (UTC) and the local zone's offset from UTC, in minutes.
    public static func now() -> (secondsSinceEpoch: Int, utcOffsetMinutes: Int) {
        let seconds = Int(time(nil))
        return (seconds, localOffsetMinutes(at: seconds))
    }

    /// The local zone's offset from UTC at an instant (it changes with daylight saving time).
    public static func localOffsetMinutes(at secondsSinceEpoch: Int) -> Int {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Int(parts.tm_gmtoff) / 60
    }

    /// A named zone's offset (`Asia/Shanghai`) at an instant; nil for a name the system does not know.
    public static func offsetMinutes(zone identifier: String, at secondsSinceEpoch: Int) -> Int? {
        ZoneDatabase.offsetSeconds(zone: identifier, at: secondsSinceEpoch).map { $0 / 60 }
    }

    /// Now on the wall clock: seconds since 1970 (UTC), with the fraction (for comparing with GPS time).
    public static func exactNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds on CLOCK_MONOTONIC: for durations and timeouts, never set back.
    public static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Sleeps `seconds` (resumed after signals), in whole and fractional parts.
    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        // Held to Int32.max seconds: `Int(_:)` traps on infinity, and no sleep is longer.
        let seconds = min(seconds, Double(Int32.max))
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(min(whole, Double(Int32.max))), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
