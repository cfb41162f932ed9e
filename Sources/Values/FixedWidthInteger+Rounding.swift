/// How a number from outside (a form field, EXIF, JSON, gpsd, a catalog row, the command line)
/// becomes an integer: `Int(x)` traps on NaN, ±infinity and any Double past the type's range, and
/// these never do.
extension FixedWidthInteger {
    /// `value` rounded by `rule` (to the nearest by default), or nil when that is no number this
    /// type holds: NaN, ±infinity, 1e308, past 2^63. -0 is 0.
    public init?(rounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        guard let exact = Self(exactly: value.rounded(rule)) else { return nil }
        self = exact
    }

    /// `value` rounded by `rule` and held to this type's range (±infinity to its ends); NaN is 0.
    /// For numbers that only have to stay in bounds, such as a size or a delay.
    public init(clamping value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        let rounded = value.rounded(rule)
        if rounded.isNaN {
            self = 0
        } else if rounded <= Double(Self.min) {
            self = Self.min
        } else if rounded >= Double(Self.max) {
            // Double(Int64.max) is 2^63, one past it: `>=` keeps the conversion below in range.
            self = Self.max
        } else {
            self = Self(rounded)
        }
    }
}
