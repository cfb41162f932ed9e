/// Formats a position for people.
public enum Coordinates {
    /// `48.89250° N, 2.35000° E` — five decimals are about a metre.
    public static func decimal(latitude: Double, longitude: Double) -> String {
        "\(fixed(abs(latitude), 5))° \(latitude < 0 ? "S" : "N"), \(fixed(abs(longitude), 5))° \(longitude < 0 ? "W" : "E")"
    }

    /// `48°53'33.0"N 2°21'00.0"E`
    public static func dms(latitude: Double, longitude: Double) -> String {
        dms(latitude, positive: "N", negative: "S") + " " + dms(longitude, positive: "E", negative: "W")
    }

    static func dms(_ value: Double, positive: String, negative: String) -> String {
        let tenths = Int((abs(value) * 36000).rounded())  // tenths of an arc second
        let degrees = tenths / 36000, minutes = (tenths / 600) % 60, seconds = tenths % 600
        let secondsText = (seconds < 100 ? "0" : "") + "\(seconds / 10).\(seconds % 10)"
        return "\(degrees)°\(zeroPadded(minutes))'\(secondsText)\"\(value < 0 ? negative : positive)"
    }

    /// `value` with exactly `decimals` digits after the point.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals == 0 ? "\(sign)\(scaled)" : "\(sign)\(scaled / scale).\(zeroPadded(scaled % scale, decimals))"
    }
}
