/// Everything a stamp can show, gathered before rendering so a render reads no clock or environment.
public struct Fields: Sendable, Equatable {
    public var time: Timestamp?
    public var user: String?
    public var project: String?
    public var location: String?
    public var note: String?
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var camera: String?
    public var filename: String?

    public init(time: Timestamp? = nil, user: String? = nil, project: String? = nil, location: String? = nil,
                note: String? = nil, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
                camera: String? = nil, filename: String? = nil) {
        self.time = time
        self.user = user
        self.project = project
        self.location = location
        self.note = note
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.camera = camera
        self.filename = filename
    }
}
