/// A position on the UTM grid (WGS 84), and its MGRS reference. Covers 80°S to 84°N: the polar
/// caps use UPS, which stampcam does not write.
public struct GridPosition: Sendable, Equatable {
    /// 1…60, with the Norway and Svalbard exceptions (see `zone(latitude:longitude:)`).
    public var zone: Int
    public var isNorth: Bool
    /// Metres, false easting and (south) false northing included.
    public var easting: Double
    public var northing: Double
    /// Degrees; picks the MGRS latitude band.
    public var latitude: Double

    public init(zone: Int, isNorth: Bool, easting: Double, northing: Double, latitude: Double) {
        self.zone = zone
        self.isNorth = isNorth
        self.easting = easting
        self.northing = northing
        self.latitude = latitude
    }

    /// Whether UTM covers `latitude`: 80°S up to, not including, 84°N.
    public static func covers(latitude: Double) -> Bool { latitude >= -80 && latitude < 84 }

    /// The UTM zone of a position, nil outside UTM's latitudes: the 6° zone, but 32 for all of
    /// southern Norway's band V and, in band X, only the odd zones 31–37 around Svalbard.
    public static func zone(latitude: Double, longitude: Double) -> Int? {
        guard covers(latitude: latitude), longitude.isFinite else { return nil }
        var lon = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if lon < 0 { lon += 360 }
        lon -= 180
        var zone = min(60, Int(((lon + 180) / 6).rounded(.down)) + 1)
        if latitude >= 56 && latitude < 64 && lon >= 3 && lon < 12 { zone = 32 }
        if latitude >= 72 && lon >= 0 && lon < 42 {
            zone = lon < 9 ? 31 : lon < 21 ? 33 : lon < 33 ? 35 : 37
        }
        return zone
    }

    /// Metres cut to a whole number, after rounding to the micrometre: a projection is exact to
    /// nanometres, so 499999.99999999994 is on the 500 km line, not a metre short of it.
    private static func wholeMetres(_ metres: Double) -> Int {
        guard metres.isFinite, abs(metres) < 1e9 else { return 0 }
        let micrometres = Int((metres * 1_000_000).rounded())
        return micrometres >= 0 ? micrometres / 1_000_000 : -((-micrometres + 999_999) / 1_000_000)
    }

    /// The zone in two digits (`05`), as MGRS writes it and GeoConvert prints it.
    private var zoneText: String { zone < 10 ? "0\(zone)" : "\(zone)" }

    /// `51N 354634 3456141`: zone, hemisphere, easting and northing to the nearest metre.
    public var utmText: String {
        "\(zoneText)\(isNorth ? "N" : "S") \(Int(clamping: easting)) \(Int(clamping: northing))"
    }

    /// `51RUQ 54633 56140`: zone, latitude band, 100 km square, then `digits` (0…5) digits each of
    /// easting and northing within the square. Digits are cut, not rounded, as the standard says:
    /// a reference names the square the position is in.
    public func mgrs(digits: Int = 5) -> String {
        let bands = Array("CDEFGHJKLMNPQRSTUVWX")
        let columns = [Array("ABCDEFGH"), Array("JKLMNPQR"), Array("STUVWXYZ")]
        let rows = Array("ABCDEFGHJKLMNPQRSTUV")
        let band = bands[max(0, min(bands.count - 1, Int(((latitude + 80) / 8).rounded(.down))))]
        let east = Self.wholeMetres(easting), north = Self.wholeMetres(northing)
        let column = columns[(zone - 1) % 3][max(0, min(7, east / 100_000 - 1))]
        // Even zones start their rows five letters on, so squares of neighbouring zones differ.
        let row = rows[(north / 100_000 + (zone % 2 == 0 ? 5 : 0)) % rows.count]
        var text = "\(zoneText)\(band)\(column)\(row)"
        let digits = max(0, min(5, digits))
        guard digits > 0 else { return text }
        var divisor = 1
        for _ in 0..<(5 - digits) { divisor *= 10 }
        func part(_ metres: Int) -> String {
            let value = String((metres % 100_000) / divisor)
            return String(repeating: "0", count: digits - value.count) + value
        }
        text += " \(part(east)) \(part(north))"
        return text
    }
}
