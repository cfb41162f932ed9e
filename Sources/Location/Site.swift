/// A named place on a site plan: a polygon (with holes), several polygons, or a point with a radius.
public struct Site: Sendable, Equatable {
    public var name: String
    public var project: String?
    public var address: String?
    public var shape: Shape
    /// The feature's position in the file, from 0.
    public var index: Int
    /// The IANA zone the site's clocks show (`Europe/Helsinki`), from its `timezone` property;
    /// nil when the file does not say.
    public var timeZone: String?

    public enum Shape: Sendable, Equatable {
        /// Within `radius` metres of a point.
        case circle(latitude: Double, longitude: Double, radius: Double)
        /// Inside any of these polygons.
        case polygons([Polygon])
    }

    public init(name: String, project: String? = nil, address: String? = nil, shape: Shape, index: Int, timeZone: String? = nil) {
        self.name = name
        self.project = project
        self.address = address
        self.shape = shape
        self.index = index
        self.timeZone = timeZone
    }

    /// The area the site covers, square metres: how specific it is.
    public var area: Double {
        switch shape {
        case .circle(_, _, let radius): return .pi * radius * radius
        case .polygons(let polygons): return polygons.reduce(0) { $0 + $1.area }
        }
    }
}

/// A polygon: an outer ring and holes, each a closed ring of positions whose longitudes are kept
/// continuous (so one drawn across the antimeridian is still one shape).
public struct Polygon: Sendable, Equatable {
    /// (longitude, latitude) pairs, first == last; the first ring is the outside, the others holes.
    public let rings: [[Position]]
    /// Square metres: the outside less the holes.
    public let area: Double
    /// The longitude and latitude range of the outer ring (longitudes as unwrapped).
    let west: Double, east: Double, south: Double, north: Double

    public struct Position: Sendable, Equatable {
        public var longitude: Double
        public var latitude: Double
    }

    /// Rings as given (each closed, at least four positions, already checked).
    init(rings given: [[(Double, Double)]]) {
        let reference = given.first?.first?.0
        let unwrapped = given.map { Geodesy.unwrapped($0, near: reference) }
        rings = unwrapped.map { $0.map { Position(longitude: $0.0, latitude: $0.1) } }
        let outer = unwrapped.first ?? []
        area = max(0, Geodesy.area(outer) - unwrapped.dropFirst().reduce(0) { $0 + Geodesy.area($1) })
        west = outer.map(\.0).min() ?? 0
        east = outer.map(\.0).max() ?? 0
        south = outer.map(\.1).min() ?? 0
        north = outer.map(\.1).max() ?? 0
    }

    /// Whether the point is inside the outer ring and in no hole (even-odd rule; a point exactly on
    /// an edge may fall either way). The point is tried a turn east and west as well, for a polygon
    /// whose unwrapped longitudes pass ±180°.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south, latitude <= north else { return false }
        for shifted in [longitude, longitude + 360, longitude - 360] where shifted >= west && shifted <= east {
            guard let outer = rings.first, Self.ring(outer, contains: shifted, latitude) else { continue }
            if !rings.dropFirst().contains(where: { Self.ring($0, contains: shifted, latitude) }) { return true }
        }
        return false
    }

    /// Ray casting towards the east, in the (longitude, latitude) plane.
    static func ring(_ ring: [Position], contains x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.latitude > y) != (b.latitude > y) {
                let crossing = (b.longitude - a.longitude) * (y - a.latitude) / (b.latitude - a.latitude) + a.longitude
                if x < crossing { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
