import Platform

/// Why the catalog could not be opened, read or written: the facts (which file, what SQLite
/// said); front ends add the advice.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be opened or created there (a read-only folder, a folder of that name …).
    case cannotOpen(path: String, reason: String)
    /// The file is something else: not an SQLite database, or another program's database.
    case notACatalog(path: String, reason: String)
    /// A newer stampcam made it: its schema is newer than the one this stampcam knows.
    case newerVersion(path: String, version: Int, supported: Int)
    /// Other programs kept it locked for longer than a write waits.
    case busy(path: String, seconds: Double)
    /// SQLite found the file damaged.
    case damaged(path: String, reason: String)
    /// Anything else SQLite refused: what was being done and SQLite's words.
    case failed(path: String, action: String, reason: String)

    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .notACatalog(let path, _), .newerVersion(let path, _, _), .busy(let path, _),
             .damaged(let path, _), .failed(let path, _, _):
            return path
        }
    }

    public var description: String {
        let place = PathEncoding.display(path)
        switch self {
        case .cannotOpen(_, let reason):
            return "\(place): cannot open the catalog: \(reason)"
        case .notACatalog(_, let reason):
            return "\(place): not a stampcam catalog: \(reason)"
        case .newerVersion(_, let version, let supported):
            return "\(place): the catalog has schema version \(version), made by a newer stampcam (this one knows up to \(supported))"
        case .busy(_, let seconds):
            return "\(place): the catalog stayed locked by another program for more than \(Self.number(seconds)) s"
        case .damaged(_, let reason):
            return "\(place): the catalog is damaged: \(reason)"
        case .failed(_, let action, let reason):
            return "\(place): catalog \(action) failed: \(reason)"
        }
    }

    private static func number(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String(value)
    }
}
