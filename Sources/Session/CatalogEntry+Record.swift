import Catalog
import Platform

extension CatalogEntry {
    /// The row of the photo at `path` (absolute) that carries `record`: what its stamp shows, its
    /// style, when it was stamped, its kept original (beside it). Values are kept as long as the
    /// photo's metadata keeps them.
    public init(path: String, size: Int, sha256: String, record: StampRecord, command: Command, source: String? = nil) {
        let fields = record.fields
        func cut(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value.count > StampRecord.maximumValueLength ? String(value.prefix(StampRecord.maximumValueLength)) : value
        }
        var originalPath: String?
        if let name = record.original, !name.isEmpty, !name.contains("/"), name != ".", name != ".." {
            originalPath = Self.folder(of: path) + "/" + name
        }
        self.init(path: path, size: size, sha256: sha256, command: command, originalPath: originalPath,
                  originalSHA256: record.originalSHA256.map { $0.lowercased() }.flatMap { Self.isDigest($0) ? $0 : nil },
                  time: fields.time, timeSource: fields.timeSource, user: cut(fields.user), project: cut(fields.project),
                  location: cut(fields.location), note: cut(fields.note), latitude: fields.latitude, longitude: fields.longitude,
                  altitude: fields.altitude, style: record.styleID, styleVersion: record.styleVersion, camera: cut(fields.camera),
                  source: source, stampedAt: record.stampedAt, extra: fields.extra.compactMapValues { cut($0) },
                  site: cut(fields.site), siteAddress: cut(fields.address),
                  heading: fields.heading.flatMap { $0.isFinite && (0...360).contains($0) ? ($0 == 360 ? 0 : $0) : nil })
        if let latitude, let longitude, !(latitude.isFinite && abs(latitude) <= 90 && longitude.isFinite && abs(longitude) <= 180) {
            self.latitude = nil
            self.longitude = nil
            self.altitude = nil
            self.heading = nil
        }
        if let altitude, !altitude.isFinite { self.altitude = nil }
        code = record.code
        // A camera time without a zone (and no --tz to put it in one): taken in this system's zone
        // to be ordered and found, flagged as assumed so `log --tz` can read it in another.
        if let time = fields.time, time.utcOffsetMinutes == nil {
            assumedOffsetMinutes = FieldPolicy.localOffsetMinutes(forWallTime: time)
        }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
