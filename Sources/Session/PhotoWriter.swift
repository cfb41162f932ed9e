import Imaging
import Library
import Platform
import Templates
import Watermark

/// The one way a stamped photo reaches the disk, for `shoot` and `apply` alike: stamp a copy of the
/// photo → encode with its metadata → write it atomically under a claimed name → keep the unstamped
/// original and a sidecar when asked; then `ExecHook.share` runs the share command. Holds fonts, so one per
/// thread.
public final class PhotoWriter {
    public struct Settings: Sendable {
        /// JPEG quality 1–100.
        public var quality: Int
        /// Write over a file that has the claimed name (`--overwrite`).
        public var replace: Bool
        /// Files never to be written over (the inputs of a batch).
        public var protected: Set<FileIdentity>
        /// Run after each saved photo.
        public var exec: ExecHook?
        /// stampcam's version, recorded in sidecars.
        public var version: String
        /// The longest side a stamped photo may have; a larger one is fitted to it first (`shoot
        /// --max-size`, like `apply`'s). 0 keeps the size.
        public var maxSize: Int

        public init(quality: Int = 90, replace: Bool = false, protected: Set<FileIdentity> = [], exec: ExecHook? = nil,
                    version: String = "", maxSize: Int = 0) {
            self.quality = quality
            self.replace = replace
            self.protected = protected
            self.exec = exec
            self.version = version
            self.maxSize = maxSize
        }
    }

    /// The unstamped photo to keep beside the stamped one, so it can be stamped again in another style.
    public struct Original: Sendable {
        /// The original as a JPEG file (the camera's own bytes when it sent JPEG).
        public var jpeg: [UInt8]
        /// How it was taken, for the sidecar.
        public var capture: String

        public init(jpeg: [UInt8], capture: String) {
            self.jpeg = jpeg
            self.capture = capture
        }
    }

    public let watermarker: Watermarker
    public let settings: Settings

    public init(watermarker: Watermarker, settings: Settings) {
        self.watermarker = watermarker
        self.settings = settings
    }

    /// `photo` stamped in `style` with `fields`, encoded: exactly the bytes `write` puts on disk,
    /// what had to be left out of its metadata, and what the stamp has to say about the fields (a
    /// value cut short, a character without a glyph).
    public func stampedJPEG(_ photo: Photo, style: Template, fields: Fields) throws(WriteError.Cause)
        -> (jpeg: EncodedJPEG, notes: [String]) {
        var stamped = photo
        do { try stamped.fit(maxSize: settings.maxSize) } catch { throw .image(error) }
        let report: Watermarker.Report
        do { report = try watermarker.stamp(&stamped, template: style, fields: fields) } catch {
            switch error {
            case let error as TemplateError: throw .template(error)
            case let error as WatermarkError: throw .watermark(error)
            default: throw .watermark(.logo(path: style.file, reason: "\(error)"))
            }
        }
        do { return (try stamped.encoded(quality: settings.quality), report.warnings) } catch { throw .image(error) }
    }

    /// Writes `photo` stamped in `style` under the claimed name (released once written), then the
    /// original and sidecar.
    public func write(_ photo: Photo, style: Template, fields: Fields, to claim: NameClaim,
                      original: Original? = nil) throws(WriteError) -> WrittenPhoto {
        defer { claim.release() }
        let path: String
        var notes: [String] = [], dropped: [String] = []
        do throws(WriteError.Cause) {
            let stamped = try stampedJPEG(photo, style: style, fields: fields)
            notes = stamped.notes
            dropped = stamped.jpeg.warnings
            do {
                path = try AtomicFile.write(stamped.jpeg.bytes, to: claim, replace: settings.replace, protected: settings.protected)
            } catch {
                throw WriteError.Cause.file(error)
            }
        } catch {
            throw WriteError(cause: error, saved: [])
        }
        claim.release()
        var written = WrittenPhoto(path: path)
        written.stampNotes = notes
        written.warnings = dropped
        if let original {
            let stem = PhotoName.stem(claim.name)
            do throws(FileError) {
                written.original = try AtomicFile.write(original.jpeg, directory: claim.folder, name: stem + ".original.jpg")
                let sidecar = Sidecar(photo: path, original: written.original!, template: style, fields: fields,
                                      capture: original.capture, version: settings.version)
                let json: [UInt8]
                do { json = try sidecar.json() } catch { throw FileError.io(path: claim.folder + "/" + stem + ".json", reason: "\(error)") }
                written.sidecar = try AtomicFile.write(json, directory: claim.folder, name: stem + ".json")
            } catch {
                throw WriteError(cause: .file(error), saved: [path] + [written.original].compactMap { $0 })
            }
        }
        return written
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

    public init(path: String, original: String? = nil, sidecar: String? = nil) {
        self.path = path
        self.original = original
        self.sidecar = sidecar
    }
}

/// A write that failed: why, and exactly which files are on disk after it.
public struct WriteError: Error, Sendable, CustomStringConvertible {
    public enum Cause: Error, Sendable {
        case file(FileError)
        case image(ImageError)
        case template(TemplateError)
        case watermark(WatermarkError)
    }

    public let cause: Cause
    /// The files that were written before the failure (the stamped photo when its original failed).
    public let saved: [String]

    public var description: String {
        let reason: String
        switch cause {
        case .file(let error): reason = error.description
        case .image(let error): reason = error.description
        case .template(let error): reason = error.description
        case .watermark(let error): reason = error.description
        }
        guard !saved.isEmpty else { return reason + " (nothing was saved)" }
        return reason + "; saved: " + saved.map(PathEncoding.display).joined(separator: ", ")
    }
}
