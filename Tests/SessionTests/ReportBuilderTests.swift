import Catalog
import Library
import Location
import Platform
import Testing
import TestSupport
import Values
@testable import Session
import Watermark

/// `ReportBuilder`: the order and numbers of a report's photos, and its location plan.
@Suite struct ReportBuilderTests {
    static func entry(_ name: String, _ time: Timestamp?, assumed: Int? = nil, at position: (Double, Double)? = nil) -> CatalogEntry {
        var entry = CatalogEntry(path: "/photos/\(name).jpg", size: 1, sha256: String(repeating: "0", count: 64), command: .apply,
                                 time: time, latitude: position?.0, longitude: position?.1)
        entry.assumedOffsetMinutes = assumed
        return entry
    }

    @Test("photos in the order taken: zones compared as instants, a camera time without a zone by the zone assumed, no time last")
    func order() {
        let entries = [
            Self.entry("none", nil),
            Self.entry("zoneless-09:00-utc", Timestamp(year: 2026, month: 11, day: 29, hour: 9, minute: 0, second: 0), assumed: 0),
            Self.entry("10:00+08", Timestamp(year: 2026, month: 11, day: 29, hour: 10, minute: 0, second: 0, utcOffsetMinutes: 480)),
            Self.entry("03:00-utc", Timestamp(year: 2026, month: 11, day: 29, hour: 3, minute: 0, second: 0, utcOffsetMinutes: 0)),
            Self.entry("zoneless-16:00+08", Timestamp(year: 2026, month: 11, day: 29, hour: 16, minute: 0, second: 0), assumed: 480),
        ]
        #expect(ReportBuilder.taken(entries).map { ($0.path as String).split(separator: "/").last! } ==
                ["10:00+08.jpg", "03:00-utc.jpg", "zoneless-16:00+08.jpg", "zoneless-09:00-utc.jpg", "none.jpg"])
    }

    @Test("the plan: photos in metres east and north of their middle, numbered as the report; the sites they are on; none without positions")
    func plan() throws {
        let entries = [Self.entry("a", nil, at: (31.0, 121.0)), Self.entry("b", nil), Self.entry("c", nil, at: (31.0, 121.001))]
        let plan = try #require(ReportBuilder.plan(entries, sites: nil))
        #expect(plan.photos.map(\.number) == [1, 3])
        // 0.001° of longitude at 31° north is 95.3 m.
        let span = plan.photos[1].point.east - plan.photos[0].point.east
        #expect(abs(span - 95.3) < 0.2, "\(span)")
        #expect(abs(plan.photos[0].point.north) < 1e-6 && plan.areas.isEmpty)
        #expect(ReportBuilder.plan([Self.entry("b", nil)], sites: nil) == nil)
        // Paris and Rome are not one site.
        #expect(ReportBuilder.plan([Self.entry("paris", nil, at: (48.85, 2.29)), Self.entry("rome", nil, at: (41.89, 12.49))], sites: nil) == nil)

        let geoJSON = """
            {"type": "FeatureCollection", "features": [
             {"type": "Feature", "properties": {"name": "Yard"}, "geometry": {"type": "Polygon", "coordinates":
              [[[120.9995, 30.9995], [121.0015, 30.9995], [121.0015, 31.0005], [120.9995, 31.0005], [120.9995, 30.9995]]]}},
             {"type": "Feature", "properties": {"name": "Elsewhere"}, "geometry": {"type": "Polygon", "coordinates":
              [[[10, 10], [10.1, 10], [10.1, 10.1], [10, 10]]]}}]}
            """
        let sites = try SiteMap(geoJSON: Array(geoJSON.utf8), file: "sites.geojson")
        let withSites = try #require(ReportBuilder.plan(entries, sites: sites))
        #expect(withSites.areas.map(\.name) == ["Yard"])
        #expect(withSites.areas[0].rings[0].count >= 4)
    }

    @Test("photos either side of the antimeridian stay a few metres apart")
    func antimeridian() throws {
        let plan = try #require(ReportBuilder.plan([Self.entry("w", nil, at: (-17.0, 179.9999)), Self.entry("e", nil, at: (-17.0, -179.9999))],
                                                   sites: nil))
        #expect(abs(plan.photos[1].point.east - plan.photos[0].point.east - 21.3) < 0.2)
    }

    @Test("a photo whose file is not the one logged (replaced since) is left out, saying so")
    func replaced() throws {
        let folder = try TestFiles.temporaryFolder("report-replaced")
        var entries: [CatalogEntry] = []
        for (index, name) in ["a.jpg", "b.jpg"].enumerated() {
            let bytes = try FixturePhoto(name: name, width: 64 + index, height: 48).jpeg()
            try TestFiles.write(bytes, to: folder + "/" + name)
            entries.append(CatalogEntry(path: folder + "/" + name, size: bytes.count, sha256: FileDigest.sha256(bytes), command: .apply,
                                        time: Timestamp(year: 2026, month: 12, day: 3, hour: 9 + index, minute: 0, second: 0, utcOffsetMinutes: 0)))
        }
        try TestFiles.write(try FixturePhoto(name: "other", width: 80, height: 60).jpeg(), to: folder + "/b.jpg")
        let settings = ReportBuilder.Settings(title: nil, perPage: 2, generated: Timestamp(year: 2026, month: 12, day: 3, hour: 12, minute: 0,
                                                                                            second: 0, utcOffsetMinutes: 0), version: "test")
        let (report, leftOut) = ReportBuilder.build(entries, settings: settings)
        #expect(report.items.count == 1 && leftOut.map(\.path) == [folder + "/b.jpg"])
        let reason = leftOut.first.map { "\($0.error)" } ?? ""
        #expect(reason.contains("SHA-256 differs"))
    }
}
