import Location
import Testing

/// Every GeoJSON a sites file can wrongly be is an error naming the feature and what is wrong.
struct GeoJSONErrorTests {
    static let square = "[[[2.29, 48.85], [2.30, 48.85], [2.30, 48.86], [2.29, 48.86], [2.29, 48.85]]]"

    static func feature(properties: String = #"{"name": "Yard"}"#, geometry: String = #"{"type": "Polygon", "coordinates": \#(square)}"#) -> String {
        #"{"type": "Feature", "properties": \#(properties), "geometry": \#(geometry)}"#
    }

    static func collection(_ features: String...) -> String {
        #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#
    }

    static func message(_ text: String) -> String {
        message(Array(text.utf8))
    }

    static func message(_ bytes: [UInt8]) -> String {
        do {
            _ = try SiteMap(geoJSON: bytes, file: "sites.geojson")
            return "no error"
        } catch {
            return error.description
        }
    }

    static let cases: [(String, String, String)] = [
        ("not JSON", "{", "sites.geojson: not valid JSON: "),
        ("a list at the top", "[]", "expected a GeoJSON object"),
        ("a bare geometry", #"{"type": "Polygon", "coordinates": \#(square)}"#, "the top level is a Polygon"),
        ("no features list", #"{"type": "FeatureCollection"}"#, "needs a \"features\" list"),
        ("no name", collection(feature(), feature(properties: "{}")), "sites.geojson: feature 1: properties.name: missing: every site needs a name"),
        ("an empty name", collection(feature(properties: #"{"name": "  "}"#)), "feature 0: properties.name: empty"),
        ("a name that is a number", collection(feature(properties: #"{"name": 7}"#)), "feature 0: properties.name: expected a string"),
        ("a project that is a list", collection(feature(properties: #"{"name": "Yard", "project": []}"#)),
         "feature 0 (\"Yard\"): properties.project: expected a string, found a list"),
        ("no geometry", collection(feature(geometry: "null")), "feature 0 (\"Yard\"): geometry: missing"),
        ("a LineString", collection(feature(geometry: #"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#)),
         "geometry.type: a LineString cannot be a site"),
        ("an unknown type", collection(feature(geometry: #"{"type": "Circle", "coordinates": [0, 0]}"#)), "'Circle' is not a GeoJSON geometry type"),
        ("a point without a radius", collection(feature(geometry: #"{"type": "Point", "coordinates": [2.29, 48.85]}"#)),
         "feature 0 (\"Yard\"): properties.radius: missing: a Point site needs a radius in metres"),
        ("a negative radius", collection(feature(properties: #"{"name": "Yard", "radius": -5}"#, geometry: #"{"type": "Point", "coordinates": [2.29, 48.85]}"#)),
         "properties.radius: expected a number of metres above 0"),
        ("a radius of 1e6 m", collection(feature(properties: #"{"name": "Yard", "radius": 1e6}"#, geometry: #"{"type": "Point", "coordinates": [2.29, 48.85]}"#)),
         "at most 100000, found 1000000.0"),
        ("latitude first", collection(feature(geometry: #"{"type": "Point", "coordinates": [48.85, 122.29]}"#)),
         "geometry.coordinates: latitude 122.29 is outside -90…90 (GeoJSON puts the longitude first: [lon, lat])"),
        ("a longitude of 200", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[200, 0], [1, 0], [1, 1], [200, 0]]]}"#)),
         "geometry.coordinates[0][0]: longitude 200.0 is outside -180…180"),
        ("a position of one number", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[2], [1, 0], [1, 1], [2, 0]]]}"#)),
         "geometry.coordinates[0][0]: expected a position [longitude, latitude]"),
        ("an open ring", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#)),
         "feature 0 (\"Yard\"): geometry.coordinates[0]: the ring is not closed"),
        ("a ring of three positions", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}"#)),
         "a ring needs at least 4 positions"),
        ("a ring in a line", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [2, 0], [0, 0]]]}"#)),
         "the ring encloses no area"),
        ("a bow tie", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}"#)),
         "feature 0 (\"Yard\"): geometry.coordinates[0]: the ring crosses itself: edge 0 (positions 0–1) and edge 2 (positions 2–3) meet"),
        ("a hole that crosses itself", collection(feature(geometry: #"{"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]], [[1, 1], [2, 2], [2, 1], [1, 2], [1, 1]]]}"#)),
         "geometry.coordinates[1]: the ring crosses itself"),
        ("an empty MultiPolygon", collection(feature(geometry: #"{"type": "MultiPolygon", "coordinates": []}"#)),
         "geometry.coordinates: expected a list of polygons"),
        ("a number too large for a double", collection(feature(geometry: #"{"type": "Point", "coordinates": [1e999, 0]}"#)),
         "not valid JSON"),
    ]

    @Test("each bad sites file is refused with the feature's index, the JSON path and the problem", arguments: cases)
    func refused(_ name: String, _ text: String, _ expected: String) {
        let message = Self.message(text)
        #expect(message.contains(expected), "\(name): \(message)")
    }

    @Test("bytes that are not UTF-8 are a JSON error saying so")
    func notUTF8() {
        var bytes = Array(Self.collection(Self.feature(properties: #"{"name": "Caf_"}"#)).utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
        #expect(Self.message(bytes).contains("invalid UTF-8"))
    }

    @Test("nesting deeper than any GeoJSON needs is refused before it costs stack")
    func deep() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.message(text).contains("not valid JSON"))
    }

    @Test("a file larger than 32 MB is refused unread")
    func huge() {
        let bytes = [UInt8](repeating: UInt8(ascii: " "), count: SiteMap.maxFileSize + 1)
        #expect(Self.message(bytes).contains("larger than 32 MB"))
    }

    @Test("a ring of 5000 corners whose edges all overlap is checked in bounded time, and still places points")
    func hostileRing() throws {
        // A zig-zag between longitude 0 and 1 climbing in tiny steps, closed along the west side:
        // every edge spans the same longitudes, the worst case of the sweep; the check stops at
        // its budget instead of comparing 1.2·10⁷ pairs.
        var ring: [String] = []
        let corners = 5_000
        for index in 0..<corners { ring.append("[\(index % 2 == 0 ? 0.0 : 1.0), \(Double(index) * 0.0001)]") }
        ring += ["[-0.5, \(Double(corners) * 0.0001)]", "[-0.5, 0]", "[0, 0]"]
        let text = Self.collection(Self.feature(geometry: #"{"type": "Polygon", "coordinates": [[\#(ring.joined(separator: ","))]]}"#))
        let sites = try SiteMap(geoJSON: Array(text.utf8), file: "zigzag.geojson")
        #expect(sites.site(latitude: 0.25, longitude: -0.25)?.name == "Yard")
        #expect(sites.site(latitude: 0.25, longitude: 2) == nil)
    }

    @Test("a single Feature is a sites file of one; an empty collection warns")
    func shapes() throws {
        let one = try SiteMap(geoJSON: Array(Self.feature().utf8), file: "one.geojson")
        #expect(one.sites.map(\.name) == ["Yard"] && one.warnings.isEmpty)
        let none = try SiteMap(geoJSON: Array(Self.collection().utf8), file: "none.geojson")
        #expect(none.sites.isEmpty && none.warnings == ["none.geojson: no sites in this file"])
    }

    @Test("a file that cannot be read says why")
    func unreadable() {
        #expect(throws: SiteError.cannotRead(file: "/nonexistent/sites.geojson", reason: "No such file or directory")) {
            try SiteMap(contentsOf: "/nonexistent/sites.geojson")
        }
    }
}
