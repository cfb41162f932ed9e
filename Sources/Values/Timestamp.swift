/// A wall-clock time as the photo or the user gave it, with its UTC offset when known.
/// Pure value: no clock, no time-zone database.
public struct Timestamp: Sendable, Equatable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// Minutes east of UTC; nil when the source did not say.
    public var utcOffsetMinutes: Int?

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetMinutes: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses ISO 8601 as given on the command line: `2026-11-29T14:03:12+08:00`, `…Z`, `…+0800`,
    /// a space instead of `T`, optional fractional seconds, optional zone.
    public init?(iso8601 text: String) {
        let chars = Array(text.utf8)
        guard chars.count >= 16, chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " ") ||
              chars[10] == UInt8(ascii: "t") else { return nil }
        guard let date = Self.parseDate(chars[0..<10], separator: "-"),
              let time = Self.parseClock(chars[11...]) else { return nil }
        self.init(year: date.0, month: date.1, day: date.2, hour: time.hour, minute: time.minute,
                  second: time.second, utcOffsetMinutes: time.offset)
    }

    /// Parses EXIF's `YYYY:MM:DD HH:MM:SS` with an optional OffsetTime* value such as `+03:00`.
    public init?(exif text: String, offset: String? = nil) {
        let chars = Array(text.utf8)
        guard chars.count >= 19, chars[10] == UInt8(ascii: " "),
              let date = Self.parseDate(chars[0..<10], separator: ":"),
              let time = Self.parseClock(chars[11..<19]) else { return nil }
        var minutes: Int?
        if let offset, !offset.isEmpty {
            minutes = Self.parseOffset(Array(offset.utf8)[...])
        }
        self.init(year: date.0, month: date.1, day: date.2, hour: time.hour, minute: time.minute,
                  second: time.second, utcOffsetMinutes: minutes)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    private static func parseDate(_ c: ArraySlice<UInt8>, separator: Unicode.Scalar) -> (Int, Int, Int)? {
        let s = c.startIndex
        guard c.count == 10, c[s + 4] == UInt8(ascii: separator), c[s + 7] == UInt8(ascii: separator),
              let year = number(c[s..<s + 4]), let month = number(c[s + 5..<s + 7]),
              let day = number(c[s + 8..<s + 10]),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        return (year, month, day)
    }

    /// `HH:MM[:SS[.fff]][zone]`
    private static func parseClock(_ c: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int, offset: Int?)? {
        let s = c.startIndex
        guard c.count >= 5, c[s + 2] == UInt8(ascii: ":"), let hour = number(c[s..<s + 2]),
              let minute = number(c[s + 3..<s + 5]), hour < 24, minute < 60 else { return nil }
        var rest = c[(s + 5)...]
        var second = 0
        if rest.first == UInt8(ascii: ":") {
            guard rest.count >= 3, let value = number(rest[rest.startIndex + 1..<rest.startIndex + 3]),
                  value < 61 else { return nil }
            second = min(value, 59)
            rest = rest.dropFirst(3)
            if rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ",") {
                rest = rest.dropFirst().drop { $0 >= 48 && $0 <= 57 }
            }
        }
        if rest.isEmpty { return (hour, minute, second, nil) }
        guard let offset = parseOffset(rest) else { return nil }
        return (hour, minute, second, offset)
    }

    /// `Z`, `+HH:MM`, `+HHMM` or `+HH`.
    private static func parseOffset(_ c: ArraySlice<UInt8>) -> Int? {
        if c.count == 1, c.first == UInt8(ascii: "Z") || c.first == UInt8(ascii: "z") { return 0 }
        guard let sign = c.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = c.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 2 || digits.count == 4, c.count - 1 - digits.count <= 1,
              let hours = number(digits.prefix(2)[...]), hours <= 18 else { return nil }
        let minutes = digits.count == 4 ? (number(digits.suffix(2)[...]) ?? 60) : 0
        guard minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        return sign == UInt8(ascii: "-") ? -total : total
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `2026-11-29`
    public var dateText: String {
        "\(year)-\(zeroPadded(month))-\(zeroPadded(day))"
    }

    /// `14:03:12`
    public var timeText: String {
        "\(zeroPadded(hour)):\(zeroPadded(minute)):\(zeroPadded(second))"
    }

    /// `2026-11-29T14:03:12+08:00` (no zone suffix when the offset is unknown).
    public var iso8601: String {
        let zone = utcOffsetMinutes == 0 ? "Z" : (offsetText == "" ? "" : offsetText)
        return dateText + "T" + timeText + zone
    }

    /// `+08:00`, `-03:30`, `UTC` for zero; empty when unknown.
    public var offsetText: String {
        guard let minutes = utcOffsetMinutes else { return "" }
        if minutes == 0 { return "UTC" }
        let sign = minutes < 0 ? "-" : "+"
        return sign + zeroPadded(abs(minutes) / 60) + ":" + zeroPadded(abs(minutes) % 60)
    }
}
