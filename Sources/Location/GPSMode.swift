import Values

/// Where the position comes from (`--gps`): gpsd when it answers (`auto`), gpsd or an error
/// (`require`), none (`off`), or a position typed in.
public enum GPSMode: Sendable, Equatable {
    case auto
    case require
    case off
    case position(latitude: Double, longitude: Double, altitude: Double?)

    /// `auto`, `require`, `off`, or `LAT,LON[,ALT]` in decimal degrees and metres; nil otherwise.
    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "require": self = .require
        case "off": self = .off
        default:
            guard let numbers = Self.numbers(text), abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
            var altitude: Double?
            if numbers.count == 3 {
                guard abs(numbers[2]) <= Self.maxAltitude else { return nil }
                altitude = numbers[2]
            }
            self = .position(latitude: numbers[0], longitude: numbers[1], altitude: altitude)
        }
    }

    /// The most an altitude may be from sea level, in metres, either way.
    public static let maxAltitude = 100_000.0

    /// The two or three decimal numbers of `LAT,LON[,ALT]`, whatever their range; nil for any
    /// other text. Tells a position out of range from text that is no position at all.
    public static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimalNumber($0.filter { $0 != " " }) }
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let numbers = parts.compactMap { $0 }.filter(\.isFinite)
        return numbers.count == parts.count ? numbers : nil
    }

    /// Whether a live fix from gpsd is wanted.
    public var isLive: Bool { self == .auto || self == .require }
}
