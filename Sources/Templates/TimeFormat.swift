import Values

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
            case "a": output += String(weekdays[time.weekday].prefix(3))
            case "A": output += weekdays[time.weekday]
            case "j": output += zeroPadded(time.dayOfYear, 3)
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
}
