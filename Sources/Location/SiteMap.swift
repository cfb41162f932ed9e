import Platform

/// The sites of a GeoJSON file (RFC 7946): which one a position is on. Polygons and multipolygons
/// (with holes) contain it, or points with a `radius` property (metres) are near enough.
///
/// When several contain a position: the smallest polygon, the nearest point; between a polygon and
/// a point, the smaller of the polygon's area and the point's circle — the most specific place wins.
public struct SiteMap: Sendable, Equatable {
    public let sites: [Site]
    /// The file's name as given, for messages.
    public let file: String
    /// Problems that do not stop the file being used (named like errors).
    public let warnings: [String]

    /// A sites file is drawn by hand or exported from a map: 32 MB is far more than one needs.
    public static let maxFileSize = 32 << 20
    /// Corners in all rings of a file together.
    public static let maxPositions = 1_000_000
    /// The largest radius a point site may have, metres.
    public static let maxRadius = 100_000.0

    /// Reads and checks `path`.
    public init(contentsOf path: String) throws(SiteError) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(FilePath(path), limit: Self.maxFileSize)
        } catch {
            throw .cannotRead(file: PathEncoding.display(path), reason: Self.reason(error))
        }
        try self.init(geoJSON: bytes, file: PathEncoding.display(path))
    }

    public init(geoJSON bytes: [UInt8], file: String) throws(SiteError) {
        guard bytes.count <= Self.maxFileSize else {
            throw .cannotRead(file: file, reason: "larger than \(Self.maxFileSize >> 20) MB")
        }
        let parsed = try GeoJSONSites(bytes: bytes, file: file)
        sites = parsed.sites
        warnings = parsed.warnings
        self.file = file
    }

    /// The site at a position, or nil.
    public func site(latitude: Double, longitude: Double) -> Site? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        var polygon: Site?, circle: (site: Site, distance: Double)?
        for site in sites {
            switch site.shape {
            case .circle(let centreLatitude, let centreLongitude, let radius):
                let distance = Geodesy.distance(latitude: latitude, longitude: longitude,
                                                latitude: centreLatitude, longitude: centreLongitude)
                if distance <= radius, distance < circle?.distance ?? .infinity { circle = (site, distance) }
            case .polygons(let polygons):
                if site.area < polygon?.area ?? .infinity,
                   polygons.contains(where: { $0.contains(latitude: latitude, longitude: longitude) }) {
                    polygon = site
                }
            }
        }
        switch (polygon, circle) {
        case (let polygon?, let circle?): return circle.site.area < polygon.area ? circle.site : polygon
        case (let polygon?, nil): return polygon
        case (nil, let circle?): return circle.site
        case (nil, nil): return nil
        }
    }

    private static func reason(_ error: FileSystem.ReadError) -> String {
        switch error {
        case .system(let errno): return errno.reason
        case .notRegular(let kind): return "it is \(kind), not a GeoJSON file"
        case .tooLarge(let size, let limit): return "\(size) bytes is more than a sites file may have (\(limit))"
        }
    }
}
