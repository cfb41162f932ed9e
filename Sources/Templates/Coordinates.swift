/// Formats a position for people.
public enum Coordinates {
    /// `48.89250° N, 2.35000° E` — five decimals are about a metre.
    public static func decimal(latitude: Double, longitude: Double) -> String {
        "\(fixed(abs(latitude), 5))° \(latitude < 0 ? "S" : "N"), \(fixed(abs(longitude), 5))° \(longitude < 0 ? "W" : "E")"
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var digits = String(fraction)
        while digits.count < decimals { digits = "0" + digits }
        return decimals == 0 ? "\(whole)" : "\(whole).\(digits)"
    }
}
