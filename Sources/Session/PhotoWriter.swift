import Catalog
import Imaging
import Library
import Platform
import Provenance
import Templates
import Values
import Watermark

/// The one way a stamped photo reaches the disk, for `shoot` and `apply` alike: stamp a copy of the
/// photo → encode with its metadata → write it atomically under a claimed name → keep the unstamped
/// original and a sidecar when asked; then `ExecHook.share` runs the share command. Holds fonts, so one per
/// thread.
public final class PhotoWriter {
    public struct Settings: Sendable {
        /// JPEG quality 1–100.
        public var quality: Int
        /// Huffman tables made for each photo: smaller files for a longer encode. A batch's files
        /// are kept, so `apply` and `restamp` make them; `shoot` and `serve` write the standard
        /// tables, as cameras and fswebcam do, unless `--optimize`: the shutter's latency first.
        public var optimize = true
        /// The most memory one photo may take (`LoadOptions.memoryLimit`): Huffman tables made for
        /// a photo need every coefficient held while it is encoded whole, so a photo for which that
        /// would pass this limit gets libjpeg's standard tables instead.
        public var memoryLimit = LoadOptions.defaultMemoryLimit
        /// Write over a file that has the claimed name (`--overwrite`).
        public var replace: Bool
        /// Files never to be written over (the inputs of a batch).
        public var protected: Set<FileIdentity>
        /// Run after each saved photo.
        public var exec: ExecHook?
        /// stampcam's version, recorded in sidecars and in each photo's metadata.
        public var version: String
        /// The time a stamp is made (recorded in the photo's XMP).
        public var clock: @Sendable () -> Timestamp
        /// The longest side a stamped photo may have; a larger one is fitted to it first (`shoot
        /// --max-size`, like `apply`'s). 0 keeps the size.
        public var maxSize: Int

        public init(quality: Int = 90, replace: Bool = false, protected: Set<FileIdentity> = [], exec: ExecHook? = nil,
                    version: String = "", maxSize: Int = 0,
                    clock: @escaping @Sendable () -> Timestamp = FieldPolicy.clockTime) {
            self.quality = quality
            self.replace = replace
            self.protected = protected
            self.exec = exec
            self.version = version
            self.clock = clock
            self.maxSize = maxSize
        }

        /// Where each written photo is logged (the catalog), and as which command's; nil logs nothing.
        public var log: PhotoLogging?
        /// Signs each photo with a C2PA manifest (the front end decides: `--no-sign` leaves it nil).
        public var signer: ManifestSigner?
        /// The organisation's check page: a style's QR code links to it with the photo's code.
        public var verifyURL: String?
    }

    /// The unstamped photo to keep beside the stamped one, so it can be stamped again in another style.
    public struct Original: Sendable {
        /// The original as a JPEG file (the camera's own bytes when it sent JPEG).
        public var jpeg: [UInt8]
        /// How it was taken, for the sidecar.
        public var capture: String
        /// The name of the file beside the photo that holds the original already (`restamp` into
        /// the original's own folder): it is not written again, and `jpeg` may be empty.
        public var keptAs: String?
        /// The original's SHA-256, when known (else it is computed from `jpeg`).
        public var sha256: String?
        /// The stamped photo made again from this original (`restamp`): its signed credentials
        /// (the capture record) become the new photo's parent ingredient.
        public var remade: String?

        public init(jpeg: [UInt8], capture: String, keptAs: String? = nil, sha256: String? = nil, remade: String? = nil) {
            self.jpeg = jpeg
            self.capture = capture
            self.keptAs = keptAs
            self.sha256 = sha256
            self.remade = remade
        }
    }

    /// What a photo's record says of its kept original.
    public struct KeptOriginal: Sendable, Equatable {
        public var name: String
        public var sha256: String
        public var capture: String?

        public init(name: String, sha256: String, capture: String? = nil) {
            self.name = name
            self.sha256 = sha256
            self.capture = capture
        }
    }

    public let watermarker: Watermarker
    public let settings: Settings

    public init(watermarker: Watermarker, settings: Settings) {
        self.watermarker = watermarker
        self.settings = settings
    }

    /// The record a photo stamped in `style` with `fields` carries (see `StampRecord`).
    public func record(style: Template, fields: Fields, original: KeptOriginal? = nil) -> StampRecord {
        let software = settings.version.isEmpty ? "stampcam" : "stampcam " + settings.version
        var fields = fields
        fields.verifyURL = settings.verifyURL
        return StampRecord(style: style, fields: fields, stampedAt: settings.clock(), software: software,
                           original: original?.name, originalSHA256: original?.sha256, capture: original?.capture)
    }

    /// `photo` stamped in `style` with `fields`, encoded with its record (EXIF and XMP): exactly the
    /// bytes `write` puts on disk, what had to be left out of its metadata, and what the stamp has
    /// to say about the fields (a value cut short, a character without a glyph).
    public func stampedJPEG(_ photo: Photo, style: Template, fields: Fields,
                            original: KeptOriginal? = nil) throws(WriteError.Cause) -> (jpeg: EncodedJPEG, notes: [String]) {
        let stamped = try stampedJPEG(photo, style: style, record: record(style: style, fields: fields, original: original), source: nil)
        return (stamped.jpeg, stamped.notes)
    }

    /// A stamped photo's bytes, what the stamp had to say, and its record with the picture's hash and code.
    typealias Stamped = (jpeg: EncodedJPEG, notes: [String], record: StampRecord)

    /// `photo` stamped in `style` with the fields of `record`, encoded with `record`, which gets the
    /// hash of the fitted picture before the stamp is drawn, and the code derived from it; signed
    /// when the writer signs. `source` is the file it was read from (nil: a camera's photo);
    /// `remade`, the stamped photo it makes again (see `Original.remade`).
    private func stampedJPEG(_ photo: consuming Photo, style: Template, record: StampRecord,
                             source path: String?, remade: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError.Cause) -> Stamped {
        let source = photo.metadata
        // Stamped in place when the caller gave up the photo (a batch's); else a copy is made here.
        var stamped = consume photo
        do { try stamped.fit(maxSize: settings.maxSize) } catch { throw .image(error) }
        var record = record
        record.setPicture(sha256: stamped.bitmap.withUnsafeBytes { FileDigest.sha256($0) }, style: style)
        let fields = record.fields
        let report: Watermarker.Report
        do { report = try watermarker.stamp(&stamped, template: style, fields: fields) } catch {
            switch error {
            case let error as TemplateError: throw .template(error)
            case let error as WatermarkError: throw .watermark(error)
            default: throw .watermark(.logo(path: style.file, reason: "\(error)"))
            }
        }
        let metadata = record.outputMetadata(source: source)
        let encoded: EncodedJPEG
        let optimize = settings.optimize && stamped.encodingBytes(optimize: true) <= settings.memoryLimit
        do { encoded = try stamped.encoded(quality: settings.quality, optimize: optimize, record: metadata) } catch { throw .image(error) }
        return (try signed(encoded, record: record, style: style, metadata: source, source: path, remade: remade, origin: origin),
                report.warnings, record)
    }

    /// `jpeg` with its signed C2PA manifest (`Settings.signer`), as it is when nothing signs. How
    /// the photo came to be: `origin` when given, else opened from `remade` (the stamped photo it
    /// makes again) or `source`, else captured.
    private func signed(_ jpeg: EncodedJPEG, record: StampRecord, style: Template, metadata: PhotoMetadata,
                        source: String?, remade: String? = nil, origin given: Credentials.Origin? = nil) throws(WriteError.Cause) -> EncodedJPEG {
        guard let signer = settings.signer else { return jpeg }
        let origin: Credentials.Origin
        var signed = jpeg
        if let given {
            origin = given
        } else if let parent = remade ?? source {
            // The ingredient is named by the hash of the file as it is now, read again: the bytes
            // decoded are gone by now. A kept original's hash is its record's.
            let bytes: [UInt8]
            do {
                bytes = remade == nil && record.originalSHA256 != nil ? try FileSystem.readStart(FilePath(parent), count: 16)
                    : try FileSystem.read(FilePath(parent), limit: Int.max)
            } catch {
                throw .provenance(.cannotRead(path: parent, reason: "\(error)"))
            }
            if remade == nil, let recorded = record.originalSHA256 {
                origin = .opened(Credentials.Ingredient(title: PhotoName.lastComponent(parent), sha256: recorded,
                                                        format: ImageFormat.mediaType(bytes) ?? "image/jpeg"))
            } else {
                let opened = Self.opened(bytes, title: PhotoName.lastComponent(parent))
                origin = opened.origin
                if let warning = opened.warning { signed.warnings.append(warning) }
            }
        } else {
            origin = .captured
        }
        let zoneAssumed = record.fields.timeSource == "EXIF" && metadata.offsetTimeOriginal == nil
        let chainHead = settings.log?.log.chainHead
        let credentials = record.credentials(style: style, origin: origin, version: settings.version, zoneAssumed: zoneAssumed,
                                             chainHead: chainHead, pixelsSHA256: record.pixelsSHA256, code: record.code)
        do { signed.bytes = try signer.sign(jpeg.bytes, credentials: credentials, notes: &signed.warnings) } catch { throw .provenance(error) }
        return signed
    }

    /// A photo opened from `bytes` (a file, a phone's upload) as its credentials name it: by its
    /// SHA-256, with its own C2PA credentials kept as the parent's; when they cannot be, it is
    /// named by hash only, and the warning says so.
    public static func opened(_ bytes: [UInt8], title: String) -> (origin: Credentials.Origin, warning: String?) {
        var parent: ParentManifests?
        var warning: String?
        do { parent = try ParentManifests.read(bytes) } catch {
            warning = "its C2PA credentials (\(JPEGManifestSegments.existingStoreSize(bytes)) bytes) are not kept "
                + "(\(error.reason)): the new ones name it as the ingredient by its SHA-256 only"
        }
        return (.opened(Credentials.Ingredient(title: title, sha256: FileDigest.sha256(bytes), format: ImageFormat.mediaType(bytes) ?? "image/jpeg",
                                               manifests: parent)), warning)
    }

    /// `write` in two steps: this one stamps and encodes the photo and puts its bytes in a temp
    /// file beside the claimed name (the work for the processor); the returned
    /// `PendingPhoto.finish`, on any thread, syncs them to the disk, names the file, writes the
    /// `original` and its sidecar when one is given, and logs it (the wait for the disk). A batch's
    /// worker goes on to its next photo meanwhile; a photo under review waits for its "use". The
    /// claim is released when the photo is finished, or here when this throws. `origin` says how
    /// the photo came to be when `source` cannot (a phone's upload, the test pattern).
    public func prepare(_ photo: consuming Photo, style: Template, fields: Fields, to claim: NameClaim,
                        original: Original? = nil, source: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError) -> PendingPhoto {
        let keeping = self.keeping(original, style: style, fields: fields, claim: claim)
        let stamped: Stamped
        do { stamped = try stampedJPEG(consume photo, style: style, record: keeping.record, source: source, remade: original?.remade, origin: origin) } catch {
            claim.release()
            throw WriteError(cause: error, saved: [])
        }
        return try stage(stamped, to: claim, source: source, keeping: keeping)
    }

    /// `prepare` for a JPEG stamped in place at its own size: only the MCU rows the stamp covers
    /// are decoded and put back; every other block of the photo is written as it was.
    public func prepare(inPlace photo: consuming InPlaceJPEG, style: Template, fields: Fields, to claim: NameClaim,
                        original: Original? = nil, source: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError) -> PendingPhoto {
        let keeping = self.keeping(original, style: style, fields: fields, claim: claim)
        let stamped: Stamped
        do { stamped = try stampedInPlace(photo, style: style, record: keeping.record, source: source, remade: original?.remade, origin: origin) } catch {
            claim.release()
            throw WriteError(cause: error, saved: [])
        }
        return try stage(stamped, to: claim, source: source, keeping: keeping)
    }

    /// What a pending photo keeps beside it (its original, named now), and the record that says so.
    fileprivate struct Keeping: Sendable {
        var record: StampRecord
        var kept: KeptOriginal?
        var original: Original?
        var style: Template
        var fields: Fields
    }

    private func keeping(_ original: Original?, style: Template, fields: Fields, claim: NameClaim) -> Keeping {
        guard let original else { return Keeping(record: record(style: style, fields: fields), style: style, fields: fields) }
        let (kept, record) = keptRecord(original, style: style, fields: fields, claim: claim)
        return Keeping(record: record, kept: kept, original: original, style: style, fields: fields)
    }

    /// Puts a stamped photo's bytes in a temp file beside the claimed name; the claim is released
    /// when that fails.
    private func stage(_ stamped: Stamped, to claim: NameClaim, source: String?, keeping: Keeping? = nil) throws(WriteError) -> PendingPhoto {
        let staged: AtomicFile.Staged
        do { staged = try AtomicFile.stage(stamped.jpeg.bytes, for: claim) } catch {
            claim.release()
            throw WriteError(cause: .file(error), saved: [])
        }
        return PendingPhoto(staged: staged, claim: claim, bytes: stamped.jpeg.bytes, record: stamped.record, source: source,
                            notes: stamped.notes, dropped: stamped.jpeg.warnings, settings: settings, keeping: keeping)
    }

    /// The stamp laid out for the whole upright photo, drawn turned into the stored frame on the
    /// rows it covers (so it reads upright once a viewer applies the EXIF orientation), put back
    /// in place. The picture's hash is over its compressed data (`InPlaceJPEG.withPictureBytes`):
    /// the photo is never decoded whole.
    private func stampedInPlace(_ photo: consuming InPlaceJPEG, style: Template, record: StampRecord,
                                source: String?, remade: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError.Cause) -> Stamped {
        var photo = photo
        var record = record
        record.setPicture(sha256: FileDigest.sha256 { add in photo.withPictureBytes(add) }, style: style)
        let orientation = photo.metadata.orientation
        let (storedWidth, storedHeight) = (photo.width, photo.height)
        let (width, height) = orientation.swapsDimensions ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        do {
            // Where the blocks go, from a layout drawn on no pixels; then the rows under them.
            guard var nothing = Bitmap(width: 1, height: 1) else { throw ImageError.outOfMemory(width: 1, height: 1) }
            let layout = try watermarker.stamp(window: &nothing, top: 0, width: width, height: height, template: style, fields: record.fields)
            var notes = layout.warnings
            let boxes = layout.boxes.map { orientation.storedRect($0, storedWidth: storedWidth, storedHeight: storedHeight) }
            if let area = Self.area(boxes, width: storedWidth, height: storedHeight) {
                let (rows, columns) = (photo.strip(covering: area.rows), photo.span(covering: area.columns))
                var window = try photo.decode(rows: rows, columns: columns)
                notes = try watermarker.stamp(window: &window, left: columns.lowerBound, top: rows.lowerBound, width: width, height: height,
                                              orientation: orientation, template: style, fields: record.fields).warnings
                try photo.replace(rows: rows, columns: columns, with: window)
            }
            // libjpeg's standard Huffman tables, as jpegtran writes them: tables made for the photo
            // take a second pass over every block for a file a few per cent smaller.
            let metadata = photo.metadata
            let encoded = try photo.encoded(record: record.outputMetadata(source: metadata), optimize: false)
            return (try signed(encoded, record: record, style: style, metadata: metadata, source: source, remade: remade, origin: origin), notes, record)
        } catch let error as WriteError.Cause {
            throw error
        } catch let error as ImageError {
            throw .image(error)
        } catch let error as TemplateError {
            throw .template(error)
        } catch let error as WatermarkError {
            throw .watermark(error)
        } catch {
            throw .watermark(.logo(path: style.file, reason: "\(error)"))
        }
    }

    /// The rows and columns the blocks at `boxes` cover, with room for what text casts past its
    /// box (a shadow, a glow); nil when there are none.
    static func area(_ boxes: [(x: Double, y: Double, width: Double, height: Double)], width: Int,
                     height: Int) -> (rows: Range<Int>, columns: Range<Int>)? {
        guard !boxes.isEmpty else { return nil }
        let room = max(8.0, Double(min(width, height)) / 50)
        func covered(_ start: Double, _ end: Double, size: Int) -> Range<Int> {
            max(0, Int((start - room).rounded(.down)))..<min(size, Int((end + room).rounded(.up)))
        }
        let rows = covered(boxes.map { $0.y }.min()!, boxes.map { $0.y + $0.height }.max()!, size: height)
        let columns = covered(boxes.map { $0.x }.min()!, boxes.map { $0.x + $0.width }.max()!, size: width)
        return rows.isEmpty || columns.isEmpty ? nil : (rows, columns)
    }

    /// A stamped photo written under a temp name: `finish` makes it the photo (see `prepare`).
    public struct PendingPhoto: Sendable {
        fileprivate let staged: AtomicFile.Staged
        fileprivate let claim: NameClaim
        fileprivate let bytes: [UInt8]
        /// What the photo says of itself (who, when, where, its code): the record its stamp, its
        /// metadata, its catalog row and its sidecar are made from, for a front end to show the same.
        public let record: StampRecord
        fileprivate let source: String?
        fileprivate let notes: [String]
        fileprivate let dropped: [String]
        fileprivate let settings: Settings
        fileprivate let keeping: Keeping?

        /// The name it will have.
        public var name: String { claim.name }
        /// The stamped JPEG (for a review before it is kept).
        public var jpeg: [UInt8] { bytes }
        /// The name it holds, to stamp it again under the same name (another style).
        public var nameClaim: NameClaim { claim }

        /// Syncs and names the file, then logs it; what `write` returns.
        public func finish() throws(WriteError) -> WrittenPhoto {
            defer { claim.release() }
            let path: String
            do { path = try staged.place(replace: settings.replace, protected: settings.protected) } catch {
                throw WriteError(cause: .file(error), saved: [])
            }
            claim.release()
            if let keeping, let kept = keeping.kept, let original = keeping.original {
                // As `write` does: the photo first, then its original and sidecar.
                return try PhotoWriter.keep(UnfinishedPhoto(path: path, folder: claim.folder, name: claim.name, bytes: bytes, record: record,
                                                            kept: kept, original: original, style: keeping.style, fields: keeping.fields,
                                                            source: source, notes: notes, dropped: dropped), settings: settings)
            }
            var written = WrittenPhoto(path: path)
            written.stampNotes = notes
            written.warnings = dropped
            if let problem = PhotoWriter.log(path: path, bytes: bytes, record: record, source: source, settings: settings) {
                written.warnings.append(problem)
            }
            return written
        }
    }

    /// Writes `photo` stamped in `style` under the claimed name (released once written), then the
    /// original and sidecar when `original` is given. The photo goes first, so a full disk never
    /// costs the stamped photo; its record names the original by the name chosen for it now. Then
    /// the photo is logged (`Settings.log`), `source` as the photo it was stamped from; a problem
    /// there is one of the written photo's warnings.
    public func write(_ photo: consuming Photo, style: Template, fields: Fields, to claim: NameClaim,
                      original: Original? = nil, source: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError) -> WrittenPhoto {
        guard let original else {
            return try prepare(photo, style: style, fields: fields, to: claim, source: source, origin: origin).finish()
        }
        defer { claim.release() }
        let (kept, record) = keptRecord(original, style: style, fields: fields, claim: claim)
        let stamped: Stamped
        do { stamped = try stampedJPEG(consume photo, style: style, record: record, source: source, remade: original.remade, origin: origin) } catch {
            throw WriteError(cause: error, saved: [])
        }
        return try write(stamped, kept: kept, original: original, style: style, fields: fields, to: claim, source: source)
    }

    /// `write` for a JPEG stamped in place (see `prepare(inPlace:)`).
    public func write(inPlace photo: consuming InPlaceJPEG, style: Template, fields: Fields, to claim: NameClaim,
                      original: Original? = nil, source: String? = nil, origin: Credentials.Origin? = nil) throws(WriteError) -> WrittenPhoto {
        guard let original else {
            return try prepare(inPlace: photo, style: style, fields: fields, to: claim, source: source, origin: origin).finish()
        }
        defer { claim.release() }
        let (kept, record) = keptRecord(original, style: style, fields: fields, claim: claim)
        let stamped: Stamped
        do { stamped = try stampedInPlace(photo, style: style, record: record, source: source, remade: original.remade, origin: origin) } catch {
            throw WriteError(cause: error, saved: [])
        }
        return try write(stamped, kept: kept, original: original, style: style, fields: fields, to: claim, source: source)
    }

    /// What the record of a photo with a kept original says of it, and the record.
    private func keptRecord(_ original: Original, style: Template, fields: Fields, claim: NameClaim) -> (KeptOriginal, StampRecord) {
        let stem = PhotoName.stem(claim.name)
        let kept = KeptOriginal(name: original.keptAs ?? Self.freeName(stem + ".original.jpg", in: claim.folder),
                                sha256: original.sha256 ?? FileDigest.sha256(original.jpeg), capture: original.capture)
        return (kept, record(style: style, fields: fields, original: kept))
    }

    /// The stamped photo written under the claimed name (released once written), then its original and sidecar.
    private func write(_ stamped: Stamped, kept: KeptOriginal, original: Original,
                       style: Template, fields: Fields, to claim: NameClaim, source: String?) throws(WriteError) -> WrittenPhoto {
        let bytes = stamped.jpeg.bytes
        let path: String
        do { path = try AtomicFile.write(bytes, to: claim, replace: settings.replace, protected: settings.protected) } catch {
            throw WriteError(cause: .file(error), saved: [])
        }
        claim.release()
        return try Self.keep(UnfinishedPhoto(path: path, folder: claim.folder, name: claim.name, bytes: bytes, record: stamped.record,
                                             kept: kept, original: original, style: style, fields: fields, source: source,
                                             notes: stamped.notes, dropped: stamped.jpeg.warnings), settings: settings)
    }

    /// A stamped photo on disk whose original or sidecar could not be written (a full disk): what
    /// `finish` needs to write them later under the names the photo's record gives.
    public struct UnfinishedPhoto: Sendable {
        /// The stamped photo.
        public let path: String
        fileprivate let folder: String
        fileprivate let name: String
        fileprivate let bytes: [UInt8]
        fileprivate let record: StampRecord
        fileprivate let kept: KeptOriginal
        fileprivate var original: Original
        fileprivate let style: Template
        fileprivate let fields: Fields
        fileprivate let source: String?
        fileprivate let notes: [String]
        fileprivate let dropped: [String]
        /// The original, once written.
        fileprivate var originalPath: String?

        /// Whether the photo was stamped in `style` with `fields` (else a retry is a new photo).
        public func matches(style: Template, fields: Fields) -> Bool {
            self.style == style && self.fields == fields
        }
    }

    /// Writes what `write` could not (the original, the sidecar) for a photo it left on disk, and
    /// logs the photo with them. The photo must still be the one written (its digest): a file
    /// changed or replaced since is not finished as if it were ours.
    public func finish(_ unfinished: UnfinishedPhoto) throws(WriteError) -> WrittenPhoto {
        let onDisk = try? FileSystem.read(FilePath(unfinished.path), limit: unfinished.bytes.count + 1)
        guard let onDisk, FileDigest.sha256(onDisk) == FileDigest.sha256(unfinished.bytes) else {
            throw WriteError(cause: .file(.cannotCreate(path: unfinished.path,
                                                        reason: "the photo saved before has been changed or removed since; take it again")),
                             saved: [])
        }
        return try Self.keep(unfinished, settings: settings)
    }

    /// Writes the original (unless written already) and the sidecar of a photo on disk, then logs
    /// it. On failure the photo is logged without the original and the error says how to go on.
    fileprivate static func keep(_ photo: UnfinishedPhoto, settings: Settings) throws(WriteError) -> WrittenPhoto {
        var photo = photo
        let original = photo.original, kept = photo.kept
        let folder = photo.folder
        var written = WrittenPhoto(path: photo.path)
        written.stampNotes = photo.notes
        written.warnings = photo.dropped
        do throws(FileError) {
            if original.keptAs != nil {
                written.original = folder + "/" + kept.name
            } else if let saved = photo.originalPath {
                written.original = saved
            } else {
                written.original = try AtomicFile.write(original.jpeg, directory: folder, name: kept.name,
                                                        protected: settings.protected)
                photo.originalPath = written.original
                // Kept in memory only until it is on disk.
                photo.original.jpeg = []
            }
            let stem = PhotoName.stem(photo.name)
            let sidecar = Sidecar(photo: photo.path, original: kept.name, originalSHA256: kept.sha256, template: photo.style,
                                  fields: photo.fields, capture: original.capture, version: settings.version)
            let json: [UInt8]
            do { json = try sidecar.json() } catch { throw FileError.io(path: folder + "/" + stem + ".json", reason: "\(error)") }
            written.sidecar = try AtomicFile.write(json, directory: folder, name: stem + ".json",
                                                   overwrite: settings.replace, protected: settings.protected)
        } catch {
            // The photo is on disk: it is logged, without an original that was not kept.
            var unkept = photo.record
            if original.keptAs == nil && photo.originalPath == nil {
                unkept.original = nil
                unkept.originalSHA256 = nil
            }
            _ = log(path: photo.path, bytes: photo.bytes, record: unkept, source: photo.source, settings: settings)
            let savedOriginal = original.keptAs == nil ? photo.originalPath : nil
            throw WriteError(cause: .file(error), saved: [photo.path] + [savedOriginal].compactMap { $0 }, unfinished: photo)
        }
        if let problem = log(path: photo.path, bytes: photo.bytes, record: photo.record, source: photo.source, settings: settings) {
            written.warnings.append(problem)
        }
        return written
    }

    /// Logs the photo just written at `path`; what to tell the user when that failed.
    fileprivate static func log(path: String, bytes: [UInt8], record: StampRecord, source: String?,
                                settings: Settings) -> String? {
        guard let logging = settings.log else { return nil }
        let entry = CatalogEntry(path: FileSystem.absolute(path), size: bytes.count, sha256: FileDigest.sha256(bytes), record: record,
                                 command: logging.command, source: source.map(FileSystem.absolute))
        return logging.log.record(entry)
    }

    /// `name`, or the first of `name-1`, `name-2` … that no file in `folder` has. (The photo's
    /// claim keeps other stampcam runs from choosing the same name meanwhile.)
    private static func freeName(_ name: String, in folder: String) -> String {
        var candidate = name, number = 0
        while FileStatus(linkAt: FilePath(folder + "/" + candidate)) != nil {
            number += 1
            candidate = PhotoName.lastComponent(AtomicFile.numbered(name, number))
        }
        return candidate
    }
}

/// What `PhotoWriter.write` put on disk.
public struct WrittenPhoto: Sendable, Equatable {
    public var path: String
    public var original: String?
    public var sidecar: String?
    /// Things the user should hear about this photo although it is saved.
    public var warnings: [String] = []
    /// What the stamp said about the values given (cut short, characters without a glyph): the same
    /// for every photo stamped with them, so a batch tells it once.
    public var stampNotes: [String] = []
    /// Why a JPEG kept at its own size was encoded whole rather than stamped in place; nil when
    /// it was stamped in place, or resized (encoded whole anyway).
    public var reencoded: String?

    public init(path: String, original: String? = nil, sidecar: String? = nil) {
        self.path = path
        self.original = original
        self.sidecar = sidecar
    }
}

/// A write that failed: why, and exactly which files are on disk after it.
public struct WriteError: Error, Sendable, CustomStringConvertible {
    public enum Cause: Error, Sendable, CustomStringConvertible {
        case file(FileError)
        case image(ImageError)
        case template(TemplateError)
        case watermark(WatermarkError)
        case provenance(ProvenanceError)

        /// The layer's own error, for a front end that maps each layer's errors (to exit codes, say).
        public var underlying: any Error {
            switch self {
            case .file(let error): return error
            case .image(let error): return error
            case .template(let error): return error
            case .watermark(let error): return error
            case .provenance(let error): return error
            }
        }

        /// The reason in the layer's words: every front end shows this.
        public var description: String {
            switch self {
            case .file(let error): return error.description
            case .image(let error): return error.description
            case .template(let error): return error.description
            case .watermark(let error): return error.description
            case .provenance(let error): return error.description
            }
        }
    }

    public let cause: Cause
    /// The files that were written before the failure (the stamped photo when its original failed).
    public let saved: [String]
    /// A stamped photo saved without its original or sidecar: `PhotoWriter.finish` writes them.
    public var unfinished: PhotoWriter.UnfinishedPhoto? = nil

    public var description: String {
        guard !saved.isEmpty else { return cause.description + " (nothing was saved)" }
        return cause.description + "; saved: " + saved.map(PathEncoding.display).joined(separator: ", ")
    }
}
