/// How a template writes times when a variable gives no format of its own: `{date}`, `{time}` and
/// `{datetime}` (the date, a space, the time). One default for every built-in style —
/// `2026-11-29 14:03`, a 24-hour clock — which a template can change with its `timeFormat` key.
public struct TimeStyle: Sendable, Equatable {
    /// strftime-like formats (see `TimeFormat`).
    public var date: String
    public var time: String
    /// Shown after the time when it is only the file's modification time (see `Fields.timeIsFileTime`),
    /// so a stamp never claims a capture time it does not know; nil shows nothing.
    public var fileTimeMark: String?
    /// Shown after a time given by hand for a photo taken now (see `Fields.timeIsGiven`): always
    /// shown, since the stamp would otherwise claim the photo was taken then.
    public var givenTimeMark: String

    public init(date: String = "%Y-%m-%d", time: String = "%H:%M", fileTimeMark: String? = TimeStyle.defaultFileTimeMark,
                givenTimeMark: String = TimeStyle.defaultGivenTimeMark) {
        self.date = date
        self.time = time
        self.fileTimeMark = fileTimeMark
        self.givenTimeMark = givenTimeMark
    }

    public static let standard = TimeStyle()
    public static let defaultFileTimeMark = "file time"
    public static let defaultGivenTimeMark = "set by hand"

    /// The format a time variable uses when it names none; nil for a name that is not a time.
    func defaultFormat(for name: String) -> String? {
        switch name {
        case "date": return date
        case "time": return time
        case "datetime": return date + " " + time
        default: return nil
        }
    }
}
