import Location
import Values

extension PhotoUploads.Position {
    /// Why a phone's position fields were refused: what to send instead.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// A phone's position from the texts of a form, read by the rules `--gps` reads a position
    /// with (decimal degrees and metres, no exponents or hex, latitude -90 to 90, longitude -180 to
    /// 180, altitude within `GPSMode.maxAltitude` of sea level), and an accuracy and an age that are
    /// plain decimal numbers from 0. Nil when the form gives no position at all.
    public static func parse(latitude: String?, longitude: String?, altitude: String?, accuracy: String?,
                             age: String?) throws(Refusal) -> Self? {
        guard latitude != nil || longitude != nil else {
            if altitude != nil || accuracy != nil || age != nil {
                throw Refusal(description: "'altitude', 'accuracy' and 'position_age' come with 'latitude' and 'longitude'")
            }
            return nil
        }
        guard let latitude, let longitude else { throw Refusal(description: "give 'latitude' and 'longitude' together") }
        let text = [latitude, longitude, altitude].compactMap { $0 }.joined(separator: ",")
        guard case .position(let lat, let lon, let alt)? = GPSMode(text) else {
            if GPSMode.numbers(text) != nil {
                throw Refusal(description: "'latitude' goes from -90 to 90, 'longitude' from -180 to 180, 'altitude' from "
                              + "-\(Int(GPSMode.maxAltitude)) to \(Int(GPSMode.maxAltitude)) metres")
            }
            throw Refusal(description: "'latitude', 'longitude' and 'altitude' are decimal numbers like 48.8584, 2.2945 and 35")
        }
        func measure(_ text: String?, _ name: String, most: Double) throws(Refusal) -> Double? {
            guard let text else { return nil }
            guard let value = decimalNumber(text), value.isFinite, (0...most).contains(value) else {
                throw Refusal(description: "'\(name)' is a decimal number of \(name == "accuracy" ? "metres" : "seconds") from 0 to \(Int(most))")
            }
            return value
        }
        let accuracy = try measure(accuracy, "accuracy", most: 1_000_000)
        let age = try measure(age, "position_age", most: 1_000_000_000)
        return Self(latitude: lat, longitude: lon, accuracy: accuracy, altitude: alt, ageSeconds: age ?? 0)
    }
}
