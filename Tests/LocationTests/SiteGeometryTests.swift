import Location
import Testing

/// Which site a position is on: holes, the antimeridian, tiny polygons, radius edges, and which
/// site wins when several contain the position.
struct SiteGeometryTests {
    /// A GeoJSON FeatureCollection of `features` (each a JSON object text).
    static func collection(_ features: [String]) -> [UInt8] {
        Array(#"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}"#.utf8)
    }

    static func polygon(_ name: String, _ rings: [[(Double, Double)]], extra: String = "") -> String {
        let coordinates = rings.map { ring in "[" + ring.map { "[\($0.0), \($0.1)]" }.joined(separator: ",") + "]" }
        return #"{"type": "Feature", "properties": {"name": "\#(name)"\#(extra)}, "geometry": {"type": "Polygon", "coordinates": [\#(coordinates.joined(separator: ","))]}}"#
    }

    static func point(_ name: String, longitude: Double, latitude: Double, radius: Double) -> String {
        #"{"type": "Feature", "properties": {"name": "\#(name)", "radius": \#(radius)}, "geometry": {"type": "Point", "coordinates": [\#(longitude), \#(latitude)]}}"#
    }

    /// A closed square ring of side `size` degrees with its south-west corner at (lon, lat).
    static func square(_ lon: Double, _ lat: Double, _ size: Double) -> [(Double, Double)] {
        [(lon, lat), (lon + size, lat), (lon + size, lat + size), (lon, lat + size), (lon, lat)]
    }

    static func map(_ features: [String]) throws -> SiteMap {
        try SiteMap(geoJSON: collection(features), file: "test.geojson")
    }

    @Test("a polygon with a hole: inside, in the hole, outside")
    func hole() throws {
        let sites = try Self.map([Self.polygon("Yard", [Self.square(10, 50, 1), Self.square(10.4, 50.4, 0.2)])])
        #expect(sites.site(latitude: 50.2, longitude: 10.2)?.name == "Yard")
        #expect(sites.site(latitude: 50.5, longitude: 10.5) == nil, "in the hole")
        #expect(sites.site(latitude: 50.5, longitude: 10.65)?.name == "Yard", "beside the hole")
        #expect(sites.site(latitude: 51.5, longitude: 10.5) == nil, "north of it")
        #expect(sites.site(latitude: 50.5, longitude: 9.99) == nil, "west of it")
    }

    @Test("a polygon drawn across the antimeridian (179.5° … -179.5°) holds both sides, not the rest of the world")
    func antimeridian() throws {
        let ring = [(179.5, -17.0), (-179.5, -17.0), (-179.5, -16.0), (179.5, -16.0), (179.5, -17.0)]
        let sites = try Self.map([Self.polygon("Taveuni", [ring], extra: #", "project": "Reef""#)])
        #expect(sites.site(latitude: -16.5, longitude: 179.9)?.name == "Taveuni")
        #expect(sites.site(latitude: -16.5, longitude: -179.9)?.name == "Taveuni")
        #expect(sites.site(latitude: -16.5, longitude: 180)?.name == "Taveuni")
        #expect(sites.site(latitude: -16.5, longitude: 0) == nil, "not the long way round")
        #expect(sites.site(latitude: -16.5, longitude: 179.4) == nil)
        #expect(sites.site(latitude: -16.5, longitude: -179.4) == nil)
        #expect(sites.site(latitude: -16.5, longitude: 179.9)?.project == "Reef")
    }

    @Test("the RFC 7946 way: a MultiPolygon split at the antimeridian, with a hole on one side")
    func antimeridianSplit() throws {
        let west = #"[[[179.5, -17], [180, -17], [180, -16], [179.5, -16], [179.5, -17]], [[179.7, -16.6], [179.8, -16.6], [179.8, -16.4], [179.7, -16.4], [179.7, -16.6]]]"#
        let east = #"[[[-180, -17], [-179.5, -17], [-179.5, -16], [-180, -16], [-180, -17]]]"#
        let feature = #"{"type": "Feature", "properties": {"name": "Split"}, "geometry": {"type": "MultiPolygon", "coordinates": [\#(west), \#(east)]}}"#
        let sites = try Self.map([feature])
        #expect(sites.site(latitude: -16.8, longitude: 179.9)?.name == "Split")
        #expect(sites.site(latitude: -16.8, longitude: -179.9)?.name == "Split")
        #expect(sites.site(latitude: -16.5, longitude: 179.75) == nil, "in the hole")
    }

    @Test("a polygon of 1 m × 1 m (about 9e-6° of latitude) still has an inside")
    func tiny() throws {
        let size = 1 / 111_195.0
        let sites = try Self.map([Self.polygon("Post", [Self.square(2.2945, 48.8584, size)])])
        #expect(sites.site(latitude: 48.8584 + size / 2, longitude: 2.2945 + size / 2)?.name == "Post")
        #expect(sites.site(latitude: 48.8584 + size * 1.5, longitude: 2.2945 + size / 2) == nil, "a metre north")
        let area = try #require(sites.sites.first?.area)
        #expect(area > 0.5 && area < 1, "about 0.66 m² (a degree of longitude is shorter here)")
    }

    @Test("radius edges: 39.9 m from the centre is in a 40 m site, 40.1 m is not")
    func radius() throws {
        let sites = try Self.map([Self.point("Gate", longitude: 2.2970, latitude: 48.8600, radius: 40)])
        let metre = 1 / 111_195.0  // degrees of latitude in a metre on the mean sphere
        #expect(sites.site(latitude: 48.8600 + 39.9 * metre, longitude: 2.2970)?.name == "Gate")
        #expect(sites.site(latitude: 48.8600 - 40.1 * metre, longitude: 2.2970) == nil)
        #expect(sites.site(latitude: 48.8600, longitude: 2.2970)?.name == "Gate")
    }

    @Test("the nearest point wins; the smallest polygon wins; between them the smaller area")
    func specificWins() throws {
        let sites = try Self.map([
            Self.polygon("Campus", [Self.square(10, 50, 0.1)]),
            Self.polygon("Hall", [Self.square(10.04, 50.04, 0.02)]),
            Self.point("Door A", longitude: 10.05, latitude: 50.05, radius: 200),
            Self.point("Door B", longitude: 10.0515, latitude: 50.05, radius: 200),
            Self.point("Field", longitude: 10.09, latitude: 50.09, radius: 8000),
        ])
        #expect(sites.site(latitude: 50.05, longitude: 10.0502)?.name == "Door A", "nearest of two doors, both smaller than the hall")
        #expect(sites.site(latitude: 50.05, longitude: 10.0513)?.name == "Door B")
        #expect(sites.site(latitude: 50.045, longitude: 10.045)?.name == "Hall", "inside the hall and the campus")
        #expect(sites.site(latitude: 50.01, longitude: 10.01)?.name == "Campus")
        #expect(sites.site(latitude: 50.09, longitude: 10.09)?.name == "Campus", "an 8 km circle is larger than the campus")
        #expect(sites.site(latitude: 50.12, longitude: 10.09)?.name == "Field", "outside the campus, within 8 km")
    }

    @Test("distances: a degree of latitude, across the antimeridian, pole to pole")
    func distances() {
        #expect(abs(Geodesy.distance(latitude: 0, longitude: 0, latitude: 1, longitude: 0) - 111_195) < 1)
        #expect(abs(Geodesy.distance(latitude: 0, longitude: 179.5, latitude: 0, longitude: -179.5) - 111_195) < 1)
        #expect(abs(Geodesy.distance(latitude: 90, longitude: 0, latitude: -90, longitude: 0) - .pi * Geodesy.earthRadius) < 1)
    }
}
