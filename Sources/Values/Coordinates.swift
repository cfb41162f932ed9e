/// Formats a position for people.
public enum Coordinates {
    /// `48.89250° N, 2.35000° E` — five decimals are about a metre.
    public static func decimal(latitude: Double, longitude: Double) -> String {
        "\(fixedPoint(abs(latitude), places: 5))° \(latitude < 0 ? "S" : "N"), \(fixedPoint(abs(longitude), places: 5))° \(longitude < 0 ? "W" : "E")"
    }

    /// `48°53'33.0"N 2°21'00.0"E`
    public static func dms(latitude: Double, longitude: Double) -> String {
        dms(latitude, positive: "N", negative: "S") + " " + dms(longitude, positive: "E", negative: "W")
    }

    /// One angle as degrees, minutes and seconds with the letter of its side: `48°53'33.0"N`.
    public static func dms(_ value: Double, positive: String, negative: String) -> String {
        let tenths = Int(clamping: abs(value) * 36000)  // tenths of an arc second
        let degrees = tenths / 36000, minutes = (tenths / 600) % 60, seconds = tenths % 600
        let secondsText = (seconds < 100 ? "0" : "") + "\(seconds / 10).\(seconds % 10)"
        return "\(degrees)°\(zeroPadded(minutes))'\(secondsText)\"\(value < 0 ? negative : positive)"
    }
}
