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
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
            guard parts.count == 2 || parts.count == 3, let latitude = parts[0], let longitude = parts[1],
                  latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
            var altitude: Double?
            if parts.count == 3 {
                guard let value = parts[2], value.isFinite, abs(value) <= 100_000 else { return nil }
                altitude = value
            }
            self = .position(latitude: latitude, longitude: longitude, altitude: altitude)
        }
    }

    /// Whether a live fix from gpsd is wanted.
    public var isLive: Bool { self == .auto || self == .require }
}
