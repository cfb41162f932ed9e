/// strftime-like formatting of a `Timestamp`, in pure Swift with English names.
public enum TimeFormat {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// Directives we understand; anything else after % is an error at template load time.
    static let directives: Set<Character> = ["Y", "y", "m", "d", "e", "H", "I", "M", "S", "p", "b", "B", "a", "A",
                                             "j", "Z", "z", "F", "T", "R", "%"]

    static func problem(in format: String) -> String? {
        var previousWasPercent = false
        for character in format {
            if previousWasPercent {
                guard directives.contains(character) else { return "'%\(character)' is not a time format directive" }
                previousWasPercent = false
            } else if character == "%" {
                previousWasPercent = true
            }
        }
        return previousWasPercent ? "a time format ends with a lone '%'" : nil
    }

    public static func format(_ time: Timestamp, _ format: String) -> String {
        var output = ""
        var percent = false
        for character in format {
            guard percent else {
                if character == "%" { percent = true } else { output.append(character) }
                continue
            }
            percent = false
            switch character {
            case "Y": output += String(time.year)
            case "y": output += zeroPadded(time.year % 100)
            case "m": output += zeroPadded(time.month)
            case "d": output += zeroPadded(time.day)
            case "e": output += (time.day < 10 ? " " : "") + String(time.day)
            case "H": output += zeroPadded(time.hour)
            case "I": output += zeroPadded(time.hour % 12 == 0 ? 12 : time.hour % 12)
            case "M": output += zeroPadded(time.minute)
            case "S": output += zeroPadded(time.second)
            case "p": output += time.hour < 12 ? "AM" : "PM"
            case "b": output += String(months[time.month - 1].prefix(3))
            case "B": output += months[time.month - 1]
            case "a": output += String(weekdays[weekday(time)].prefix(3))
            case "A": output += weekdays[weekday(time)]
            case "j": output += zeroPadded(dayOfYear(time), 3)
            case "Z": output += time.offsetText
            case "z": output += time.offsetText.isEmpty ? "" : time.compactOffset
            case "F": output += time.dateText
            case "T": output += time.timeText
            case "R": output += zeroPadded(time.hour) + ":" + zeroPadded(time.minute)
            case "%": output += "%"
            default: output += "%" + String(character)
            }
        }
        return output
    }


    /// 0 = Sunday.
    static func weekday(_ time: Timestamp) -> Int {
        let days = Timestamp.daysFromCivil(year: time.year, month: time.month, day: time.day)
        return ((days % 7) + 7 + 4) % 7  // 1970-01-01 was a Thursday
    }

    static func dayOfYear(_ time: Timestamp) -> Int {
        Timestamp.daysFromCivil(year: time.year, month: time.month, day: time.day)
            - Timestamp.daysFromCivil(year: time.year, month: 1, day: 1) + 1
    }
}

extension Timestamp {
    /// `+0800`
    var compactOffset: String {
        guard let minutes = utcOffsetMinutes else { return "" }
        let hours = abs(minutes) / 60, rest = abs(minutes) % 60
        return (minutes < 0 ? "-" : "+") + zeroPadded(hours) + zeroPadded(rest)
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
