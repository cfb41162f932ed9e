import Imaging
import Library
import Platform
import Templates

/// `restamp`: a stamped photo made again from its kept original, in another style, with the same
/// field values (those given now win). The photo's record says which original and which values: its
/// XMP, or the sidecar JSON beside it for photos stamped before stampcam wrote XMP. The original is
/// checked against the SHA-256 the record holds, so a changed or swapped file is never stamped
/// under the old record. Nothing is replaced unless `overwrite`; an original is never written over.
public enum Restamp {
    public struct Settings: Sendable {
        public var style: Template
        /// Given values, which win over the recorded ones; its zone (`--tz`) applies to the time.
        public var fields: FieldPolicy
        /// The folder for the new photos; nil puts each beside its photo.
        public var output: String?
        /// Write over the stamped photo (beside it) or an existing file of the same name (in `output`).
        public var overwrite: Bool
        /// How the original is loaded; its `maxSize` 0 means the stamped photo's own size.
        public var load: LoadOptions
        /// An original kept at its own size is stamped in place (see `InPlaceJPEG`); false decodes
        /// and encodes it whole.
        public var inPlace = true

        public init(style: Template, fields: FieldPolicy, output: String?, overwrite: Bool, load: LoadOptions) {
            self.style = style
            self.fields = fields
            self.output = output
            self.overwrite = overwrite
            self.load = load
        }
    }

    /// Why a photo cannot be stamped again. The photo is named by the caller.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Neither a stampcam record in its XMP nor a sidecar beside it.
        case noRecord
        /// Stamped by stampcam, but no original was kept.
        case noKeptOriginal(style: String)
        /// The record names an original that is not a plain file name beside the photo.
        case badOriginalName(String)
        /// The original's bytes are not those the record's SHA-256 was made of.
        case originalChanged(path: String)

        public var description: String {
            switch self {
            case .noRecord:
                return "no stampcam record: its XMP has none and there is no sidecar JSON beside it"
            case .noKeptOriginal(let style):
                return "stamped in style \(style) without a kept original, so there is nothing unstamped to stamp again"
            case .badOriginalName(let name):
                return "the record names the original '\(PathEncoding.display(name))', which is not a file name beside the photo"
            case .originalChanged(let path):
                return "\(PathEncoding.display(path)): this original has changed since the photo was stamped (its SHA-256 differs)"
            }
        }
    }

    /// The record of the photo at `path`: its XMP's, else its sidecar's.
    public static func record(of path: String, metadata: PhotoMetadata) -> StampRecord? {
        if let record = StampRecord.read(metadata) { return record }
        let sidecarPath = folder(of: path) + "/" + PhotoName.stem(PhotoName.lastComponent(path)) + ".json"
        guard let json = try? InputFile.read(sidecarPath, limit: 1 << 20), let sidecar = Sidecar(json: json) else { return nil }
        return StampRecord(styleID: sidecar.templateID, styleName: sidecar.templateID, styleVersion: 0, fields: sidecar.stampedFields,
                           stampedAt: nil, software: "", original: sidecar.original, originalSHA256: sidecar.originalSHA256,
                           capture: sidecar.capture)
    }

    /// The path of the original the record of the photo at `path` names, when it is a plain name
    /// and a file is there: what `run` needs to stamp the photo again.
    public static func keptOriginal(of path: String, record: StampRecord) -> String? {
        guard let name = record.original, PhotoName.lastComponent(name) == name, !name.hasPrefix("."), !name.isEmpty else { return nil }
        let originalPath = folder(of: path) + "/" + name
        return FileStatus(path: FilePath(originalPath))?.isRegular == true ? originalPath : nil
    }

    /// Stamps the photo at `path` again with `writer`; returns what was written.
    public static func run(_ path: String, settings: Settings, writer: PhotoWriter) throws -> WrittenPhoto {
        let stamped = try InputFile.photo(path, check: settings.load.check)
        let metadata = try PhotoMetadata(jpeg: stamped)
        guard let record = record(of: path, metadata: metadata) else { throw Problem.noRecord }
        guard let originalName = record.original else { throw Problem.noKeptOriginal(style: record.styleID) }
        // A hostile record must not point at other files: a plain name, beside the photo.
        guard PhotoName.lastComponent(originalName) == originalName, !originalName.hasPrefix("."), !originalName.isEmpty else {
            throw Problem.badOriginalName(originalName)
        }
        let photoFolder = folder(of: path)
        let originalPath = photoFolder + "/" + originalName
        let original = try InputFile.photo(originalPath, check: settings.load.check)
        let sha256 = original.withUnsafeBytes { FileDigest.sha256($0) }
        if let recorded = record.originalSHA256, recorded.lowercased() != sha256 { throw Problem.originalChanged(path: originalPath) }

        var load = settings.load
        if load.maxSize == 0 {
            let size = try Photo.storedSize(jpeg: stamped)
            load.maxSize = max(size.width, size.height)
        }
        var reencoded: String?
        let inPlace = settings.inPlace ? InPlaceChoice.open(original, load: load, style: settings.style, reason: &reencoded) : nil

        let outputFolder = settings.output ?? photoFolder
        try OutputFolder.prepare(outputFolder)
        let besideIt = FileIdentity(path: FilePath(outputFolder)) == FileIdentity(path: FilePath(photoFolder))
        let photoName = PhotoName.lastComponent(path)
        let name = besideIt && !settings.overwrite
            ? PhotoName.sanitised(PhotoName.stem(photoName) + "-" + settings.style.id + ".jpg", fallback: "photo")
            : photoName
        if let target = FileIdentity(path: FilePath(outputFolder + "/" + name)), target == original.status.identity {
            throw FileError.wouldReplaceInput(path: outputFolder + "/" + name)
        }
        guard case .claimed(let claim) = try NameClaim.claim(name, in: outputFolder, existing: settings.overwrite ? .replace : .number) else {
            throw FileError.cannotCreate(path: outputFolder + "/" + name, reason: "the name is taken")
        }
        var fields = settings.fields.fields(recorded: record.fields)
        fields.filename = claim.name
        // Beside the original, the record points at it; elsewhere the new photo gets its own copy.
        let kept = besideIt
            ? PhotoWriter.Original(jpeg: [], capture: record.capture ?? "", keptAs: originalName, sha256: sha256, remade: path)
            : PhotoWriter.Original(jpeg: original.withUnsafeBytes { Array($0) }, capture: record.capture ?? "", sha256: sha256, remade: path)
        var written: WrittenPhoto
        if let inPlace {
            written = try writer.write(inPlace: inPlace, style: settings.style, fields: fields, to: claim, original: kept, source: originalPath)
        } else {
            let photo = try Photo(jpeg: original, options: load)
            written = try writer.write(photo, style: settings.style, fields: fields, to: claim, original: kept, source: originalPath)
        }
        written.reencoded = reencoded
        return written
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
