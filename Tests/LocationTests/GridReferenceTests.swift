import Foundation
import Location
import Testing
import TestSupport
import Values

/// UTM through PROJ and MGRS lettering, checked against GeographicLib's GeoConvert (an independent
/// implementation) on zone edges, both hemispheres, the equator, the polar limits, Norway and Svalbard.
struct GridReferenceTests {
    static let geoConvert = "/usr/bin/GeoConvert"
    static var hasGeoConvert: Bool { FileManager.default.isExecutableFile(atPath: geoConvert) }

    /// Positions either side of and on the edges that matter, in both hemispheres.
    static var points: [(Double, Double)] {
        let tiny = 0.0000001
        let latitudes = [-80, -80 + tiny, -56, -33.9, -8, -tiny, 0, tiny, 8, 31.23, 56 - tiny, 56, 60, 64 - tiny, 64,
                         72 - tiny, 72, 78, 80, 84 - tiny]
        var longitudes: [Double] = [-179.5, -120.25, 45.5, 100.123, 121.47, 151.2]
        for edge in [-180.0, -174, -6, 0, 3, 6, 9, 12, 21, 33, 42, 174, 180] {
            longitudes += [edge - tiny, edge, edge + tiny].filter { $0 >= -180 && $0 < 180 }
        }
        return latitudes.flatMap { latitude in longitudes.map { (latitude, $0) } }
    }

    @Test(.enabled(if: hasGeoConvert, "GeoConvert is not installed (Debian geographiclib-tools; make test-unit installs it): skipped"))
    func matchesGeoConvert() throws {
        let points = Self.points
        // Fixed decimals: GeoConvert would read the "e" of 1e-07 as east.
        let input = points.map { String(format: "%.7f %.7f", $0.0, $0.1) }.joined(separator: "\n") + "\n"
        func answers(_ arguments: [String]) throws -> [String] {
            let result = try ExternalTool.run(Self.geoConvert, arguments, input: input)
            #expect(result.status == 0, "GeoConvert \(arguments): \(result.err)")
            return result.out.split(separator: "\n").map(String.init)
        }
        let utm = try answers(["-u"]), mgrs5 = try answers(["-m", "-p", "0"]), mgrs2 = try answers(["-m", "-p", "-3"])
        let mgrs0 = try answers(["-m", "-p", "-5"])
        try #require(utm.count == points.count && mgrs5.count == points.count && mgrs2.count == points.count && mgrs0.count == points.count)
        var compared = 0
        for (index, (latitude, longitude)) in points.enumerated() {
            let grid = try #require(try GridReference.position(latitude: latitude, longitude: longitude), "\(latitude), \(longitude)")
            #expect(grid.utmText.lowercased() == utm[index], "UTM of \(latitude), \(longitude)")
            #expect(grid.mgrs().filter { $0 != " " } == mgrs5[index], "MGRS of \(latitude), \(longitude)")
            #expect(grid.mgrs(digits: 2).filter { $0 != " " } == mgrs2[index], "MGRS 1 km of \(latitude), \(longitude)")
            #expect(grid.mgrs(digits: 0) == mgrs0[index], "MGRS 100 km of \(latitude), \(longitude)")
            compared += 1
        }
        #expect(compared > 500)
    }

    /// The example and a southern position, without any tool: GeoConvert's answers written down.
    @Test func knownPositions() throws {
        let shanghai = try #require(try GridReference.position(latitude: 31.23040428623, longitude: 121.47370361615))
        #expect(shanghai.utmText == "51N 354634 3456141")
        #expect(shanghai.zone == 51 && shanghai.isNorth)
        let sydney = try #require(try GridReference.position(latitude: -33.9, longitude: 151.2))
        #expect(sydney.utmText == "56S 333569 6247473")
        #expect(sydney.mgrs() == "56HLH 33568 47473")
        // Svalbard's zone 33 is 12° wide: 15°E is its central meridian.
        let svalbard = try #require(try GridReference.position(latitude: 78, longitude: 15))
        #expect(svalbard.mgrs() == "33XWG 00000 58369")
    }

    /// UPS is out of scope: near the poles there is no reference, rather than a wrong one.
    @Test(arguments: [84.0, 86.5, 90.0, -80.0000001, -89.0])
    func polarRefused(_ latitude: Double) throws {
        #expect(try GridReference.position(latitude: latitude, longitude: 15) == nil)
    }
}
