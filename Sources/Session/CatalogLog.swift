import Catalog
import Platform
import Synchronization

/// The catalog as a `PhotoLog`: the file is opened (created, upgraded) when the first photo is
/// logged, and opened again for a later photo when that failed (another program held it). A photo
/// that cannot be logged is counted, and each distinct problem is told once.
public final class CatalogLog: PhotoLog {
    public let path: String
    private let host: String?
    private let state = Mutex(State())

    private struct State {
        var catalog: Catalog?
        var told: Set<String> = []
        var missed = 0
    }

    /// `host` goes into every row (the machine's name by default).
    public init(path: String, host: String? = HostName.current) {
        self.path = path
        self.host = host
    }

    public func record(_ entry: CatalogEntry) -> String? {
        var entry = entry
        if entry.host == nil { entry.host = host }
        return state.withLock { state -> String? in
            do {
                let catalog = try state.catalog ?? Catalog(path: path)
                state.catalog = catalog
                try catalog.add(entry)
                return nil
            } catch {
                state.missed += 1
                let text = "not logged in the catalog: \(error)"
                return state.told.insert(text).inserted ? text : nil
            }
        }
    }

    public var chainHead: String? {
        state.withLock { state -> String? in
            guard let catalog = state.catalog ?? (try? Catalog(path: path)) else { return nil }
            state.catalog = catalog
            return try? catalog.chainHead
        }
    }

    /// Photos that were written but could not be logged.
    public var missed: Int { state.withLock { $0.missed } }
}
