#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Which photos of the catalog a command is about: all the given conditions hold.
public struct CatalogFilter: Sendable, Equatable {
    /// A project or user whose name holds this text, ignoring case ("bridge" finds "Bridge 7",
    /// "li" finds "Li Wei"): a person searching remembers part of a name, not its spelling.
    public var project: String?
    public var user: String?
    /// Exactly this style (an id), ignoring case.
    public var style: String?
    /// The photo's time is at or after `since` and before `until` (seconds since 1970); a time
    /// without a zone is taken in its assumed one. Photos without a time never match a time condition.
    public var since: Int?
    public var until: Int?
    /// Taken within `metres` of a point (great-circle distance). Photos without coordinates never match.
    public var near: Circle?
    /// Only these photos (absolute paths).
    public var paths: Set<String>?
    /// Only the photo whose stamp shows this verification code (as `VerificationCode` writes it).
    public var code: String?

    public init(project: String? = nil, user: String? = nil, style: String? = nil, since: Int? = nil, until: Int? = nil,
                near: Circle? = nil, paths: Set<String>? = nil) {
        self.project = project
        self.user = user
        self.style = style
        self.since = since
        self.until = until
        self.near = near
        self.paths = paths
    }

    /// A point and a radius.
    public struct Circle: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var metres: Double

        public init(latitude: Double, longitude: Double, metres: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.metres = metres
        }

        /// Whether a position is inside (on the edge counts).
        public func contains(latitude: Double, longitude: Double) -> Bool {
            GeoDistance.metres(from: (self.latitude, self.longitude), to: (latitude, longitude)) <= metres
        }
    }

    /// Whether `entry` meets every condition. The catalog narrows by time and position in SQL
    /// first; this is the exact test, the same for every reader.
    public func matches(_ entry: CatalogEntry) -> Bool {
        if let project, !Self.holds(entry.project, project) { return false }
        if let user, !Self.holds(entry.user, user) { return false }
        if let style, !Self.same(style, entry.style) { return false }
        if since != nil || until != nil {
            guard let seconds = entry.instant else { return false }
            if let since, seconds < since { return false }
            if let until, seconds >= until { return false }
        }
        if let near {
            guard let position = entry.position, near.contains(latitude: position.latitude, longitude: position.longitude) else {
                return false
            }
        }
        if let paths, !paths.contains(entry.path) { return false }
        if let code, entry.code != code { return false }
        return true
    }

    private static func holds(_ value: String?, _ part: String) -> Bool {
        guard let value else { return false }
        return value.lowercased().contains(part.lowercased())
    }

    private static func same(_ wanted: String, _ value: String?) -> Bool {
        guard let value else { return false }
        return wanted.lowercased() == value.lowercased()
    }
}

/// Distances on the Earth's surface.
public enum GeoDistance {
    /// The mean Earth radius (IUGG), in metres.
    public static let earthRadius = 6_371_008.8

    /// The great-circle distance in metres between two points in decimal degrees (haversine formula).
    public static func metres(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.latitude - a.latitude) * radians
        let dLongitude = (b.longitude - a.longitude) * radians
        let h = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}
