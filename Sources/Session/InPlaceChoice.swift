import Capture
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

    /// A camera's JPEG frame opened for stamping in place when it is kept at its size (`maxSize`
    /// 0, or the frame within it); nil when the still is stamped on its decoded pixels instead.
    static func open(_ still: CapturedStill, maxSize: Int, style: Template) -> InPlaceJPEG? {
        let load = LoadOptions(maxSize: maxSize)
        let (width, height) = (still.photo.width, still.photo.height)
        guard let frame = still.cameraFile, style.tone == .none,
              load.fittedSize(width: width, height: height) == (width, height) else { return nil }
        return try? InPlaceJPEG(jpeg: frame, options: load)
    }
}
