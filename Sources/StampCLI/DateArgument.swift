import Values


/// A `--since`/`--until` value: a day (`2026-11-29`, `today`, `yesterday`, a weekday name such as
/// `monday` — the last one, today included) or a moment (`2026-11-29T14:00`, with or without a zone).
/// Days and zone-less moments are in the local zone.
enum DateArgument: Equatable {
    case day(year: Int, month: Int, day: Int)
    case moment(Timestamp)

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `now`: seconds since 1970; `localOffset`: the local zone's offset in minutes at an instant.
    init?(_ text: String, now: Int, localOffset: (Int) -> Int) {
        let word = text.lowercased()
        // Local noon today: days counted back from it stay on the right date across a DST change.
        let offset = localOffset(now)
        let today = Timestamp(secondsSinceEpoch: now, utcOffsetMinutes: offset)
        let noon = now - (today.hour - 12) * 3600 - today.minute * 60 - today.second
        func daysAgo(_ days: Int) -> DateArgument {
            let date = Timestamp(secondsSinceEpoch: noon - days * 86400, utcOffsetMinutes: offset)
            return .day(year: date.year, month: date.month, day: date.day)
        }
        if word == "today" {
            self = daysAgo(0)
        } else if word == "yesterday" {
            self = daysAgo(1)
        } else if let weekday = Self.weekdays.firstIndex(where: { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }) {
            // 1970-01-01 was a Thursday (4).
            let localDays = (now + offset * 60) >= 0 ? (now + offset * 60) / 86400 : ((now + offset * 60) - 86399) / 86400
            let todayWeekday = ((localDays + 4) % 7 + 7) % 7
            self = daysAgo((todayWeekday - weekday + 7) % 7)
        } else if text.utf8.count == 10, let date = Timestamp(iso8601: text + "T00:00:00") {
            self = .day(year: date.year, month: date.month, day: date.day)
        } else if let moment = Timestamp(iso8601: text) {
            self = .moment(moment)
        } else {
            return nil
        }
    }

    /// The first second this argument covers (for `--since`).
    func start(localOffset: (Int) -> Int) -> Int {
        switch self {
        case .day(let year, let month, let day):
            return Self.localMidnight(year: year, month: month, day: day, localOffset: localOffset)
        case .moment(let time):
            return Self.seconds(time, localOffset: localOffset)
        }
    }

    /// The first second after what this argument covers (for `--until`: a day up to its end, a
    /// moment up to and including its second).
    func end(localOffset: (Int) -> Int) -> Int {
        switch self {
        case .day(let year, let month, let day):
            let next = Timestamp(secondsSinceEpoch: Self.utcMidnight(year: year, month: month, day: day) + 86400 + 43200, utcOffsetMinutes: 0)
            return Self.localMidnight(year: next.year, month: next.month, day: next.day, localOffset: localOffset)
        case .moment(let time):
            return Self.seconds(time, localOffset: localOffset) + 1
        }
    }

    private static func utcMidnight(year: Int, month: Int, day: Int) -> Int {
        Timestamp(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, utcOffsetMinutes: 0).secondsSinceEpoch ?? 0
    }

    /// Midnight of a day in the local zone, whose offset may differ from the day before (DST).
    private static func localMidnight(year: Int, month: Int, day: Int, localOffset: (Int) -> Int) -> Int {
        Timestamp.midnight(year: year, month: month, day: day, offsetAt: localOffset)
    }

    private static func seconds(_ time: Timestamp, localOffset: (Int) -> Int) -> Int {
        if let seconds = time.secondsSinceEpoch { return seconds }
        var labelled = time
        labelled.utcOffsetMinutes = 0
        let utc = labelled.secondsSinceEpoch ?? 0
        return utc - localOffset(utc - localOffset(utc) * 60) * 60
    }
}
