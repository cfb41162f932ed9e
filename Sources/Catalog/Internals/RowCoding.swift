import FoundationEssentials
import Platform
import Values

/// Entries to row values and back. Reading trusts nothing: a row from another catalog file may hold
/// any type in any column; a row without a readable path, size, SHA-256 or command is left out, and
/// other values that do not make sense (a latitude of 1000, a time that is not a time) are dropped.
enum RowCoding {
    /// The most characters kept of a text value (what a photo's metadata keeps).
    static let maximumText = 2000

    /// `entry` as the values of `Schema.columns`, in order.
    static func values(_ entry: CatalogEntry) -> [SQLValue] {
        let utc = entry.instant
        let assumed = entry.zoneIsAssumed
        let offset = assumed ? entry.assumedOffsetMinutes.map { Timestamp(secondsSinceEpoch: 0, utcOffsetMinutes: $0).exifOffset }
            : entry.time.flatMap(zone)
        return [
            path(entry.path), .integer(Int64(entry.size)), .text(entry.sha256), entry.originalPath.map(path) ?? .null,
            text(entry.originalSHA256), text(entry.time?.iso8601), utc.map { .integer(Int64($0)) } ?? .null,
            text(offset), text(entry.timeSource), text(entry.user), text(entry.project),
            text(entry.location), text(entry.note), real(entry.latitude), real(entry.longitude), real(entry.altitude),
            text(entry.style), entry.styleVersion.map { .integer(Int64($0)) } ?? .null, text(entry.camera),
            entry.source.map(path) ?? .null, .text(entry.command.rawValue), text(entry.host), text(entry.stampedAt?.iso8601),
            entry.extra.isEmpty ? .null : text(json(entry.extra)), entry.loggedAt.map { .integer(Int64($0)) } ?? .null,
            assumed ? .integer(1) : .null, text(entry.site), text(entry.siteAddress), real(entry.heading.flatMap(compass)),
        ]
    }

    /// A path as text, or as the bytes of its name when they are not UTF-8.
    static func path(_ path: String) -> SQLValue {
        PathEncoding.hasRawBytes(path) ? .blob(PathEncoding.encode(path)) : .text(path)
    }

    private static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }

    private static func real(_ value: Double?) -> SQLValue {
        guard let value, value.isFinite else { return .null }
        return .real(value)
    }

    /// A heading as 0 up to 360 degrees; nil when it is none (360 is north, as 0).
    static func compass(_ degrees: Double) -> Double? {
        guard degrees.isFinite, (0...360).contains(degrees) else { return nil }
        return degrees == 360 ? 0 : degrees
    }

    /// `+08:00`, `-03:30`, `+00:00`; nil when the offset is unknown.
    static func zone(_ time: Timestamp) -> String? {
        time.utcOffsetMinutes == nil ? nil : time.exifOffset
    }

    private static func json(_ values: [String: String]) -> String? {
        try? JSONOutput.line(values)
    }

    // MARK: reading

    /// Where each column is in a query's rows.
    struct Columns {
        let index: [String: Int]

        init(_ names: [String]) {
            var index: [String: Int] = [:]
            for (position, name) in names.enumerated() { index[name] = position }
            self.index = index
        }
    }

    /// The entry in the statement's current row, whose columns are `columns`; nil when the row
    /// does not make sense.
    static func entry(_ row: SQLiteStatement, columns: Columns) -> CatalogEntry? {
        let index = columns.index
        func value(_ name: String) -> SQLValue { index[name].map(row.column) ?? .null }
        func string(_ name: String) -> String? {
            guard case .text(let text) = value(name), !text.isEmpty else { return nil }
            return text.count > maximumText ? String(text.prefix(maximumText)) : text
        }
        func filePath(_ name: String) -> String? {
            guard let position = index[name], let bytes = row.bytes(position), !bytes.isEmpty, !bytes.contains(0) else { return nil }
            return PathEncoding.decode(bytes)
        }
        func number(_ name: String, within range: ClosedRange<Double>) -> Double? {
            let number: Double
            switch value(name) {
            case .real(let real): number = real
            case .integer(let integer): number = Double(integer)
            default: return nil
            }
            return number.isFinite && range.contains(number) ? number : nil
        }
        func integer(_ name: String) -> Int? {
            guard case .integer(let integer) = value(name) else { return nil }
            return Int(exactly: integer)
        }
        guard let path = filePath("path"), let size = integer("size"), size >= 0,
              let sha256 = string("sha256"), CatalogEntry.isDigest(sha256),
              let command = string("command").flatMap(CatalogEntry.Command.init(rawValue:)) else { return nil }
        var entry = CatalogEntry(path: path, size: size, sha256: sha256, command: command)
        entry.originalPath = filePath("original_path")
        entry.originalSHA256 = string("original_sha256").flatMap { CatalogEntry.isDigest($0) ? $0 : nil }
        entry.time = string("time").flatMap(Timestamp.init(iso8601:))
        entry.timeSource = string("time_source")
        if integer("zone_assumed") == 1, entry.time?.utcOffsetMinutes == nil,
           let zone = string("zone"), let offset = Timestamp(iso8601: "2000-01-01T00:00:00" + zone)?.utcOffsetMinutes {
            entry.assumedOffsetMinutes = offset
        }
        entry.user = string("user")
        entry.project = string("project")
        entry.location = string("location")
        entry.note = string("note")
        entry.site = string("site")
        entry.siteAddress = string("site_address")
        if let latitude = number("latitude", within: -90...90), let longitude = number("longitude", within: -180...180) {
            entry.latitude = latitude
            entry.longitude = longitude
            entry.altitude = number("altitude", within: -1e6...1e6)
        }
        entry.heading = number("heading", within: 0...360).flatMap(compass)
        entry.style = string("style")
        entry.styleVersion = integer("style_version")
        entry.camera = string("camera")
        entry.source = filePath("source")
        entry.host = string("host")
        entry.stampedAt = string("stamped_at").flatMap(Timestamp.init(iso8601:))
        if case .text(let text) = value("extra"),
           let values = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) {
            entry.extra = values.filter { !$0.key.isEmpty }
        }
        entry.loggedAt = integer("logged_at")
        entry.code = code(row, columns: columns)
        return entry
    }

    /// Whether the row's stored columns are exactly what `entry`, the row as read, is written as.
    /// A column the reader derives or drops (`time_utc`, `zone`, a latitude without its longitude)
    /// is not in the entry a hash is made of: changed behind stampcam's back, it shows here. A text
    /// longer than the reader keeps is left to the hash of what it keeps.
    static func storedAsWritten(_ row: SQLiteStatement, columns: Columns, entry: CatalogEntry) -> Bool {
        for (name, written) in zip(Schema.columns, values(entry)) {
            guard let at = columns.index[name] else { continue }
            let stored = row.column(at)
            if stored == written { continue }
            if case .text(let text) = stored, text.count > maximumText { continue }
            return false
        }
        return true
    }

    /// The chain link in the statement's current row; nil when it has none. `sealed`: its own hash
    /// must be there too (it is not yet while a link is being made).
    static func link(_ row: SQLiteStatement, columns: Columns, sealed: Bool = true) -> ChainLink? {
        func hash(_ name: String) -> String? {
            guard let position = columns.index[name], case .text(let text) = row.column(position), isHash(text) else { return nil }
            return text
        }
        guard let at = columns.index["chain"], case .text(let chain) = row.column(at), !chain.isEmpty,
              let place = columns.index["link"], case .integer(let position) = row.column(place), position > 0,
              let previous = hash("previous_hash") else { return nil }
        let own = hash("row_hash")
        if sealed && own == nil { return nil }
        return ChainLink(chain: chain, position: Int(position), previous: previous, own: own ?? "", supersedes: hash("supersedes"))
    }

    /// The photo's code in the statement's current row.
    static func code(_ row: SQLiteStatement, columns: Columns) -> String? {
        guard let at = columns.index["code"], case .text(let code) = row.column(at), !code.isEmpty else { return nil }
        return code
    }

    /// 64 lowercase hex digits.
    static func isHash(_ text: String) -> Bool { CatalogEntry.isDigest(text) }
}
