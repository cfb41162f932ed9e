import Imaging
import Platform
import Templates

/// Whether a photo is stamped in place (`InPlaceJPEG`: every block outside the stamp's rows kept
/// bit for bit) or decoded, stamped and encoded whole.
enum InPlaceChoice {
    /// The photo opened for stamping in place; nil when it is decoded instead, with `reason` saying
    /// why when it is a JPEG kept at its own size (a resized or converted photo is re-encoded anyway).
    static func open(_ file: FileContents, load: LoadOptions, style: Template, reason: inout String?) -> InPlaceJPEG? {
        guard ImageFormat.sniff(file.bytes) == .jpeg, let stored = try? Photo.storedSize(jpeg: file),
              let fitted = Photo.fittedSize(jpeg: file, options: load),
              fitted.width * fitted.height == stored.width * stored.height else { return nil }
        guard style.tone == .none else {
            reason = "the style's \(style.tone) tone changes every pixel"
            return nil
        }
        do { return try InPlaceJPEG(jpeg: file, options: load) } catch {
            reason = "\(error)"
            return nil
        }
    }
}
