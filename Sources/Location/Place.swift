/// A populated place of the gazetteer: a town or city, its region and country.
public struct Place: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    /// The first-level region (state, province …), when known.
    public var region: String
    /// ISO 3166 country code, `FI`.
    public var country: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, region: String, country: String, latitude: Double, longitude: Double) {
        self.name = name
        self.region = region
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `Helsinki, Uusimaa, FI`: what `{place}` shows (a region named like the town is said once).
    public var description: String {
        var parts = [name]
        if !region.isEmpty && region != name { parts.append(region) }
        if !country.isEmpty { parts.append(country) }
        return parts.joined(separator: ", ")
    }
}
