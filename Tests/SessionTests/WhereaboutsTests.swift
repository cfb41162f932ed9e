import Capture
import Foundation
import Imaging
import Location
import Platform
import Session
import Synchronization
import Templates
import Testing
import TestSupport

/// A scripted GPS source (unit tests only; the real gpsd is in `make test-gps`).
final class ScriptedFix: FixSource {
    let current: Mutex<FixReading>
    init(_ reading: FixReading) { current = Mutex(reading) }
    func reading() -> FixReading { current.withLock { $0 } }
}

/// The position a stamp shows, decided by the field policy: given, the live fix, the photo's own;
/// and what it is described with (site, project, place).
struct WhereaboutsTests {
    static let sites = try! SiteMap(geoJSON: Array("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "Quay", "project": "Bridge 7", "address": "1 Quai Branly"},
           "geometry": {"type": "Polygon", "coordinates": [[[2.2938, 48.8578], [2.2946, 48.8578], [2.2946, 48.8584], [2.2938, 48.8584], [2.2938, 48.8578]]]}}
        ]}
        """.utf8), file: "sites.geojson")

    static func fix(age: Double = 1, error: Double? = 8) -> GPSFix {
        GPSFix(latitude: 48.858, longitude: 2.294, altitude: 35, horizontalError: error, track: 45, speed: 1.5,
               gpsTime: WallClock.exactNow(), satellites: 8, receivedAt: WallClock.exactNow(), receivedMonotonic: WallClock.monotonic() - age)
    }

    static func policy(_ reading: FixReading, mode: GPSMode = .auto, given: Fields = Fields()) -> FieldPolicy {
        var policy = FieldPolicy(given: given)
        policy.whereabouts = Whereabouts(mode: mode, live: ScriptedFix(reading), rules: FixRules(maxAge: 10, minAccuracy: 50), sites: sites)
        return policy
    }

    @Test("a usable fix: position, altitude, accuracy, heading, speed, satellites, GPS time; its site, address and project")
    func usable() {
        let (fields, status) = Self.policy(FixReading(fix: Self.fix(), connected: true)).liveFields()
        #expect(status?.fix != nil)
        #expect(fields.latitude == 48.858 && fields.longitude == 2.294 && fields.altitude == 35)
        #expect(fields.accuracy == 8 && fields.heading == 45 && fields.speed == 1.5 && fields.satellites == 8 && fields.gpsTime != nil)
        #expect(fields.site == "Quay" && fields.address == "1 Quai Branly" && fields.project == "Bridge 7")
        #expect(fields.location == nil)
    }

    @Test("a fix whose GPS time is 3 h ahead of the clock: the difference is kept, and the photo's time is marked")
    func skewedClock() throws {
        var fix = Self.fix()
        fix.gpsTime = fix.receivedAt + 3 * 3600
        let policy = Self.policy(FixReading(fix: fix, connected: true))
        let (fields, _) = policy.liveFields()
        #expect(fields.clockDifference.map { abs($0 - 3 * 3600) < 0.01 } == true)
        #expect(fields.timeMark(.standard) == "clock differs from GPS by 3 h")
        var inTime = Self.fix()
        inTime.gpsTime = inTime.receivedAt + 2
        let calm = Self.policy(FixReading(fix: inTime, connected: true)).liveFields().fields
        #expect(calm.clockDifference.map { abs($0 - 2) < 0.01 } == true && calm.timeMark(.standard) == nil)
    }

    @Test("every built-in style that shows where a photo was shows the site's address too, which a fix on a site brings")
    func addressShown() {
        let fields = Self.policy(FixReading(fix: Self.fix(), connected: true)).fieldsNow()
        #expect(fields.address == "1 Quai Branly")
        let whereVariables: Set<String> = ["location", "place", "site", "coords", "utm", "mgrs"]
        let styles = ShootControllerTests.styles
        #expect(styles.count >= 6)
        for style in styles where !style.variableNames.isDisjoint(with: whereVariables) {
            #expect(style.variableNames.contains("address"), "\(style.id) shows a location but not {address}")
        }
    }

    @Test("a project given wins over the site's")
    func givenProject() {
        let fields = Self.policy(FixReading(fix: Self.fix(), connected: true), given: Fields(project: "Tunnel 3")).fieldsNow()
        #expect(fields.project == "Tunnel 3" && fields.site == "Quay")
    }

    @Test("a stale or inaccurate fix is not shown: \"no GPS fix\", or the location given", arguments: [
        FixReading(fix: fix(age: 11), connected: true), FixReading(fix: fix(error: 80), connected: true),
        FixReading(fix: fix(error: nil), connected: true), FixReading(fix: nil, connected: true, receiverSeen: true),
    ])
    func unusable(_ reading: FixReading) {
        let (fields, status) = Self.policy(reading).liveFields()
        #expect(status?.fix == nil && status != nil)
        #expect(fields.latitude == nil && fields.longitude == nil && fields.altitude == nil && fields.heading == nil && fields.site == nil)
        #expect(fields.location == "no GPS fix")
        let typed = Self.policy(reading, given: Fields(location: "Pier 4")).fieldsNow()
        #expect(typed.location == "Pier 4" && typed.latitude == nil)
    }

    @Test("auto with gpsd but no receiver ever seen says nothing; require says no GPS fix")
    func quietAuto() {
        let reading = FixReading(fix: nil, connected: true, receiverSeen: false)
        let (auto, autoStatus) = Self.policy(reading, mode: .auto).liveFields()
        #expect(autoStatus == nil && auto.location == nil)
        let (required, requiredStatus) = Self.policy(reading, mode: .require).liveFields()
        #expect(requiredStatus == .unusable(.noFixYet) && required.location == "no GPS fix")
    }

    @Test("a position given (--gps LAT,LON) wins over the live fix, and is described the same way")
    func givenPosition() {
        let given = Fields(latitude: 48.8581, longitude: 2.2940)
        let (fields, status) = Self.policy(FixReading(fix: Self.fix(age: 60), connected: true), mode: .position(latitude: 48.8581, longitude: 2.294, altitude: nil),
                                           given: given).liveFields()
        #expect(status == nil && fields.latitude == 48.8581 && fields.site == "Quay" && fields.location == nil)
    }

    @Test("a photo's EXIF GPS (apply) gives the position, heading and site; --gps off shows none")
    func photoGPS() throws {
        var metadata = PhotoMetadata()
        var position = GPSPosition(latitude: 48.858, longitude: 2.294, altitude: 12)
        position.heading = 56
        metadata.gps = position
        var policy = FieldPolicy()
        policy.whereabouts.sites = Self.sites
        let fields = policy.fields(for: metadata)
        #expect(fields.latitude == 48.858 && fields.heading == 56 && fields.site == "Quay" && fields.project == "Bridge 7")
        policy.whereabouts.mode = .off
        let off = policy.fields(for: metadata)
        #expect(off.latitude == nil && off.heading == nil && off.site == nil && off.location == nil)
    }

    @Test("the grid reference is the position's, whichever source gave it (GeoConvert's answers)")
    func grid() {
        var metadata = PhotoMetadata()
        metadata.gps = GPSPosition(latitude: 48.858, longitude: 2.294, altitude: 12)
        let fromPhoto = FieldPolicy().fields(for: metadata)
        #expect(fromPhoto.grid?.utmText == "31N 448215 5411911" && fromPhoto.grid?.mgrs() == "31UDQ 48214 11910")
        let given = Self.policy(FixReading(fix: Self.fix(), connected: true), mode: .position(latitude: 48.8581, longitude: 2.294, altitude: nil),
                                given: Fields(latitude: 48.8581, longitude: 2.294)).fieldsNow()
        #expect(given.grid?.mgrs() == "31UDQ 48215 11921")
        #expect(FieldPolicy().fields(for: PhotoMetadata()).grid == nil)
    }

    @Test("{place}: the nearest town from the table, when one is within reach")
    func place() throws {
        let folder = try TestFiles.temporaryFolder("places")
        try Data("lat,lon,name,admin1,admin2,cc\n48.85341,2.3488,Paris,Ile-de-France,Paris,FR\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/cities.csv"))
        var policy = Self.policy(FixReading(fix: Self.fix(), connected: true))
        policy.whereabouts.places = PlaceFinder(table: folder + "/cities.csv", cacheFolder: nil)
        #expect(policy.fieldsNow().place == "Paris, Ile-de-France, FR")
    }
}
