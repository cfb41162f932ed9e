#if canImport(Glibc)
import Glibc
#endif

/// Distances and areas on the Earth as a sphere of the mean radius: within 0.5 % of the ellipsoid,
/// plenty for "is this fix on the site" and "which town is nearest".
public enum Geodesy {
    /// The mean Earth radius, metres (IUGG).
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine: exact to millimetres at short range).
    public static func distance(latitude a: Double, longitude b: Double, latitude c: Double, longitude d: Double) -> Double {
        let phi1 = a * .pi / 180, phi2 = c * .pi / 180
        let dPhi = phi2 - phi1, dLambda = (d - b) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// A point on the unit sphere: chord distances between these order like great-circle ones.
    static func unitVector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// Great-circle distance in metres for a chord of the unit sphere.
    static func distance(chord: Double) -> Double { 2 * earthRadius * asin(min(1, chord / 2)) }

    /// The area enclosed by a ring of (longitude, latitude) positions with continuous longitudes
    /// (see `unwrapped`), in square metres, whichever way it winds.
    static func area(_ ring: [(Double, Double)]) -> Double {
        guard ring.count > 3 else { return 0 }
        var sum = 0.0
        for index in 0..<(ring.count - 1) {
            let (lambda1, phi1) = ring[index], (lambda2, phi2) = ring[index + 1]
            sum += (lambda2 - lambda1) * .pi / 180 * (2 + sin(phi1 * .pi / 180) + sin(phi2 * .pi / 180))
        }
        return abs(sum * earthRadius * earthRadius / 2)
    }

    /// The ring with each longitude moved by whole turns to lie within 180° of the one before, so a
    /// ring drawn across the antimeridian (179° … -179°) stays one shape (179° … 181°). The first
    /// position is moved to within 180° of `reference` (a hole's, of its polygon's outside).
    static func unwrapped(_ ring: [(Double, Double)], near reference: Double? = nil) -> [(Double, Double)] {
        guard var previous = reference ?? ring.first?.0 else { return ring }
        return ring.map { position in
            var longitude = position.0
            while longitude - previous > 180 { longitude -= 360 }
            while longitude - previous < -180 { longitude += 360 }
            previous = longitude
            return (longitude, position.1)
        }
    }
}
