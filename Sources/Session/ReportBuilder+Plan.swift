import Catalog
import Location
import Values
import Watermark

#if canImport(Glibc)
import Glibc
#endif

extension ReportBuilder {
    /// The widest spread of photos, metres, a location plan is drawn for.
    public static let planSpan = 20_000.0

    /// The location plan of `entries` (numbered in this order from 1): each photo with a position,
    /// and the sites of `sites` a photo is on, in metres east and north of the photos' middle (an
    /// equirectangular projection there: true to scale over a site's few kilometres). Nil when no
    /// photo has a position, or when they are further apart than `planSpan` (not one site: a plan
    /// of them would show dots far apart and, in this projection, no longer to scale).
    static func plan(_ entries: [CatalogEntry], sites: SiteMap?) -> PhotoReport.Plan? {
        let placed = entries.enumerated().compactMap { offset, entry in entry.position.map { (number: offset + 1, position: $0) } }
        guard !placed.isEmpty else { return nil }
        let origin = (latitude: placed.map(\.position.latitude).reduce(0, +) / Double(placed.count),
                      longitude: middleLongitude(placed.map(\.position.longitude)))
        let metresPerDegree = Geodesy.earthRadius * .pi / 180
        let cosine = cos(origin.latitude * .pi / 180)
        func point(latitude: Double, longitude: Double) -> PhotoReport.Plan.Point {
            PhotoReport.Plan.Point(east: wrapped(longitude - origin.longitude) * metresPerDegree * cosine,
                                   north: (latitude - origin.latitude) * metresPerDegree)
        }
        let marks = placed.map { PhotoReport.Plan.Mark(number: $0.number, point: point(latitude: $0.position.latitude,
                                                                                         longitude: $0.position.longitude)) }
        let easts = marks.map(\.point.east), norths = marks.map(\.point.north)
        guard let west = easts.min(), let east = easts.max(), let south = norths.min(), let north = norths.max(),
              max(east - west, north - south) <= planSpan else { return nil }
        var shown: [Site] = []
        if let sites {
            for entry in placed {
                if let site = sites.site(latitude: entry.position.latitude, longitude: entry.position.longitude),
                   !shown.contains(site) { shown.append(site) }
            }
        }
        let areas = shown.map { site in
            switch site.shape {
            case .circle(let latitude, let longitude, let radius):
                let centre = point(latitude: latitude, longitude: longitude)
                let ring = (0..<48).map { step in
                    let angle = Double(step) * 2 * .pi / 48
                    return PhotoReport.Plan.Point(east: centre.east + radius * cos(angle), north: centre.north + radius * sin(angle))
                }
                return PhotoReport.Plan.Area(name: site.name, rings: [ring])
            case .polygons(let polygons):
                return PhotoReport.Plan.Area(name: site.name, rings: polygons.flatMap(\.rings).map { ring in
                    ring.map { point(latitude: $0.latitude, longitude: $0.longitude) }
                })
            }
        }
        return PhotoReport.Plan(areas: areas, photos: marks)
    }

    /// Degrees of longitude as -180 up to 180.
    static func wrapped(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value > 180 { value -= 360 } else if value < -180 { value += 360 }
        return value
    }

    /// The middle of longitudes measured from the first (so photos either side of the antimeridian
    /// have their middle there, not on the other side of the Earth).
    static func middleLongitude(_ longitudes: [Double]) -> Double {
        guard let first = longitudes.first else { return 0 }
        return first + longitudes.map { wrapped($0 - first) }.reduce(0, +) / Double(longitudes.count)
    }
}
