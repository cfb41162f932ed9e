import Values

/// strftime-like formatting of a `Timestamp`, in pure Swift, with the names of a `StampWords`.
/// `%-d`, `%-m`, `%-H` and `%-I` leave out the leading zero, as glibc's.
public enum TimeFormat {
    /// Directives we understand; anything else after % is an error at template load time.
    static let directives: Set<Character> = ["Y", "y", "m", "d", "e", "H", "I", "M", "S", "p", "b", "B", "a", "A",
                                             "j", "Z", "z", "F", "T", "R", "%"]

    static func problem(in format: String) -> String? {
        var percent = false, flagged = false
        for character in format {
            if percent {
                if character == "-" && !flagged {
                    flagged = true
                    continue
                }
                guard directives.contains(character) else { return "'%\(character)' is not a time format directive" }
                percent = false
            } else if character == "%" {
                percent = true
                flagged = false
            }
        }
        return percent ? "a time format ends with a lone '%'" : nil
    }

    public static func format(_ time: Timestamp, _ format: String, words: StampWords = .english) -> String {
        var output = ""
        var percent = false, unpadded = false
        func number(_ value: Int) -> String { unpadded ? String(value) : zeroPadded(value) }
        for character in format {
            guard percent else {
                if character == "%" { percent = true; unpadded = false } else { output.append(character) }
                continue
            }
            if character == "-" && !unpadded {
                unpadded = true
                continue
            }
            percent = false
            switch character {
            case "Y": output += String(time.year)
            case "y": output += zeroPadded(time.year % 100)
            case "m": output += number(time.month)
            case "d": output += number(time.day)
            case "e": output += (time.day < 10 && !unpadded ? " " : "") + String(time.day)
            case "H": output += number(time.hour)
            case "I": output += number(time.hour % 12 == 0 ? 12 : time.hour % 12)
            case "M": output += zeroPadded(time.minute)
            case "S": output += zeroPadded(time.second)
            case "p": output += time.hour < 12 ? "AM" : "PM"
            case "b": output += name(words.shortMonths, StampWords.english.shortMonths, time.month - 1)
            case "B": output += name(words.months, StampWords.english.months, time.month - 1)
            case "a": output += name(words.shortWeekdays, StampWords.english.shortWeekdays, time.weekday)
            case "A": output += name(words.weekdays, StampWords.english.weekdays, time.weekday)
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

    /// `names[index]`, or the English name when a list given is short.
    private static func name(_ names: [String], _ english: [String], _ index: Int) -> String {
        names.indices.contains(index) ? names[index] : english[index]
    }
}
