import Values

/// The zone `log`, `export` and `report` read a camera time without a zone in: the one the user
/// set for this reading (`--tz`, the config's `tz`) replaces the zone assumed when the photo was
/// logged; the system's only fills in for photos logged before zones were assumed.
public struct WallTimeZone: Sendable {
    /// The zone's offset from UTC, in minutes, for a wall time in it.
    public var offsetMinutes: @Sendable (Timestamp) -> Int
    /// Whether the user set it (it then wins over the zone assumed when the photo was logged).
    public var isGiven: Bool

    public init(isGiven: Bool, offsetMinutes: @escaping @Sendable (Timestamp) -> Int) {
        self.isGiven = isGiven
        self.offsetMinutes = offsetMinutes
    }

    /// Gives `entry`'s time without a zone the offset it is read in.
    func read(_ entry: inout CatalogEntry) {
        guard let time = entry.time, time.utcOffsetMinutes == nil, isGiven || entry.assumedOffsetMinutes == nil else { return }
        entry.assumedOffsetMinutes = offsetMinutes(time)
    }
}
