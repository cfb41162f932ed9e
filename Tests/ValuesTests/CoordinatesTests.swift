import Testing
import Values

@Suite struct CoordinatesTests {
    @Test("headings name the nearest of eight points; 359.6° is north", arguments: [
        (0.0, "0° N"), (22.4, "22° N"), (22.5, "23° NE"), (90, "90° E"), (180, "180° S"), (247, "247° SW"), (300, "300° NW"),
        (337.4, "337° NW"), (337.6, "338° N"), (359.6, "0° N"), (-90, "270° W"), (720 + 45, "45° NE"),
    ] as [(Double, String)])
    func headings(_ degrees: Double, _ text: String) {
        #expect(Coordinates.heading(degrees) == text)
    }

    @Test("a position in decimal degrees and in degrees, minutes and seconds")
    func positions() {
        #expect(Coordinates.decimal(latitude: 48.8925, longitude: -2.35) == "48.89250° N, 2.35000° W")
        #expect(Coordinates.dms(latitude: -33.8568, longitude: 151.2153) == "33°51'24.5\"S 151°12'55.1\"E")
        #expect(Coordinates.dms(0.00001, positive: "N", negative: "S") == "0°00'00.0\"N")
    }

    @Test("fixed decimals: rounded, the sign kept only when something is left, huge values as Swift writes them", arguments: [
        (2.5, 2, "2.50"), (-2.5, 2, "-2.50"), (-0.0001, 2, "0.00"), (48.8584, 6, "48.858400"), (0.05, 1, "0.1"), (12.6, 0, "13"),
        (1e300, 6, "1e+300"), (-1e20, 2, "-1e+20"),
    ] as [(Double, Int, String)])
    func fixed(_ value: Double, _ places: Int, _ text: String) {
        #expect(fixedPoint(value, places: places) == text)
    }
}
