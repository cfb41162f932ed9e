import Values


/// One row of the catalog: a photo stampcam wrote (or found, for `log --rebuild`), with what it
/// shows and where it came from. Paths are absolute and carried byte for byte (see `PathEncoding`).
public struct CatalogEntry: Sendable, Equatable {
    /// What wrote the photo.
    public enum Command: String, Sendable, CaseIterable {
        case shoot, apply, restamp
        /// Not logged when it was written: read back from the photo's own record (`log --rebuild`).
        case rebuild
    }

    public var path: String
    /// Bytes, and the SHA-256 of those bytes as 64 lowercase hex digits.
    public var size: Int
    public var sha256: String
    /// The unstamped original kept beside the photo, and its SHA-256.
    public var originalPath: String?
    public var originalSHA256: String?
    /// The time the stamp shows, with its zone, and where it came from ("EXIF", "camera clock" …).
    public var time: Timestamp?
    public var timeSource: String?
    /// For a `time` without a zone (a camera that wrote none): the offset assumed for it, in minutes
    /// east of UTC — the zone the user set, else the system's — so the photo can be ordered and
    /// found by time; a reader given another zone replaces it.
    public var assumedOffsetMinutes: Int?
    public var user: String?
    public var project: String?
    public var location: String?
    /// The named site (`--sites`) the position is on, and its address.
    public var site: String?
    public var siteAddress: String?
    public var note: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// Which way the camera faced, in degrees clockwise from north (0 up to 360), when the photo says.
    public var heading: Double?
    /// The style (template id) and its version.
    public var style: String?
    public var styleVersion: Int?
    /// The camera that took it (shoot), as the photo's fields name it.
    public var camera: String?
    /// The photo it was stamped from (apply: the input; restamp: the kept original).
    public var source: String?
    public var command: Command
    /// The machine that wrote it.
    public var host: String?
    /// When the stamp was made.
    public var stampedAt: Timestamp?
    /// The values given with `--set` (city, crew …).
    public var extra: [String: String]
    /// When the row was written, in seconds since 1970 (set by the catalog).
    public var loggedAt: Int?
    /// The verification code the photo's stamp shows (`VerificationCode`); a link of the chain.
    public var code: String?

    public init(path: String, size: Int, sha256: String, command: Command, originalPath: String? = nil,
                originalSHA256: String? = nil, time: Timestamp? = nil, timeSource: String? = nil, user: String? = nil,
                project: String? = nil, location: String? = nil, note: String? = nil, latitude: Double? = nil,
                longitude: Double? = nil, altitude: Double? = nil, style: String? = nil, styleVersion: Int? = nil,
                camera: String? = nil, source: String? = nil, host: String? = nil, stampedAt: Timestamp? = nil,
                extra: [String: String] = [:], loggedAt: Int? = nil, assumedOffsetMinutes: Int? = nil,
                site: String? = nil, siteAddress: String? = nil, heading: Double? = nil) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.command = command
        self.originalPath = originalPath
        self.originalSHA256 = originalSHA256
        self.time = time
        self.timeSource = timeSource
        self.user = user
        self.project = project
        self.location = location
        self.note = note
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.style = style
        self.styleVersion = styleVersion
        self.camera = camera
        self.source = source
        self.host = host
        self.stampedAt = stampedAt
        self.extra = extra
        self.loggedAt = loggedAt
        self.assumedOffsetMinutes = assumedOffsetMinutes
        self.site = site
        self.siteAddress = siteAddress
        self.heading = heading
    }

    /// When the photo was taken, in seconds since 1970: by the time's own zone, else the assumed one.
    public var instant: Int? {
        guard var time else { return nil }
        if time.utcOffsetMinutes == nil { time.utcOffsetMinutes = assumedOffsetMinutes }
        return time.secondsSinceEpoch
    }

    /// Whether the time's zone is assumed, not the photo's own.
    public var zoneIsAssumed: Bool { time != nil && time?.utcOffsetMinutes == nil && assumedOffsetMinutes != nil }

    /// Both coordinates, when the photo has a position.
    public var position: (latitude: Double, longitude: Double)? {
        guard let latitude, let longitude else { return nil }
        return (latitude, longitude)
    }

    /// The place as a person reads it: the location's name, else the site's, else the coordinates.
    public var place: String? {
        if let location, !location.isEmpty { return location }
        if let site, !site.isEmpty { return site }
        guard let position else { return nil }
        return Self.coordinates(position.latitude, position.longitude)
    }

    /// `48.858400, 2.294500` (six decimals: about 10 cm).
    public static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        fixedPoint(latitude, places: 6) + ", " + fixedPoint(longitude, places: 6)
    }

    /// Whether `text` is a SHA-256 as the catalog keeps it: 64 lowercase hex digits.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
