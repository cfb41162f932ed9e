import Catalog

/// Where `PhotoWriter` reports each photo it has written: the catalog. Logging never fails or holds
/// up a photo for long: it runs after the photo is on disk, and a problem comes back as a line to
/// show, not an error.
public protocol PhotoLog: Sendable {
    /// Logs a photo just written. Returns what to tell the user when it could not be logged — once
    /// per distinct problem: nil again for the next photo with the same problem.
    func record(_ entry: CatalogEntry) -> String?
    /// The own hash of the log's newest row (`Catalog.chainHead`), for a signed photo to record;
    /// nil when there is none or it cannot be read.
    var chainHead: String? { get }
}

extension PhotoLog {
    public var chainHead: String? { nil }
}

/// A log and the command whose writes go into it.
public struct PhotoLogging: Sendable {
    public var log: any PhotoLog
    public var command: CatalogEntry.Command

    public init(log: any PhotoLog, command: CatalogEntry.Command) {
        self.log = log
        self.command = command
    }
}
