import Testing
import Values

/// The MGRS lettering and UTM zones, on positions whose grid values GeographicLib's GeoConvert gave.
struct GridPositionTests {
    /// (zone, north, easting, northing, latitude) → GeoConvert's `-u` and `-m -p 0` answers.
    static let known: [(GridPosition, utm: String, mgrs: String)] = [
        (GridPosition(zone: 51, isNorth: true, easting: 354280.604, northing: 3456101.065, latitude: 31.23), "51N 354281 3456101", "51RUQ 54280 56101"),
        (GridPosition(zone: 1, isNorth: false, easting: 461235.942, northing: 1117747.830, latitude: -80), "01S 461236 1117748", "01CDM 61235 17747"),
        (GridPosition(zone: 32, isNorth: true, easting: 276979.926, northing: 6658157.202, latitude: 60), "32N 276980 6658157", "32VKM 76979 58157"),
        (GridPosition(zone: 33, isNorth: true, easting: 500000, northing: 8658369.586, latitude: 78), "33N 500000 8658370", "33XWG 00000 58369"),
        (GridPosition(zone: 56, isNorth: false, easting: 333568.941, northing: 6247473.337, latitude: -33.9), "56S 333569 6247473", "56HLH 33568 47473"),
        (GridPosition(zone: 31, isNorth: true, easting: 166021.443, northing: 0, latitude: 0), "31N 166021 0", "31NAA 66021 00000"),
        (GridPosition(zone: 37, isNorth: true, easting: 534994.654, northing: 9329005.171, latitude: 83.9999999), "37N 534995 9329005", "37XEP 34994 29005"),
    ]

    @Test(arguments: 0..<known.count)
    func lettering(_ index: Int) {
        let (position, utm, mgrs) = Self.known[index]
        #expect(position.utmText == utm)
        #expect(position.mgrs() == mgrs)
    }

    /// UTM rounds to the metre; MGRS cuts, at every precision, so a reference names the square the
    /// position is in.
    @Test func precisionCutsDigits() {
        let position = GridPosition(zone: 51, isNorth: true, easting: 354633.6, northing: 3456140.7, latitude: 31.2)
        #expect(position.utmText == "51N 354634 3456141")
        #expect(position.mgrs(digits: 5) == "51RUQ 54633 56140")
        #expect(position.mgrs(digits: 4) == "51RUQ 5463 5614")
        #expect(position.mgrs(digits: 1) == "51RUQ 5 5")
        #expect(position.mgrs(digits: 0) == "51RUQ")
        let nearEdge = GridPosition(zone: 31, isNorth: false, easting: 500000, northing: 9_999_999.99, latitude: -0.0000001)
        #expect(nearEdge.mgrs(digits: 2) == "31MEV 00 99")
        // A projection's last-bit noise on the central meridian does not move it into the square west.
        let meridian = GridPosition(zone: 33, isNorth: true, easting: 499_999.999_999_999_94, northing: 8658369.586, latitude: 78)
        #expect(meridian.mgrs() == "33XWG 00000 58369")
    }

    @Test(arguments: [
        // Ordinary 6° zones, and longitude 180 as -180.
        (0.0, 0.0, 31), (0.0, -0.0000001, 30), (0.0, 5.9999999, 31), (0.0, 6.0, 32), (0.0, -180.0, 1), (0.0, 180.0, 1),
        (0.0, 179.9999999, 60), (-80.0, 0.0, 31), (83.9999999, 0.0, 31),
        // Norway: band V between 3° and 12° is zone 32; not below 56° nor from 64°.
        (60.0, 2.9999999, 31), (60.0, 3.0, 32), (63.9999999, 11.9999999, 32), (64.0, 5.0, 31), (55.9999999, 5.0, 31),
        // Svalbard: band X from 0° to 42° has only zones 31, 33, 35 and 37.
        (78.0, 8.9999999, 31), (78.0, 9.0, 33), (78.0, 20.9999999, 33), (78.0, 21.0, 35), (78.0, 33.0, 37),
        (78.0, 41.9999999, 37), (78.0, 42.0, 38), (78.0, -0.0000001, 30), (71.9999999, 9.0, 32),
    ])
    func zone(_ latitude: Double, _ longitude: Double, _ zone: Int) {
        #expect(GridPosition.zone(latitude: latitude, longitude: longitude) == zone)
    }

    /// Beyond 84°N and 80°S the grid is UPS, which stampcam does not write: no zone at all.
    @Test(arguments: [84.0, 89.9, 90.0, -80.0000001, -90.0, .nan])
    func polarRefused(_ latitude: Double) {
        #expect(GridPosition.zone(latitude: latitude, longitude: 10) == nil)
    }
}
