extension Timestamp {
    /// `+0800`; empty when unknown.
    public var compactOffset: String {
        guard let minutes = utcOffsetMinutes else { return "" }
        let hours = abs(minutes) / 60, rest = abs(minutes) % 60
        return (minutes < 0 ? "-" : "+") + zeroPadded(hours) + zeroPadded(rest)
    }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int {
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        return ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday
    }

    /// 1 for the first of January.
    public var dayOfYear: Int {
        Self.daysFromCivil(year: year, month: month, day: day) - Self.daysFromCivil(year: year, month: 1, day: 1) + 1
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The civil date `days` after 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The first second of a civil day in a zone whose offset (minutes east of UTC) at an instant
    /// `offsetAt` gives: midnight there, though the day before had another offset (a DST change).
    public static func midnight(year: Int, month: Int, day: Int, offsetAt: (_ secondsSinceEpoch: Int) -> Int) -> Int {
        let utc = daysFromCivil(year: year, month: month, day: day) * 86400
        let guess = utc - offsetAt(utc) * 60
        return utc - offsetAt(guess) * 60
    }

    /// Seconds since the epoch, when the offset is known.
    public var secondsSinceEpoch: Int? {
        guard let offset = utcOffsetMinutes else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        return days * 86400 + hour * 3600 + minute * 60 + second - offset * 60
    }

    /// The same instant on the clock of a zone `minutes` east of UTC. A time whose offset is unknown
    /// is taken to be in that zone already.
    public func converted(toOffsetMinutes minutes: Int) -> Timestamp {
        guard let seconds = secondsSinceEpoch else {
            var labelled = self
            labelled.utcOffsetMinutes = minutes
            return labelled
        }
        return Timestamp(secondsSinceEpoch: seconds, utcOffsetMinutes: minutes)
    }

    public init(secondsSinceEpoch seconds: Int, utcOffsetMinutes minutes: Int) {
        let local = seconds + minutes * 60
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secondOfDay = local - days * 86400
        let date = Self.civil(fromDays: days)
        self.init(year: date.year, month: date.month, day: date.day, hour: secondOfDay / 3600,
                  minute: secondOfDay / 60 % 60, second: secondOfDay % 60, utcOffsetMinutes: minutes)
    }
}
