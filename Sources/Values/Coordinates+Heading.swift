extension Coordinates {
    /// `56° NE`: whole degrees clockwise from north and the nearest of the eight compass points.
    public static func heading(_ degrees: Double) -> String {
        var whole = Int(clamping: degrees.truncatingRemainder(dividingBy: 360)) % 360
        if whole < 0 { whole += 360 }
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        return "\(whole)° " + points[((whole * 2 + 45) / 90) % 8]
    }
}
