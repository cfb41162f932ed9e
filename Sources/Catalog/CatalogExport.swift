import Platform
import Values

/// The catalog's photos as files other programs open: CSV for spreadsheets, GeoJSON for QGIS and
/// geojson.io, KML and KMZ (KML with the pictures inside) for Google Earth. Paths that are not UTF-8 are written as they are shown
/// (`caf\xE9.jpg`): these formats hold text only.
public enum CatalogExport {
    public enum Format: String, Sendable, CaseIterable {
        case csv, geojson, kml
    }

    /// An export's bytes and how many photos went in; photos without coordinates are left out of
    /// GeoJSON and KML (a map has no place for them).
    public struct Result: Sendable {
        public var bytes: [UInt8]
        public var written: Int
        public var leftOut: Int
    }

    public static func export(_ entries: [CatalogEntry], as format: Format) throws(CatalogExportError) -> Result {
        switch format {
        case .csv: return Result(bytes: csv(entries), written: entries.count, leftOut: 0)
        case .geojson: return try geoJSON(entries)
        case .kml: return try kml(entries)
        }
    }

    /// Decimal places of exported coordinates: 7 is about 1 cm.
    static let coordinatePlaces = 7

    // MARK: CSV

    /// The columns, in order; the `--set` values follow as `set:KEY` columns. The zone is part of
    /// the time (`2026-11-29T14:03:12+08:00`): a cell of its own (`+08:00`) is read as a formula.
    public static let csvColumns = [
        "path", "time", "time_source", "time_utc", "zone_assumed", "user", "project", "location", "site", "site_address", "note",
        "latitude", "longitude", "altitude", "heading",
        "style", "style_version", "camera", "source", "command", "host", "size", "sha256", "original", "original_sha256",
        "stamped_at", "code",
    ]

    /// RFC 4180: a header line, CRLF line ends, a field in double quotes when it holds a comma, a
    /// quote or a line break (quotes doubled). Text a spreadsheet would run as a formula (starting
    /// with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, the OWASP advice
    /// against CSV injection; numbers are written as numbers.
    public static func csv(_ entries: [CatalogEntry]) -> [UInt8] {
        let extraKeys = Set(entries.flatMap(\.extra.keys)).sorted()
        var text = (csvColumns + extraKeys.map { "set:" + $0 }).map(csvField).joined(separator: ",") + "\r\n"
        for entry in entries {
            let texts: [String?] = [
                display(entry.path), entry.time?.iso8601, entry.timeSource, entry.user,
                entry.project, entry.location, entry.site, entry.siteAddress, entry.note,
            ]
            var fields = texts.map { csvText($0) }
            fields.insert(contentsOf: [utc(entry) ?? "", entry.zoneIsAssumed ? "yes" : ""], at: 3)
            fields += [entry.latitude, entry.longitude].map { $0.map { fixedPoint($0, places: coordinatePlaces) } ?? "" }
            fields.append(entry.altitude.map { fixedPoint($0, places: 2) } ?? "")
            fields.append(entry.heading.map { fixedPoint($0, places: 1) } ?? "")
            fields.append(csvText(entry.style))
            fields.append(entry.styleVersion.map(String.init) ?? "")
            fields += [entry.camera, entry.source.map(display), entry.command.rawValue, entry.host].map { csvText($0) }
            fields.append(String(entry.size))
            fields.append(entry.sha256)
            fields.append(csvText(entry.originalPath.map(display)))
            fields.append(entry.originalSHA256 ?? "")
            fields.append(entry.stampedAt?.iso8601 ?? "")
            fields.append(entry.code ?? "")
            fields += extraKeys.map { csvText(entry.extra[$0]) }
            text += fields.map(csvField).joined(separator: ",") + "\r\n"
        }
        return Array(text.utf8)
    }

    /// The instant the photo was taken in UTC (`2026-11-29T06:03:12Z`), its zone assumed when the
    /// camera wrote none: one column that sorts in the order taken.
    static func utc(_ entry: CatalogEntry) -> String? {
        entry.instant.map { Timestamp(secondsSinceEpoch: $0, utcOffsetMinutes: 0).iso8601 }
    }

    /// UTF-8's byte order mark: how Excel knows a CSV is UTF-8 (`export --csv --excel`).
    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A text value made safe from spreadsheet formulas.
    static func csvText(_ value: String?) -> String {
        guard let value, let first = value.unicodeScalars.first else { return "" }
        return ["=", "+", "-", "@", "\t", "\r"].contains(first) ? "'" + value : value
    }

    static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return field }
        return "\"" + field.replacing("\"", with: "\"\"") + "\""
    }

    /// A path as text: bytes that are not UTF-8 and control characters as `\xNN`.
    static func display(_ path: String) -> String { PathEncoding.display(path) }

    // MARK: GeoJSON

    private struct FeatureCollection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
    }

    private struct Feature: Encodable {
        let type = "Feature"
        let geometry: Point
        let properties: Record
    }

    private struct Point: Encodable {
        let type = "Point"
        /// RFC 7946 §3.1.1: longitude, latitude, then altitude.
        let coordinates: [Double]
    }

    /// One photo's row as a JSON object, for `log --json` lines and GeoJSON properties: every field,
    /// paths shown as text (bytes that are not UTF-8 as `\xNN`).
    private struct Record: Encodable {
        let path: String
        let name: String
        let size: Int
        let sha256: String
        let original: String?
        let original_sha256: String?
        let time: String?
        let zone: String?
        let time_source: String?
        let time_utc: String?
        let zone_assumed: Bool?
        let user: String?
        let project: String?
        let location: String?
        let site: String?
        let site_address: String?
        let note: String?
        let latitude: Double?
        let longitude: Double?
        let altitude: Double?
        /// Which way the camera faced: degrees clockwise from north.
        let heading: Double?
        let style: String?
        let style_version: Int?
        let camera: String?
        let source: String?
        let command: String
        let host: String?
        let stamped_at: String?
        let set: [String: String]?
        let logged_at: Int?
        /// The verification code the stamp shows.
        let code: String?

        init(_ entry: CatalogEntry) {
            path = display(entry.path)
            name = display(lastComponent(entry.path))
            size = entry.size
            sha256 = entry.sha256
            original = entry.originalPath.map(display)
            original_sha256 = entry.originalSHA256
            time = entry.time?.iso8601
            zone = entry.time.flatMap(RowCoding.zone)
            time_source = entry.timeSource
            time_utc = utc(entry)
            zone_assumed = entry.zoneIsAssumed ? true : nil
            user = entry.user
            project = entry.project
            location = entry.location
            site = entry.site
            site_address = entry.siteAddress
            note = entry.note
            latitude = entry.latitude
            longitude = entry.longitude
            altitude = entry.altitude
            heading = entry.heading
            style = entry.style
            style_version = entry.styleVersion
            camera = entry.camera
            source = entry.source.map(display)
            command = entry.command.rawValue
            host = entry.host
            stamped_at = entry.stampedAt?.iso8601
            set = entry.extra.isEmpty ? nil : entry.extra
            logged_at = entry.loggedAt
            code = entry.code
        }
    }

    /// `log --json`: one photo as one line of JSON.
    public static func jsonLine(_ entry: CatalogEntry) -> String {
        (try? JSONOutput.line(Record(entry))) ?? "{}"
    }

    /// An RFC 7946 FeatureCollection of Points, one per photo with coordinates.
    public static func geoJSON(_ entries: [CatalogEntry]) throws(CatalogExportError) -> Result {
        var features: [Feature] = []
        for entry in entries {
            guard let position = entry.position else { continue }
            var coordinates = [rounded(position.longitude), rounded(position.latitude)]
            if let altitude = entry.altitude { coordinates.append((altitude * 100).rounded() / 100) }
            features.append(Feature(geometry: Point(coordinates: coordinates), properties: Record(entry)))
        }
        do {
            let bytes = try JSONOutput.encoded(FeatureCollection(features: features))
            return Result(bytes: bytes + [0x0A], written: features.count, leftOut: entries.count - features.count)
        } catch {
            throw .cannotWrite(format: .geojson, reason: "\(error)")
        }
    }

    private static func rounded(_ degrees: Double) -> Double {
        var scale = 1.0
        for _ in 0..<coordinatePlaces { scale *= 10 }
        return (degrees * scale).rounded() / scale
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    // MARK: KML

    /// A KML 2.2 document: one Placemark per photo with coordinates, its fields as ExtendedData,
    /// and where the heading is known a Camera standing there looking that way.
    public static func kml(_ entries: [CatalogEntry]) throws(CatalogExportError) -> Result {
        try kml(entries) { _ in nil }
    }

    /// The KML with `picture(i)`, the name in the archive of entry i's picture, shown in its description.
    static func kml(_ entries: [CatalogEntry], picture: (Int) -> String?) throws(CatalogExportError) -> Result {
        guard let document = KMLDocument(name: "stampcam photos") else {
            throw .cannotWrite(format: .kml, reason: "libxml2 could not make a document")
        }
        var written = 0
        for (index, entry) in entries.enumerated() {
            guard let position = entry.position else { continue }
            let summary = [entry.time?.iso8601, entry.user, entry.project, entry.place, entry.note].compactMap { $0 }
            var data: [(String, String)] = [("path", display(entry.path))]
            let optional: [(String, String?)] = [
                ("time", entry.time?.iso8601), ("time_source", entry.timeSource), ("user", entry.user), ("project", entry.project),
                ("location", entry.location), ("site", entry.site), ("site_address", entry.siteAddress), ("note", entry.note), ("style", entry.style), ("camera", entry.camera),
                ("command", entry.command.rawValue), ("host", entry.host), ("sha256", entry.sha256), ("code", entry.code),
            ]
            for (name, value) in optional { if let value { data.append((name, value)) } }
            if let heading = entry.heading { data.append(("heading", fixedPoint(heading, places: 1))) }
            for key in entry.extra.keys.sorted() { data.append(("set:" + key, entry.extra[key] ?? "")) }
            var coordinates = fixedPoint(position.longitude, places: coordinatePlaces) + ","
                + fixedPoint(position.latitude, places: coordinatePlaces)
            if let altitude = entry.altitude { coordinates += "," + fixedPoint(altitude, places: 2) }
            let view = entry.heading.map {
                KMLDocument.View(longitude: fixedPoint(position.longitude, places: coordinatePlaces),
                                 latitude: fixedPoint(position.latitude, places: coordinatePlaces), heading: fixedPoint($0, places: 1))
            }
            guard document.addPlacemark(name: display(lastComponent(entry.path)), description: summary.joined(separator: " · "),
                                        picture: picture(index), view: view, when: entry.time?.iso8601, data: data,
                                        coordinates: coordinates) else {
                throw .cannotWrite(format: .kml, reason: "libxml2 could not add a placemark")
            }
            written += 1
        }
        guard let bytes = document.serialized() else { throw .cannotWrite(format: .kml, reason: "libxml2 could not write the document") }
        return Result(bytes: bytes, written: written, leftOut: entries.count - written)
    }

    // MARK: KMZ

    /// Where entry i's picture goes in a KMZ.
    public static func kmzPicture(_ index: Int) -> String { "files/\(index + 1).jpg" }

    /// A KMZ archive written at `path` (a new file in a folder the caller owns): `doc.kml` first,
    /// as Google Earth wants it, then the pictures. `pictures` holds the JPEG file of each entry
    /// that has one, by its index in `entries`; a photo without one is a placemark without a picture.
    /// The files are read one at a time as the archive is written. `Result.bytes` is empty.
    public static func kmz(_ entries: [CatalogEntry], pictures: [Int: String], to path: String) throws(CatalogExportError) -> Result {
        let shown = pictures.filter { entries.indices.contains($0.key) && entries[$0.key].position != nil }
        let document = try kml(entries) { shown[$0] == nil ? nil : kmzPicture($0) }
        let archive = try ZipArchive(path: path)
        try archive.add("doc.kml", bytes: document.bytes)
        for index in shown.keys.sorted() { try archive.add(kmzPicture(index), file: shown[index]!) }
        try archive.close()
        return Result(bytes: [], written: document.written, leftOut: document.leftOut)
    }
}

/// An export that could not be made.
public enum CatalogExportError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotWrite(format: CatalogExport.Format, reason: String)
    /// libzip could not write a KMZ (a full disk, a folder that went away).
    case cannotWriteArchive(reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let format, let reason): return "cannot write \(format.rawValue): \(reason)"
        case .cannotWriteArchive(let reason): return "cannot write the KMZ archive: \(reason)"
        }
    }
}
