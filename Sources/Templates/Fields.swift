/// Everything a stamp can show, gathered before rendering so a render reads no clock or environment.
public struct Fields: Sendable, Equatable {
    public var time: Timestamp?
    /// Where the time came from: "EXIF", "file time", "command line", "camera clock" …
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
        }
        merged.camera = camera ?? other.camera
        merged.filename = filename ?? other.filename
        merged.sequence = sequence ?? other.sequence
        merged.extra = other.extra.merging(extra) { _, mine in mine }
        return merged
    }
}
