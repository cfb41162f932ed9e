extension Coordinates {
    /// `56° NE`: whole degrees clockwise from north and the nearest of the eight compass points
    /// (`points`: their names from north clockwise, in the stamp's language).
    public static func heading(_ degrees: Double, points: [String] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]) -> String {
        var whole = Int(clamping: degrees.truncatingRemainder(dividingBy: 360)) % 360
        if whole < 0 { whole += 360 }
        let point = ((whole * 2 + 45) / 90) % 8
        return "\(whole)° " + (points.indices.contains(point) ? points[point] : "")
    }
}
