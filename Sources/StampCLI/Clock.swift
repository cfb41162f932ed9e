#if canImport(Glibc)
import Glibc
#endif
import Templates

/// The one place the CLI reads the clock: the current local time with its UTC offset.
enum Clock {
    static func now() -> Timestamp {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Timestamp(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                         hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec),
                         utcOffsetMinutes: Int(parts.tm_gmtoff) / 60)
    }
}
