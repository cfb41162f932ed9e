import Catalog
import Imaging
import Library
import Platform

/// The catalog row a photo file makes of itself, read from the file alone: for `log --rebuild`
/// (photos stamped without a catalog, or whose row was lost) and for `report PHOTO...`.
public enum PhotoEntry {
    /// The row of the stamped photo at `path`, from its stampcam record (its XMP, else the sidecar
    /// beside it); nil when it has none (not stamped by stampcam, or an original).
    public static func recorded(_ path: String) throws -> CatalogEntry? {
        let file = try InputFile.photo(path, check: LoadOptions().check)
        let metadata = try Self.metadata(file)
        guard let record = Restamp.record(of: path, metadata: metadata) else { return nil }
        var entry = CatalogEntry(path: FileSystem.absolute(path), size: file.count, sha256: file.withUnsafeBytes { FileDigest.sha256($0) },
                                 record: record, command: .rebuild)
        // The record keeps no heading: the photo's EXIF (GPSImgDirection) does.
        if entry.position != nil, entry.heading == nil { entry.heading = metadata.gps?.heading }
        return entry
    }

    /// The row of any photo: its stampcam record when it has one, else what its EXIF says (time,
    /// artist, GPS, camera).
    public static func described(_ path: String) throws -> CatalogEntry {
        if let entry = try recorded(path) { return entry }
        let file = try InputFile.photo(path, check: LoadOptions().check)
        let metadata = try Self.metadata(file)
        let fields = FieldPolicy().fields(for: metadata, fileTime: FieldPolicy.fileTime(modified: file.status.modified))
        let record = StampRecord(styleID: "", styleName: "", styleVersion: 0, fields: fields, stampedAt: nil, software: "")
        var entry = CatalogEntry(path: FileSystem.absolute(path), size: file.count, sha256: file.withUnsafeBytes { FileDigest.sha256($0) },
                                 record: record, command: .rebuild)
        entry.style = nil
        entry.styleVersion = nil
        return entry
    }

    /// A JPEG's metadata read from its markers; a HEIC's or PNG's from a small decode, which is
    /// where libheif and Cairo give it.
    private static func metadata(_ file: FileContents) throws -> PhotoMetadata {
        if file.withUnsafeBytes({ ImageFormat.sniff($0) ?? .jpeg }) == .jpeg { return try PhotoMetadata(jpeg: file) }
        return try Photo(file: file, options: LoadOptions(maxSize: 64)).metadata
    }
}

/// `log --rebuild`: the rows the stamped photos under some folders say they are.
public enum CatalogRebuild {
    public struct Result: Sendable {
        /// JPEG files looked at.
        public var files = 0
        /// The rows of those stamped by stampcam.
        public var entries: [CatalogEntry] = []
        /// JPEGs without a stampcam record (originals, other photos).
        public var withoutRecord = 0
        /// Files and folders that could not be read, and why.
        public var failures: [(path: String, error: any Error)] = []
    }

    public static func scan(_ folders: [String]) -> Result {
        var result = Result()
        let found = PhotoFiles.list(folders) { path, error in result.failures.append((path, error)) }
        result.files = found.count
        for file in found {
            do {
                if let entry = try PhotoEntry.recorded(file.path) { result.entries.append(entry) } else { result.withoutRecord += 1 }
            } catch {
                result.failures.append((file.path, error))
            }
        }
        return result
    }
}
