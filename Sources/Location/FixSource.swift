/// Something that knows the latest GPS fix: gpsd (`GPSDReceiver`), or a scripted fake in tests.
public protocol FixSource: AnyObject, Sendable {
    /// What is known now. Cheap: a live viewfinder asks for every picture.
    func reading() -> FixReading
}

/// The state of a GPS source at one moment.
public struct FixReading: Sendable, Equatable {
    /// The latest report with a position (2D or 3D), however old.
    public var fix: GPSFix?
    /// Whether the source is connected (gpsd answers).
    public var connected: Bool
    /// Whether a GPS receiver has shown up (gpsd listed a device or sent a report): until then a
    /// `--gps auto` camera stays quiet about missing fixes.
    public var receiverSeen: Bool
    /// Why the source is not connected, in words (`connection refused`), when it is not.
    public var problem: String?

    public init(fix: GPSFix? = nil, connected: Bool, receiverSeen: Bool = false, problem: String? = nil) {
        self.fix = fix
        self.connected = connected
        self.receiverSeen = receiverSeen
        self.problem = problem
    }
}
