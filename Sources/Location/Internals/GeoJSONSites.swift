import Platform
import Values


/// Reads sites out of a GeoJSON document strictly: every feature checked, every problem named by
/// the feature's index and the JSON path inside it.
struct GeoJSONSites {
    private(set) var sites: [Site] = []
    private(set) var warnings: [String] = []
    private let file: String
    private var positions = 0

    /// Where in the document a problem is: the feature and the path inside it.
    private struct Problem: Error {
        var path: String
        var text: String
    }

    init(bytes: [UInt8], file: String) throws(SiteError) {
        self.file = file
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw .invalid(file: file, feature: nil, name: nil, path: "", problem: "not valid JSON: \(error)")
        }
        guard case .object(let top) = document else {
            throw whole("expected a GeoJSON object (a FeatureCollection), found \(document.kind)")
        }
        switch top["type"] {
        case .string("FeatureCollection"):
            guard case .array(let features)? = top["features"] else {
                throw whole("a FeatureCollection needs a \"features\" list")
            }
            for (index, feature) in features.enumerated() { try read(feature, index: index) }
        case .string("Feature"):
            try read(document, index: 0)
        case .string(let type):
            throw whole("the top level is a \(type); it must be a FeatureCollection (or one Feature) whose features have a \"name\" property")
        default:
            throw whole("no \"type\": a GeoJSON file starts with {\"type\": \"FeatureCollection\", \"features\": […]}")
        }
        if sites.isEmpty { warnings.append("\(file): no sites in this file") }
    }

    private func whole(_ problem: String) -> SiteError {
        .invalid(file: file, feature: nil, name: nil, path: "", problem: problem)
    }

    private mutating func read(_ feature: JSONValue, index: Int) throws(SiteError) {
        var name: String?
        do throws(Problem) {
            guard case .object(let members) = feature, members["type"] == .string("Feature") else {
                throw Problem(path: "", text: "expected a Feature object ({\"type\": \"Feature\", …})")
            }
            guard case .object(let properties)? = members["properties"] else {
                throw Problem(path: "properties", text: "a site needs properties with at least a \"name\"")
            }
            guard case .string(let given)? = properties["name"] else {
                throw Problem(path: "properties.name", text: properties["name"] == nil
                              ? "missing: every site needs a name" : "expected a string")
            }
            let trimmed = given.trimmingWhitespace
            guard !trimmed.isEmpty else { throw Problem(path: "properties.name", text: "empty: every site needs a name") }
            name = trimmed
            let project = try Self.optionalText(properties, "project")
            let address = try Self.optionalText(properties, "address")
            let zone = try Self.optionalText(properties, "timezone")
            if let zone, WallClock.offsetMinutes(zone: zone, at: 0) == nil {
                throw Problem(path: "properties.timezone", text: "'\(zone.prefix(60))' is not a time zone this system knows (an IANA name like Europe/Helsinki)")
            }
            guard let geometry = members["geometry"], geometry != .null else {
                throw Problem(path: "geometry", text: "missing: a site needs a Polygon, a MultiPolygon, or a Point with a radius")
            }
            let shape = try self.shape(geometry, properties: properties)
            sites.append(Site(name: trimmed, project: project, address: address, shape: shape, index: index, timeZone: zone))
        } catch {
            throw .invalid(file: file, feature: index, name: name.map { String($0.prefix(60)) }, path: error.path, problem: error.text)
        }
    }

    private static func optionalText(_ properties: [String: JSONValue], _ key: String) throws(Problem) -> String? {
        switch properties[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text.trimmingWhitespace.isEmpty ? nil : text.trimmingWhitespace
        case let other?: throw Problem(path: "properties.\(key)", text: "expected a string, found \(other.kind)")
        }
    }

    private mutating func shape(_ geometry: JSONValue, properties: [String: JSONValue]) throws(Problem) -> Site.Shape {
        guard case .object(let members) = geometry, case .string(let type)? = members["type"] else {
            throw Problem(path: "geometry", text: "expected a geometry object with a \"type\"")
        }
        guard let coordinates = members["coordinates"] else {
            throw Problem(path: "geometry.coordinates", text: "missing")
        }
        let path = "geometry.coordinates"
        switch type {
        case "Point":
            let (longitude, latitude) = try position(coordinates, path: path)
            guard let radiusValue = properties["radius"] else {
                throw Problem(path: "properties.radius", text: "missing: a Point site needs a radius in metres")
            }
            guard case .number(let radius) = radiusValue, radius > 0, radius <= SiteMap.maxRadius else {
                throw Problem(path: "properties.radius",
                              text: "expected a number of metres above 0 and at most \(Int(SiteMap.maxRadius)), found \(Self.describe(radiusValue))")
            }
            return .circle(latitude: latitude, longitude: longitude, radius: radius)
        case "Polygon":
            return .polygons([try polygon(coordinates, path: path)])
        case "MultiPolygon":
            guard case .array(let list) = coordinates, !list.isEmpty else {
                throw Problem(path: path, text: "expected a list of polygons")
            }
            var polygons: [Polygon] = []
            for (index, item) in list.enumerated() { polygons.append(try polygon(item, path: path + "[\(index)]")) }
            return .polygons(polygons)
        case "LineString", "MultiLineString", "MultiPoint", "GeometryCollection":
            throw Problem(path: "geometry.type", text: "a \(type) cannot be a site; use a Polygon, a MultiPolygon, or a Point with a radius")
        default:
            throw Problem(path: "geometry.type", text: "'\(type)' is not a GeoJSON geometry type")
        }
    }

    private mutating func polygon(_ value: JSONValue, path: String) throws(Problem) -> Polygon {
        guard case .array(let ringValues) = value, !ringValues.isEmpty else {
            throw Problem(path: path, text: "expected a list of rings (the outside, then any holes)")
        }
        var rings: [[(Double, Double)]] = []
        for (index, ringValue) in ringValues.enumerated() {
            let ringPath = path + "[\(index)]"
            guard case .array(let items) = ringValue else { throw Problem(path: ringPath, text: "expected a list of positions") }
            positions += items.count
            guard positions <= SiteMap.maxPositions else {
                throw Problem(path: ringPath, text: "more than \(SiteMap.maxPositions) positions in the file; simplify the shapes")
            }
            var ring: [(Double, Double)] = []
            ring.reserveCapacity(items.count)
            for (position, item) in items.enumerated() { ring.append(try self.position(item, path: ringPath + "[\(position)]")) }
            guard ring.count >= 4 else {
                throw Problem(path: ringPath, text: "a ring needs at least 4 positions (3 corners and the first again), found \(ring.count)")
            }
            guard ring.first! == ring.last! else {
                throw Problem(path: ringPath, text: "the ring is not closed: its last position must repeat the first (RFC 7946 §3.1.6)")
            }
            // Repeated corners (a double click in an editor) are harmless: drop them.
            var corners: [(Double, Double)] = [ring[0]]
            for next in ring.dropFirst() where next != corners.last! { corners.append(next) }
            guard corners.count >= 4 else {
                throw Problem(path: ringPath, text: "the ring has fewer than 3 different corners")
            }
            let unwrapped = Geodesy.unwrapped(corners, near: rings.first?.first?.0 ?? corners[0].0)
            if let crossing = SelfIntersection.find(in: unwrapped) {
                throw Problem(path: ringPath, text: "the ring crosses itself: edge \(crossing.0) (positions \(crossing.0)–\(crossing.0 + 1)) "
                              + "and edge \(crossing.1) (positions \(crossing.1)–\(crossing.1 + 1)) meet")
            }
            guard Geodesy.area(unwrapped) > 0 else { throw Problem(path: ringPath, text: "the ring encloses no area (its corners are in a line)") }
            rings.append(corners)
        }
        return Polygon(rings: rings)
    }

    private func position(_ value: JSONValue, path: String) throws(Problem) -> (Double, Double) {
        guard case .array(let numbers) = value, numbers.count >= 2, numbers.count <= 3 else {
            throw Problem(path: path, text: "expected a position [longitude, latitude] or [longitude, latitude, altitude], found \(Self.describe(value))")
        }
        guard case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1] else {
            throw Problem(path: path, text: "longitude and latitude must be numbers")
        }
        guard (-180...180).contains(longitude) else {
            throw Problem(path: path, text: "longitude \(longitude) is outside -180…180 (GeoJSON puts the longitude first)")
        }
        guard (-90...90).contains(latitude) else {
            throw Problem(path: path, text: "latitude \(latitude) is outside -90…90 (GeoJSON puts the longitude first: [lon, lat])")
        }
        return (longitude, latitude)
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .number(let number): return "\(number)"
        case .array(let items): return "a list of \(items.count)"
        default: return value.kind
        }
    }
}
