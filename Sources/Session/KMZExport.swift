import Catalog
import Imaging
import Library
import Platform

/// `export --kmz`: the logged photos as a KMZ for Google Earth, each placemark showing a small
/// picture made from the stamped photo on disk.
public enum KMZExport {
    /// The long side of each picture: the stamp stays readable in Google Earth's balloon.
    public static let pictureSize = 640

    public struct Result: Sendable {
        /// The finished archive, in the scratch folder.
        public var archive: String
        /// Placemarks written, and photos left out for having no coordinates.
        public var written = 0, leftOut = 0
        /// Photos placed on the map without a picture (gone from disk, or unreadable), and why.
        public var missing: [(path: String, reason: String)] = []
    }

    /// Writes the KMZ of `entries` in `scratch`; `target` is the file the user asked for, named by
    /// errors. The pictures are made one at a time and wait on disk, so any number of photos fits
    /// in memory.
    public static func write(_ entries: [CatalogEntry], in scratch: ScratchFolder, target: String) throws -> Result {
        var pictures: [Int: String] = [:]
        var missing: [(path: String, reason: String)] = []
        for (index, entry) in entries.enumerated() where entry.position != nil {
            let jpeg: [UInt8]
            do {
                jpeg = try picture(of: entry)
            } catch {
                missing.append((entry.path, "\(error)"))
                continue
            }
            let name = "\(index + 1).jpg"
            try scratch.write(jpeg, as: name, for: target)
            pictures[index] = scratch.file(name)
        }
        let archive = scratch.file("archive.kmz")
        do {
            let exported = try CatalogExport.kmz(entries, pictures: pictures, to: archive)
            return Result(archive: archive, written: exported.written, leftOut: exported.leftOut, missing: missing)
        } catch {
            throw FileError.io(path: target, reason: "write failed: \(error) (nothing was written under this name)")
        }
    }

    /// The logged photo, upright and shrunk on load, as a JPEG without its metadata; never a file
    /// put in its place since (its SHA-256 is not the logged one).
    static func picture(of entry: CatalogEntry) throws -> [UInt8] {
        let file = try InputFile.photo(entry.path, check: LoadOptions().check)
        guard file.withUnsafeBytes({ FileDigest.sha256($0) }) == entry.sha256 else {
            throw FileError.cannotRead(path: entry.path, reason: "it is not the photo that was logged (its SHA-256 differs): changed or replaced since")
        }
        var photo = try Photo(file: file, options: LoadOptions(maxSize: pictureSize))
        photo.metadata = PhotoMetadata()
        return try photo.jpeg(quality: 85)
    }
}
