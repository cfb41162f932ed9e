import Values

/// Everything a stamp can show, gathered before rendering so a render reads no clock or environment.
public struct Fields: Sendable, Equatable {
    public var time: Timestamp?
    /// Where the time came from: "EXIF", "file time", "command line", "camera clock", "given" …
    public var timeSource: String?
    public var user: String?
    public var project: String?
    public var location: String?
    public var note: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above sea level.
    public var altitude: Double?
    /// Camera make and model.
    public var camera: String?
    public var filename: String?
    /// The photo's number in a batch or a shooting session, from 1.
    public var sequence: Int?
    /// Values given with `--set key=value`, shown by `{key}`.
    public var extra: [String: String]
    /// The GPS fix's horizontal error estimate, metres.
    public var accuracy: Double? = nil
    /// Which way the camera faced (a compass, else the course), degrees clockwise from north.
    public var heading: Double? = nil
    /// Speed over ground, metres a second.
    public var speed: Double? = nil
    /// The GPS receiver's time of the fix (UTC), besides the clock's `time`.
    public var gpsTime: Timestamp? = nil
    /// GPS time minus this machine's clock when the fix arrived, seconds (positive: the clock is
    /// behind); nil without a GPS time.
    public var clockDifference: Double? = nil
    /// Satellites used in the fix.
    public var satellites: Int? = nil
    /// The named site (`--sites`) the position is on, and its address.
    public var site: String? = nil
    public var address: String? = nil
    /// The nearest populated place: `Helsinki, Uusimaa, FI`.
    public var place: String? = nil
    /// That place's own name and ISO 3166 country code (`Helsinki`, `FI`), for the photo's metadata.
    public var placeName: String? = nil
    public var countryCode: String? = nil
    /// The position on the UTM grid, for `{utm}` and `{mgrs}`; nil near the poles (UPS).
    public var grid: GridPosition? = nil
    /// The photo's verification code (`VerificationCode`), for `{code}`: set by the writer once the
    /// unstamped picture's hash is known, so a preview shows none.
    public var code: String? = nil
    /// The organisation's check page (`verify-url`): a QR code then links to it with the photo's code.
    public var verifyURL: String? = nil
    /// The SHA-256 of the unstamped picture the code was derived from (hex), set with `code`.
    public var pixelsSHA256: String? = nil
    /// The words of the user's language the stamp shows: labels, month and weekday names.
    public var words: StampWords = .english

    public init(time: Timestamp? = nil, timeSource: String? = nil, user: String? = nil, project: String? = nil,
                location: String? = nil, note: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                altitude: Double? = nil, camera: String? = nil, filename: String? = nil, sequence: Int? = nil,
                extra: [String: String] = [:]) {
        self.time = time
        self.timeSource = timeSource
        self.user = user
        self.project = project
        self.location = location
        self.note = note
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.camera = camera
        self.filename = filename
        self.sequence = sequence
        self.extra = extra
    }

    /// Members of `self` that are set win; `other` fills the rest.
    public func filled(from other: Fields) -> Fields {
        var merged = self
        merged.time = time ?? other.time
        merged.timeSource = time == nil ? other.timeSource : timeSource
        merged.user = user ?? other.user
        merged.project = project ?? other.project
        merged.location = location ?? other.location
        merged.note = note ?? other.note
        if latitude == nil || longitude == nil {
            merged.latitude = other.latitude
            merged.longitude = other.longitude
            merged.altitude = altitude ?? other.altitude
            merged.grid = other.grid
            // What a fix says beyond the position belongs to that fix.
            merged.accuracy = accuracy ?? other.accuracy
            merged.heading = heading ?? other.heading
            merged.speed = speed ?? other.speed
            merged.gpsTime = gpsTime ?? other.gpsTime
            merged.clockDifference = clockDifference ?? other.clockDifference
            merged.satellites = satellites ?? other.satellites
        }
        merged.site = site ?? other.site
        merged.address = address ?? other.address
        if place == nil {
            merged.place = other.place
            merged.placeName = other.placeName
            merged.countryCode = other.countryCode
        }
        merged.camera = camera ?? other.camera
        merged.filename = filename ?? other.filename
        merged.sequence = sequence ?? other.sequence
        merged.extra = other.extra.merging(extra) { _, mine in mine }
        return merged
    }
}

extension Fields {
    /// `timeSource` of a time that is only the file's modification time: it says when the file was
    /// last written, not when the photo was taken, and a stamp marks it (`TimeStyle.fileTimeMark`).
    public static let fileTimeSource = "file time"

    /// Whether the time is only the file's modification time.
    public var timeIsFileTime: Bool { time != nil && timeSource == Self.fileTimeSource }

    /// `timeSource` of a time given by hand for a photo taken now (`shoot`, `serve`): the photo was
    /// taken at the clock's time, so a stamp marks it (`TimeStyle.givenTimeMark`).
    public static let givenTimeSource = "given"

    /// Whether the time was given by hand for a photo taken now.
    public var timeIsGiven: Bool { time != nil && timeSource == Self.givenTimeSource }

    /// The mark of a time that is not when the photo was taken, in `style`'s words, or that the
    /// clock it came from disagrees with GPS; nil for a time with nothing to mark.
    public func timeMark(_ style: TimeStyle) -> String? {
        // The built-in marks are said in the stamp's language; a template's own stay as written.
        if timeIsFileTime { return style.fileTimeMark.map { $0 == TimeStyle.defaultFileTimeMark ? words.fileTimeMark : $0 } }
        if timeIsGiven { return style.givenTimeMark == TimeStyle.defaultGivenTimeMark ? words.givenTimeMark : style.givenTimeMark }
        if clockDiffersFromGPS, let difference = clockDifference { return "clock differs from GPS by " + Self.duration(difference) }
        return nil
    }

    /// What a template's QR code holds: the check page with the code (`https://check.example.com/verify?code=K7MN-4XRT-9P`)
    /// when there is one, else `stampcam:K7MN-4XRT-9P;sha256=<the picture's hash>`; nil until the
    /// writer knows them (a preview has no QR code).
    public var verificationQR: String? {
        guard let code, let pixelsSHA256 else { return nil }
        if let verifyURL { return verifyURL + (verifyURL.contains("?") ? "&" : "?") + "code=" + code }
        return "stampcam:" + code + ";sha256=" + pixelsSHA256
    }

    /// `timeSource`s of this machine's clock: a photo taken now, its preview.
    public static let clockSources: Set<String> = ["camera clock", "clock"]

    /// A clock further than this from GPS time is marked on the stamp: more than a fix's delay
    /// and a clock's drift, less than any wrong zone or unset clock.
    public static let clockTolerance = 60.0

    /// Whether the time shown is the clock's and GPS time says it is more than a minute off.
    public var clockDiffersFromGPS: Bool {
        guard time != nil, let timeSource, Self.clockSources.contains(timeSource), let clockDifference,
              clockDifference.isFinite else { return false }
        return abs(clockDifference) > Self.clockTolerance
    }

    /// A time difference as a person says it, rounded to the unit that fits: `3 min`, `3 h`, `12 days`.
    static func duration(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        if magnitude < 3600 { return "\(max(1, Int(clamping: magnitude / 60))) min" }
        if magnitude < 48 * 3600 { return "\(Int(clamping: magnitude / 3600)) h" }
        return "\(Int(clamping: min(magnitude / 86400, 1e9))) days"
    }

    /// The most characters a field value shows; a longer one is cut and ends in "…". Long enough for a
    /// long address or note, short enough that a value cannot push the date off the photo (a line
    /// wraps to at most three lines) nor make text layout slow (its cost grows with length squared).
    public static let maxValueLength = 200

    /// A value cut to `Fields.maxValueLength` characters.
    public struct Truncation: Sendable, Equatable, CustomStringConvertible {
        /// The variable's name: `project`, `note`, a `--set` name …
        public var name: String
        /// Characters in the value as given.
        public var length: Int
        /// Characters shown, the "…" included.
        public var shown: Int

        public init(name: String, length: Int, shown: Int) {
            self.name = name
            self.length = length
            self.shown = shown
        }

        /// `project: 2000 characters, cut to the first 199 and "…"`
        public var description: String {
            "\(name): \(length) characters, cut to the first \(shown - 1) and \"…\""
        }
    }

    /// The values as a stamp shows them, and which were cut: line breaks, tabs and other control
    /// characters become one space (`"line1\nline2"` shows as `line1 line2`), ends are trimmed, and
    /// each value is cut to `maxValueLength` characters.
    public func prepared() -> (fields: Fields, truncations: [Truncation]) {
        var truncations: [Truncation] = []
        func shown(_ name: String, _ value: String?) -> String? {
            guard let value else { return nil }
            let (text, length) = Variables.shown(value)
            if let length { truncations.append(Truncation(name: name, length: length, shown: Self.maxValueLength)) }
            return text
        }
        var result = self
        result.timeSource = shown("time_source", timeSource)
        result.user = shown("user", user)
        result.project = shown("project", project)
        result.location = shown("location", location)
        result.note = shown("note", note)
        result.camera = shown("camera", camera)
        result.filename = shown("filename", filename)
        result.site = shown("site", site)
        result.address = shown("address", address)
        result.place = shown("place", place)
        for name in extra.keys.sorted() { result.extra[name] = shown(name, extra[name]) }
        return (result, truncations)
    }
}
