import Platform
#if canImport(Glibc)
import Glibc
#endif
import Library
import Templates

/// The one place the CLI reads the clock and the local zone.
enum Clock {
    static func now() -> Timestamp {
        local(seconds: time(nil))
    }

    static func local(seconds: time_t) -> Timestamp {
        var seconds = seconds
        var parts = tm()
        localtime_r(&seconds, &parts)
        return Timestamp(secondsSinceEpoch: Int(seconds), utcOffsetMinutes: Int(parts.tm_gmtoff) / 60)
    }

    /// The local zone's offset at a wall-clock time (taken as UTC to find the instant roughly).
    static func localOffsetMinutes(at time: Timestamp) -> Int {
        let seconds = time.converted(toOffsetMinutes: 0).secondsSinceEpoch ?? 0
        return local(seconds: time_t(seconds)).utcOffsetMinutes ?? 0
    }

    /// A file's modification time in the local zone.
    static func modificationTime(of path: String) -> Timestamp? {
        FileStatus(path: path).map { local(seconds: time_t($0.modified)) }
    }
}
