import Platform

/// The words a stamp shows in one language: the labels a template names by key (`{label:user}`),
/// month and weekday names, the long date's form (`{date:long}`) and which way its lines run.
/// English unless the front end gives the user's language (`translated`), so a style is written
/// once for every language and a render stays a pure function of its fields.
public struct StampWords: Sendable, Equatable {
    /// Label by key: `user` → `User`.
    public var labels: [String: String]
    /// January … December, and their short forms.
    public var months: [String]
    public var shortMonths: [String]
    /// Sunday … Saturday, and their short forms.
    public var weekdays: [String]
    public var shortWeekdays: [String]
    /// How `{date:long}` writes a date, as a `TimeFormat`: `%-d %B %Y`.
    public var longDate: String
    /// What follows a time that is only the file's time, or was set by hand (`TimeStyle`'s defaults).
    public var fileTimeMark: String
    public var givenTimeMark: String
    /// Whether the language is written right to left (Arabic): a stamp's lines start on the right.
    public var rightToLeft: Bool
    /// The eight compass points from north clockwise, as `{heading}` names them (`56° NE`).
    public var compassPoints: [String]

    /// The label keys templates may use and their English words.
    /// The label keys templates may use and their English words.
    public static let labelKeys: [(key: String, word: String)] = [
        ("user", marked("label", "User")), ("by", marked("label", "By")), ("inspector", marked("label", "Inspector")),
        ("project", marked("label", "Project")), ("site", marked("label", "Site")), ("location", marked("label", "Location")),
        ("place", marked("label", "Place")), ("address", marked("label", "Address")), ("note", marked("label", "Note")),
        ("time", marked("label", "Time")), ("date", marked("label", "Date")), ("coordinates", marked("label", "Coordinates")),
        ("altitude", marked("label", "Altitude")), ("heading", marked("label", "Heading")),
        ("accuracy", marked("label", "Accuracy")), ("speed", marked("label", "Speed")), ("camera", marked("label", "Camera")),
        ("code", marked("label", "Code")), ("gps_time", marked("label", "GPS time")),
    ]

    public static let english = StampWords(
        labels: Dictionary(uniqueKeysWithValues: labelKeys.map { ($0.key, $0.word) }),
        months: [marked("month", "January"), marked("month", "February"), marked("month", "March"), marked("month", "April"),
                 marked("month", "May"), marked("month", "June"), marked("month", "July"), marked("month", "August"),
                 marked("month", "September"), marked("month", "October"), marked("month", "November"),
                 marked("month", "December")],
        shortMonths: [marked("month abbreviation", "Jan"), marked("month abbreviation", "Feb"), marked("month abbreviation", "Mar"),
                      marked("month abbreviation", "Apr"), marked("month abbreviation", "May"), marked("month abbreviation", "Jun"),
                      marked("month abbreviation", "Jul"), marked("month abbreviation", "Aug"), marked("month abbreviation", "Sep"),
                      marked("month abbreviation", "Oct"), marked("month abbreviation", "Nov"), marked("month abbreviation", "Dec")],
        weekdays: [marked("weekday", "Sunday"), marked("weekday", "Monday"), marked("weekday", "Tuesday"), marked("weekday", "Wednesday"),
                   marked("weekday", "Thursday"), marked("weekday", "Friday"), marked("weekday", "Saturday")],
        shortWeekdays: [marked("weekday abbreviation", "Sun"), marked("weekday abbreviation", "Mon"), marked("weekday abbreviation", "Tue"),
                        marked("weekday abbreviation", "Wed"), marked("weekday abbreviation", "Thu"), marked("weekday abbreviation", "Fri"),
                        marked("weekday abbreviation", "Sat")],
        // TRANSLATORS: how {date:long} writes a date: %-d day, %B month name, %Y year, %A weekday (see TimeFormat).
        longDate: marked("date format", "%-d %B %Y"),
        fileTimeMark: marked("time mark", "file time"), givenTimeMark: marked("time mark", "set by hand"),
        // TRANSLATORS: "rtl" for a language written right to left, else "ltr".
        rightToLeft: marked("text direction", "ltr") == "rtl",
        // TRANSLATORS: the compass points {heading} shows after the degrees (56° NE): north, north-east … north-west.
        compassPoints: [marked("compass point", "N"), marked("compass point", "NE"), marked("compass point", "E"),
                        marked("compass point", "SE"), marked("compass point", "S"), marked("compass point", "SW"),
                        marked("compass point", "W"), marked("compass point", "NW")])

    public init(labels: [String: String], months: [String], shortMonths: [String], weekdays: [String],
                shortWeekdays: [String], longDate: String, fileTimeMark: String, givenTimeMark: String, rightToLeft: Bool,
                compassPoints: [String]) {
        self.labels = labels
        self.months = months
        self.shortMonths = shortMonths
        self.weekdays = weekdays
        self.shortWeekdays = shortWeekdays
        self.longDate = longDate
        self.fileTimeMark = fileTimeMark
        self.givenTimeMark = givenTimeMark
        self.rightToLeft = rightToLeft
        self.compassPoints = compassPoints
    }

    /// The English words each passed through `translate(word, context)`, the contexts being
    /// "label", "month", "month abbreviation", "weekday", "weekday abbreviation", "date format",
    /// "time mark", "compass point" and "text direction" (whose English word is `ltr`; `rtl` turns the lines). A translation
    /// that cannot be used (a date form with a bad directive) stays English.
    public static func translated(_ translate: (_ word: String, _ context: String) -> String) -> StampWords {
        var words = english
        for (key, word) in labelKeys { words.labels[key] = translate(word, "label") }
        words.months = english.months.map { translate($0, "month") }
        words.shortMonths = english.shortMonths.map { translate($0, "month abbreviation") }
        words.weekdays = english.weekdays.map { translate($0, "weekday") }
        words.shortWeekdays = english.shortWeekdays.map { translate($0, "weekday abbreviation") }
        let longDate = translate(english.longDate, "date format")
        if TimeFormat.problem(in: longDate) == nil { words.longDate = longDate }
        words.fileTimeMark = translate(english.fileTimeMark, "time mark")
        words.givenTimeMark = translate(english.givenTimeMark, "time mark")
        words.rightToLeft = translate("ltr", "text direction") == "rtl"
        words.compassPoints = english.compassPoints.map { translate($0, "compass point") }
        return words
    }

    /// The words as `language` says them.
    public static func words(in language: Language) -> StampWords {
        translated { word, context in language.text(word, context: context) }
    }

    /// The label for `key`; the key itself for one that is not known (templates are checked).
    func label(_ key: String) -> String {
        labels[key] ?? Self.english.labels[key] ?? key
    }
}
