import Location
import Platform
import Templates
import Values

/// Where a photo was taken, beyond the values typed: the position source (`--gps`), the live fix
/// and the rules it must meet, the named sites (`--sites`) and the place names. Part of the
/// `FieldPolicy`, so the live preview, the review and the saved photo say the same.
public struct Whereabouts: Sendable, Equatable {
    public var mode: GPSMode
    /// gpsd (or a fake in tests) for `auto` and `require`; nil when it did not answer.
    public var live: (any FixSource)?
    public var rules: FixRules
    public var sites: SiteMap?
    public var places: PlaceFinder?
    /// Whether positions get their grid reference (`{utm}`, `{mgrs}`): working one out opens PROJ,
    /// which a run that never shows one should not load.
    public var gridReferences = true

    /// What the stamp shows where the position would be when a live fix is wanted and not usable.
    public static let noFixText = "no GPS fix"

    public init(mode: GPSMode = .auto, live: (any FixSource)? = nil, rules: FixRules = FixRules(), sites: SiteMap? = nil,
                places: PlaceFinder? = nil) {
        self.mode = mode
        self.live = live
        self.rules = rules
        self.sites = sites
        self.places = places
    }

    public static func == (a: Whereabouts, b: Whereabouts) -> Bool {
        a.mode == b.mode && a.rules == b.rules && a.sites == b.sites && a.places === b.places && a.live === b.live
            && a.gridReferences == b.gridReferences
    }

    /// The live fix judged now, and the reading it came from; nil when there is no live source, or
    /// (`--gps auto`) gpsd answers but has never seen a receiver: that camera says nothing about GPS.
    public func liveStatus(now: Double = WallClock.monotonic()) -> (status: FixStatus, reading: FixReading)? {
        guard mode.isLive, let live else { return nil }
        let reading = live.reading()
        if mode == .auto && !reading.receiverSeen && reading.fix == nil { return nil }
        return (rules.judge(reading, now: now), reading)
    }

    /// `fields` with the live fix's position and what goes with it, unless a position was given; the
    /// fallback text as the location when the fix is not usable.
    func withLiveFix(_ fields: Fields) -> (fields: Fields, status: FixStatus?) {
        guard fields.latitude == nil || fields.longitude == nil, let (status, _) = liveStatus() else { return (fields, nil) }
        var result = fields
        switch status {
        case .usable(let fix):
            result.latitude = fix.latitude
            result.longitude = fix.longitude
            result.altitude = fix.altitude
            result.accuracy = fix.horizontalError
            result.heading = fix.heading
            result.speed = fix.speed
            result.satellites = fix.satellites
            if let seconds = fix.gpsTime, seconds.isFinite, abs(seconds) < 1e11 {
                result.gpsTime = Timestamp(secondsSinceEpoch: Int(seconds.rounded(.down)), utcOffsetMinutes: 0)
                result.clockDifference = fix.clockDifference.flatMap { $0.isFinite ? $0 : nil }
            }
        case .unusable:
            if result.location == nil { result.location = Self.noFixText }
        }
        return (result, status)
    }

    /// `fields` with what the position says: its grid reference, the site it is on (its name,
    /// address, and project when none was given) and the nearest place.
    func described(_ fields: Fields) -> Fields {
        guard let latitude = fields.latitude, let longitude = fields.longitude else { return fields }
        var result = fields
        // Without PROJ the grid variables stay empty, never wrong; `doctor` says why.
        if gridReferences, result.grid == nil {
            result.grid = (try? GridReference.position(latitude: latitude, longitude: longitude)) ?? nil
        }
        if let site = sites?.site(latitude: latitude, longitude: longitude) {
            result.site = result.site ?? site.name
            result.address = result.address ?? site.address
            result.project = result.project ?? site.project
        }
        if result.place == nil, let place = places?.place(latitude: latitude, longitude: longitude) {
            result.place = place.description
            result.placeName = place.name
            result.countryCode = place.country.isEmpty ? nil : place.country
        }
        return result
    }
}
