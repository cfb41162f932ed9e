import Testing
import Values

/// The one way a number from outside becomes an integer: checked (nil) or clamped, never a trap.
@Suite struct IntegerRoundingTests {
    @Test("checked: nil for what no Int holds, the rounded number for the rest", arguments: [
        (Double.nan, nil), (.infinity, nil), (-.infinity, nil), (1e308, nil), (-1e308, nil), (1e19, nil),
        (9_223_372_036_854_775_808.0, nil), (-9_223_372_036_854_775_808.0, Int.min), (-0.0, 0), (0.5, 1), (-0.5, -1),
        (2.4, 2), (9_007_199_254_740_992.0, 9_007_199_254_740_992),
    ] as [(Double, Int?)])
    func checked(_ value: Double, _ expected: Int?) {
        #expect(Int(rounding: value) == expected, "\(value)")
    }

    @Test("clamped: the ends of the range for what is past them, 0 for NaN")
    func clamped() {
        #expect(Int(clamping: Double.nan) == 0)
        #expect(Int(clamping: Double.infinity) == .max)
        #expect(Int(clamping: -Double.infinity) == .min)
        #expect(Int(clamping: 1e19) == .max)
        #expect(Int(clamping: 9_223_372_036_854_775_808.0) == .max)
        #expect(Int(clamping: -1e308) == .min)
        #expect(Int(clamping: -0.0) == 0)
        #expect(Int(clamping: 7.5) == 8)
        #expect(Int(clamping: 7.9, rounding: .down) == 7)
        #expect(Int32(clamping: 3e9) == .max)
        #expect(UInt8(clamping: -3.0) == 0)
        #expect(UInt64(clamping: 1e20) == .max)
        #expect(UInt32(rounding: 4_294_967_296.0) == nil)
        #expect(UInt32(rounding: 4_294_967_295.0) == .max)
    }

    @Test("the texts made from hostile numbers: a position, a heading, a grid reference")
    func texts() {
        for value in [Double.nan, .infinity, -.infinity, 1e308, -1e308, 1e19, -0.0] {
            _ = Coordinates.dms(value, positive: "N", negative: "S")
            _ = Coordinates.heading(value)
            _ = Coordinates.decimal(latitude: value, longitude: value)
        }
        #expect(Coordinates.heading(-0.0) == "0° N")
        #expect(Coordinates.heading(.infinity) == "0° N")
    }
}
