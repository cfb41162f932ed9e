/// One position report from a GPS receiver, as gpsd passed it on: where, how well, how fast and
/// which way, and when it arrived here.
public struct GPSFix: Sendable, Equatable {
    /// Decimal degrees, south and west negative.
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level (nil for a 2D fix).
    public var altitude: Double?
    /// The receiver's estimate of the horizontal position error, in metres.
    public var horizontalError: Double?
    /// Course over ground, degrees clockwise from true north.
    public var track: Double?
    /// Where a compass points, degrees clockwise from north (gpsd's ATT reports), when one is attached.
    public var compassHeading: Double?
    /// Speed over ground, metres a second.
    public var speed: Double?
    /// The receiver's time of the fix: seconds since 1970, UTC.
    public var gpsTime: Double?
    /// Satellites used in the solution.
    public var satellites: Int?
    /// Seconds since 1970 on this machine's clock when the report arrived.
    public var receivedAt: Double
    /// `WallClock.monotonic()` when the report arrived: for its age, whatever the clock is set to.
    public var receivedMonotonic: Double

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalError: Double? = nil,
                track: Double? = nil, compassHeading: Double? = nil, speed: Double? = nil, gpsTime: Double? = nil,
                satellites: Int? = nil, receivedAt: Double, receivedMonotonic: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalError = horizontalError
        self.track = track
        self.compassHeading = compassHeading
        self.speed = speed
        self.gpsTime = gpsTime
        self.satellites = satellites
        self.receivedAt = receivedAt
        self.receivedMonotonic = receivedMonotonic
    }

    /// Which way the camera faces as far as we know: a compass when there is one, else the course.
    public var heading: Double? { compassHeading ?? track }

    /// GPS time minus this machine's clock when the fix arrived, in seconds (positive: the clock is
    /// behind). Nil without a GPS time.
    public var clockDifference: Double? { gpsTime.map { $0 - receivedAt } }
}
