@testable import Catalog
import Foundation
import Platform
import Testing
import TestSupport
import Values

/// The catalog file: its schema and upgrades, rows in and out byte for byte, what it refuses, and
/// several writers at once.
@Suite struct CatalogTests {
    static func folder() throws -> String { try TestFiles.temporaryFolder("catalog") }

    /// A hex digest made from a number, for rows that need distinct files.
    static func digest(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// A row with every field set, values that would break naive SQL or text handling included.
    static var full: CatalogEntry {
        CatalogEntry(path: "/photos/caf\u{10FFE9}/Robert'); DROP TABLE photos;--.jpg", size: 123_456, sha256: digest(1),
                     command: .apply, originalPath: "/photos/x.original.jpg", originalSHA256: digest(2),
                     time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "command line", user: "山田太郎",
                     project: "Bridge \"7\", north", location: "Pier 4\nlevel 2", note: "=HYPERLINK(\"x\") <b>&amp;</b> 🏗",
                     latitude: -33.856784, longitude: 151.215297, altitude: -4.25, style: "site-report", styleVersion: 3,
                     camera: "Canon EOS 1000D", source: "/in/IMG_0001.JPG", host: "field-laptop",
                     stampedAt: Timestamp(iso8601: "2026-11-29T15:00:00Z"), extra: ["city": "Sydney", "crew": "B; 'x'"],
                     heading: 292.5)
    }

    @Test("a new catalog is made at the current version, with stampcam's application id; every field round-trips byte for byte")
    func roundTrip() throws {
        let path = try Self.folder() + "/deep/er/catalog.sqlite"
        let catalog = try Catalog(path: path)
        #expect(try catalog.version == Catalog.schemaVersion)
        var entry = Self.full
        entry.loggedAt = 1_796_000_000
        #expect(try catalog.add(entry))
        let read = try #require(try catalog.entries().entries.first)
        #expect(read == entry)
        // The name that is not UTF-8 is kept as its bytes (a BLOB), the rest as text.
        let types = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            print(db.execute("PRAGMA application_id").fetchone()[0], db.execute("SELECT typeof(path), hex(path), typeof(source) FROM photos").fetchone())
            """, [path])
        #expect(types.out.contains("1398033731 ('blob', '2F70686F746F732F636166E9"), "\(types.out)\(types.err)")
        #expect(types.out.contains("'text')"))
        // The table survives the SQL-ish name: the value went in as a value.
        #expect(try catalog.count() == 1)
    }

    @Test("an unset logged time is the time of writing")
    func loggedAt() throws {
        let catalog = try Catalog(path: try Self.folder() + "/c.sqlite")
        let before = WallClock.now().secondsSinceEpoch
        try catalog.add(CatalogEntry(path: "/a.jpg", size: 1, sha256: Self.digest(1), command: .shoot))
        let logged = try #require(try catalog.entries().entries.first?.loggedAt)
        #expect((before - 1...before + 5).contains(logged))
    }

    /// A catalog file at `version`, made with the steps of the schema, holding a row as that version wrote it.
    static func catalog(at version: Int, in folder: String) throws -> String {
        let path = folder + "/v\(version).sqlite"
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        for step in Schema.steps[..<version] { try database.execute(step, action: "test") }
        _ = try database.value("PRAGMA user_version = \(version)", action: "test")
        if version > 0 {
            _ = try database.value("PRAGMA application_id = \(Schema.applicationID)", action: "test")
            let statement = try database.prepare("""
                INSERT INTO photos (path, size, sha256, time, time_utc, zone, project, latitude, longitude, command)
                VALUES ('/old/a.jpg', 10, '\(digest(7))', '2025-05-01T09:00:00+02:00', 1746082800, '+02:00', 'Old', 10.5, 20.25, 'apply')
                """, action: "test")
            try statement.run([])
        }
        return path
    }

    @Test("forward migrations: a catalog of every earlier version is brought to the current one with its rows kept", arguments: 0..<Schema.current)
    func migration(from version: Int) throws {
        let path = try Self.catalog(at: version, in: try Self.folder())
        let catalog = try Catalog(path: path)
        #expect(try catalog.version == Schema.current)
        let rows = try catalog.entries().entries
        if version == 0 {
            #expect(rows.isEmpty)
        } else {
            #expect(rows.count == 1)
            let row = try #require(rows.first)
            #expect(row.path == "/old/a.jpg" && row.project == "Old" && row.latitude == 10.5 && row.longitude == 20.25)
            #expect(row.time == Timestamp(iso8601: "2025-05-01T09:00:00+02:00"))
            #expect(row.extra.isEmpty && row.loggedAt == nil)  // the columns version 2 added, empty for old rows
        }
        // The new columns take values; opening again changes nothing.
        try catalog.add(CatalogEntry(path: "/new.jpg", size: 1, sha256: Self.digest(9), command: .shoot, extra: ["k": "v"]))
        let again = try Catalog(path: path)
        #expect(try again.version == Schema.current)
        #expect(try again.entries().entries.first { $0.path == "/new.jpg" }?.extra == ["k": "v"])
    }

    @Test("the 1 → 2 step adds the columns for --set values and the logged time")
    func stepOneToTwo() throws {
        let path = try Self.catalog(at: 1, in: try Self.folder())
        _ = try Catalog(path: path)
        let columns = try ExternalTool.python("""
            import sqlite3, sys
            print(",".join(r[1] for r in sqlite3.connect(sys.argv[1]).execute("PRAGMA table_info(photos)")))
            """, [path]).out
        #expect(columns.contains(",extra,logged_at"))
    }

    @Test("a catalog from a newer stampcam, another program's database and a file that is no database are refused and left as they were")
    func refusals() throws {
        let folder = try Self.folder()
        let newer = try Self.catalog(at: Schema.current, in: folder)
        _ = try ExternalTool.python("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA user_version = 99'); db.commit()", [newer])
        #expect(throws: CatalogError.newerVersion(path: newer, version: 99, supported: Schema.current)) { try Catalog(path: newer) }
        #expect(throws: CatalogError.newerVersion(path: newer, version: 99, supported: Schema.current)) { try Catalog(reading: newer) }

        let other = folder + "/other.sqlite"
        _ = try ExternalTool.python("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE t (x)'); db.commit()", [other])
        let before = try TestFiles.bytes(other)
        #expect(throws: CatalogError.notACatalog(path: other, reason: "it is another program's database")) { try Catalog(path: other) }
        #expect(try TestFiles.bytes(other) == before)

        let text = folder + "/notes.txt"
        try TestFiles.write(Array(String(repeating: "not a database ", count: 100).utf8), to: text)
        #expect(throws: CatalogError.notACatalog(path: text, reason: "it is not an SQLite database")) { try Catalog(path: text) }
        #expect(throws: (any Error).self) { try Catalog(reading: folder + "/missing.sqlite") }
    }

    @Test("the same photo (path and SHA-256) is one row; a row rebuilt from XMP gives way to the command's own, not the other way round")
    func oneRowPerPhoto() throws {
        let catalog = try Catalog(path: try Self.folder() + "/c.sqlite")
        var rebuilt = CatalogEntry(path: "/p/a.jpg", size: 5, sha256: Self.digest(5), command: .rebuild, project: "From XMP")
        #expect(try catalog.add(rebuilt))
        #expect(try !catalog.add(rebuilt))
        var logged = rebuilt
        logged.command = .apply
        logged.host = "site"
        logged.project = "Logged"
        #expect(try catalog.add(logged))
        rebuilt.project = "Rebuilt again"
        #expect(try !catalog.add(rebuilt))
        let rows = try catalog.entries().entries
        #expect(rows.count == 1 && rows.first?.command == .apply && rows.first?.project == "Logged" && rows.first?.host == "site")
        // The same path written again (other bytes) is another photo.
        logged.sha256 = Self.digest(6)
        #expect(try catalog.add(logged))
        #expect(try catalog.count() == 2)
    }

    @Test("a photo logged without its original (a full disk) gets it when the save is finished; never the other way round")
    func originalFinished() throws {
        let catalog = try Catalog(path: try Self.folder() + "/c.sqlite")
        var photo = CatalogEntry(path: "/p/a.jpg", size: 5, sha256: Self.digest(5), command: .shoot)
        #expect(try catalog.add(photo))
        var finished = photo
        finished.originalPath = "/p/a.original.jpg"
        finished.originalSHA256 = Self.digest(7)
        #expect(try catalog.add(finished))
        #expect(try !catalog.add(photo))
        var rebuilt = finished
        rebuilt.command = .rebuild
        photo.path = "/p/b.jpg"
        rebuilt.path = "/p/b.jpg"
        #expect(try catalog.add(photo))
        #expect(try !catalog.add(rebuilt), "a row rebuilt from XMP never takes the place of the command's own")
        let rows = try catalog.entries().entries.sorted { $0.path < $1.path }
        #expect(rows.map(\.originalPath) == ["/p/a.original.jpg", nil])
        #expect(rows.map(\.command) == [.shoot, .shoot])
    }

    /// Photos around the world at known times.
    static let crafted: [CatalogEntry] = [
        CatalogEntry(path: "/s/eiffel.jpg", size: 1, sha256: digest(11), command: .shoot, time: Timestamp(iso8601: "2026-11-23T09:00:00+01:00"),
                     user: "Li Wei", project: "Bridge 7", latitude: 48.858370, longitude: 2.294481, style: "classic"),
        CatalogEntry(path: "/s/louvre.jpg", size: 1, sha256: digest(12), command: .apply, time: Timestamp(iso8601: "2026-11-25T18:30:00+01:00"),
                     user: "li wei", project: "bridge 7", latitude: 48.860611, longitude: 2.337644, style: "banner"),
        CatalogEntry(path: "/s/sydney.jpg", size: 1, sha256: digest(13), command: .apply, time: Timestamp(iso8601: "2026-11-29T10:00:00+10:00"),
                     user: "Ana", project: "Harbour", latitude: -33.856784, longitude: 151.215297, style: "classic"),
        CatalogEntry(path: "/s/fiji-east.jpg", size: 1, sha256: digest(14), command: .shoot, time: Timestamp(iso8601: "2026-11-30T08:00:00+12:00"),
                     user: "Ana", project: "Dateline", latitude: -17.0, longitude: 179.999, style: "geo"),
        CatalogEntry(path: "/s/fiji-west.jpg", size: 1, sha256: digest(15), command: .shoot, time: Timestamp(iso8601: "2026-11-30T08:05:00+12:00"),
                     user: "Ana", project: "Dateline", latitude: -17.0, longitude: -179.999, style: "geo"),
        CatalogEntry(path: "/s/no-place.jpg", size: 1, sha256: digest(16), command: .apply, time: Timestamp(iso8601: "2026-11-24T12:00:00Z"),
                     user: "Li Wei", project: "Bridge 7", style: "classic"),
        CatalogEntry(path: "/s/no-time.jpg", size: 1, sha256: digest(17), command: .rebuild, user: "Li Wei", project: "Bridge 7",
                     latitude: 48.8584, longitude: 2.2945),
        CatalogEntry(path: "/s/pole.jpg", size: 1, sha256: digest(18), command: .shoot, time: Timestamp(iso8601: "2026-11-26T00:00:00Z"),
                     project: "Pole", latitude: 89.9, longitude: 0, style: "geo"),
        CatalogEntry(path: "/s/pole-far-side.jpg", size: 1, sha256: digest(19), command: .shoot, time: Timestamp(iso8601: "2026-11-26T00:01:00Z"),
                     project: "Pole", latitude: 89.9, longitude: 180, style: "geo"),
    ]

    static func craftedCatalog() throws -> Catalog {
        let catalog = try Catalog(path: try folder() + "/crafted.sqlite")
        try catalog.add(crafted.reversed())
        return catalog
    }

    static func names(_ catalog: Catalog, _ filter: CatalogFilter) throws -> [String] {
        try catalog.entries(filter).entries.map { String($0.path.dropFirst(3).dropLast(4)) }
    }

    static func seconds(_ text: String) -> Int { Timestamp(iso8601: text)!.secondsSinceEpoch! }

    @Test("filters: project and user find a part of the name, case ignored; the order is the photos' time, those without one last")
    func textFilters() throws {
        let catalog = try Self.craftedCatalog()
        #expect(try Self.names(catalog, CatalogFilter()) == ["eiffel", "no-place", "louvre", "pole", "pole-far-side", "sydney",
                                                             "fiji-east", "fiji-west", "no-time"])
        #expect(try Self.names(catalog, CatalogFilter(project: "BRIDGE 7")) == ["eiffel", "no-place", "louvre", "no-time"])
        #expect(try Self.names(catalog, CatalogFilter(project: "Bridge", user: "Li Wei")) == ["eiffel", "no-place", "louvre", "no-time"])
        #expect(try Self.names(catalog, CatalogFilter(project: "Bridge", user: "Li")) == ["eiffel", "no-place", "louvre", "no-time"])
        #expect(try Self.names(catalog, CatalogFilter(project: "100%", user: "_")) == [])
        #expect(try Self.names(catalog, CatalogFilter(user: "ana", style: "GEO")) == ["fiji-east", "fiji-west"])
        #expect(try Self.names(catalog, CatalogFilter(paths: ["/s/sydney.jpg", "/s/missing.jpg"])) == ["sydney"])
    }

    @Test("--since is inclusive, --until exclusive, compared as instants whatever the zones; photos without a time never match")
    func timeFilters() throws {
        let catalog = try Self.craftedCatalog()
        // Sydney 10:00+10:00 is 00:00 UTC on the 29th.
        #expect(try Self.names(catalog, CatalogFilter(since: Self.seconds("2026-11-29T00:00:00Z"))) == ["sydney", "fiji-east", "fiji-west"])
        #expect(try Self.names(catalog, CatalogFilter(until: Self.seconds("2026-11-29T00:00:00Z"))) == ["eiffel", "no-place", "louvre", "pole", "pole-far-side"])
        #expect(try Self.names(catalog, CatalogFilter(since: Self.seconds("2026-11-23T08:00:00Z"), until: Self.seconds("2026-11-23T08:00:01Z"))) == ["eiffel"])
        #expect(try Self.names(catalog, CatalogFilter(project: "Bridge 7", since: 0)) == ["eiffel", "no-place", "louvre"])
    }

    @Test("a camera time without a zone: kept as written, with the assumed instant flagged; ordered and found by it, re-read in a zone given later")
    func zonelessTimes() throws {
        let path = try Self.folder() + "/zoneless.sqlite"
        let catalog = try Catalog(path: path)
        let wall = try #require(Timestamp(exif: "2011:05:01 09:00:00"))
        try catalog.add([
            CatalogEntry(path: "/z/old-camera.jpg", size: 1, sha256: Self.digest(31), command: .apply, time: wall, timeSource: "EXIF",
                         assumedOffsetMinutes: 120),
            CatalogEntry(path: "/z/zoned.jpg", size: 1, sha256: Self.digest(32), command: .apply, time: Timestamp(iso8601: "2011-05-01T08:00:00Z")),
        ])
        let stored = try ExternalTool.python("""
            import sqlite3, sys
            print(sqlite3.connect(sys.argv[1]).execute("SELECT time, time_utc, zone, zone_assumed FROM photos WHERE path = '/z/old-camera.jpg'").fetchone())
            """, [path]).out
        #expect(stored.contains("('2011-05-01T09:00:00', \(Self.seconds("2011-05-01T07:00:00Z")), '+02:00', 1)"), "\(stored)")
        let row = try #require(try catalog.entries(CatalogFilter(paths: ["/z/old-camera.jpg"])).entries.first)
        #expect(row.time == wall && row.assumedOffsetMinutes == 120 && row.zoneIsAssumed)
        // Logged as taken at 07:00 UTC: before the zoned photo, and inside a window around it.
        #expect(try Self.names(catalog, CatalogFilter()) == ["old-camera", "zoned"])
        #expect(try Self.names(catalog, CatalogFilter(since: Self.seconds("2011-05-01T07:00:00Z"), until: Self.seconds("2011-05-01T07:00:01Z")))
            == ["old-camera"])
        // Read in a zone given now (west of UTC): later than the zoned photo, found at its new instant.
        let west = WallTimeZone(isGiven: true) { _ in -300 }
        #expect(try catalog.entries(zone: west).entries.map(\.path) == ["/z/zoned.jpg", "/z/old-camera.jpg"])
        #expect(try catalog.entries(CatalogFilter(since: Self.seconds("2011-05-01T14:00:00Z")), zone: west).entries.map(\.path) == ["/z/old-camera.jpg"])
        // The system's zone only fills in for a row that has none assumed.
        let system = WallTimeZone(isGiven: false) { _ in -300 }
        #expect(try catalog.entries(zone: system).entries.first?.assumedOffsetMinutes == 120)
    }

    @Test("a camera time without a zone logged before zones were assumed (version 2) is found in the zone it is read in")
    func zonelessBeforeVersionThree() throws {
        let path = try Self.catalog(at: 2, in: try Self.folder())
        _ = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO photos (path, size, sha256, time, command) VALUES ('/old/zoneless.jpg', 1, '\(Self.digest(8))', '2011-05-01T09:00:00', 'apply')")
            db.commit()
            """, [path])
        let catalog = try Catalog(reading: path)
        let window = CatalogFilter(since: Self.seconds("2011-05-01T08:00:00Z"), until: Self.seconds("2011-05-01T08:00:01Z"))
        #expect(try catalog.entries(window).entries.isEmpty)
        let rows = try catalog.entries(window, zone: WallTimeZone(isGiven: false) { _ in 60 }).entries
        #expect(rows.map(\.path) == ["/old/zoneless.jpg"] && rows.first?.zoneIsAssumed == true)
    }

    @Test("--near: haversine great-circle distance, edge included; across the antimeridian and near a pole")
    func nearFilter() throws {
        let catalog = try Self.craftedCatalog()
        // Eiffel Tower to the Louvre is 3.19 km.
        let eiffelLouvre = GeoDistance.metres(from: (48.858370, 2.294481), to: (48.860611, 2.337644))
        #expect(abs(eiffelLouvre - 3_170) < 30, "\(eiffelLouvre)")
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: 48.858370, longitude: 2.294481, metres: 1000))) == ["eiffel", "no-time"])
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: 48.858370, longitude: 2.294481, metres: eiffelLouvre + 1))).contains("louvre"))
        #expect(try !Self.names(catalog, CatalogFilter(near: .init(latitude: 48.858370, longitude: 2.294481, metres: eiffelLouvre - 1))).contains("louvre"))
        // 0.002° of longitude at 17° S is about 213 m: the two Fiji photos are neighbours across ±180°.
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: -17, longitude: 180, metres: 300))) == ["fiji-east", "fiji-west"])
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: -17, longitude: -179.999, metres: 50))) == ["fiji-west"])
        // 0.1° from the pole on opposite meridians: 22 km apart through the pole.
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: 89.9, longitude: 0, metres: 23_000))) == ["pole", "pole-far-side"])
        // One degree of latitude is R·π/180.
        #expect(abs(GeoDistance.metres(from: (10, 20), to: (11, 20)) - GeoDistance.earthRadius * Double.pi / 180) < 1e-6)
        #expect(try Self.names(catalog, CatalogFilter(near: .init(latitude: 0, longitude: 0, metres: 20_000_000))).count == 8)
    }

    @Test("two connections and four threads write at once: every row arrives")
    func concurrentWriters() throws {
        let path = try Self.folder() + "/shared.sqlite"
        let first = try Catalog(path: path), second = try Catalog(path: path)
        let failures = Synchronized(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let catalog = worker % 2 == 0 ? first : second
            for index in 0..<50 {
                do {
                    try catalog.add(CatalogEntry(path: "/w\(worker)/\(index).jpg", size: index, sha256: Self.digest(worker * 100 + index),
                                                 command: .apply))
                } catch {
                    failures.update { $0 += 1 }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try first.count() == 200)
        #expect(try second.integrityProblems().isEmpty)
        let mode = try ExternalTool.python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode').fetchone()[0])", [path])
        #expect(mode.out.hasPrefix("wal"))
    }
}

/// Where the catalog keeps WAL and where the rollback journal.
@Suite struct CatalogJournalTests {
    @Test("WAL on a local disk; the rollback journal on a card, FUSE or a network file system", arguments: [
        (VolumeKind.local, true), (.fat, false), (.exfat, false), (.fuse, false), (.network, false),
    ])
    func journal(_ volume: VolumeKind, _ wal: Bool) {
        #expect(Catalog.usesWAL(on: volume) == wal)
    }
}

/// A value several threads update under a lock (tests only).
final class Synchronized<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func update(_ change: (inout Value) -> Void) { lock.lock(); change(&stored); lock.unlock() }
}
