import Imaging
import Platform

extension PhotoReport.Logo {
    /// The longest side a JPEG logo is kept at: sharp on a printed cover, small in the PDF.
    static let jpegSide = 1200

    /// The logo file at `path`, a PNG or a JPEG, held to the limits a stamp's logo is (`LogoCache`):
    /// a regular file (a FIFO or a device is refused without waiting on it) of at most
    /// `LogoCache.maxFileSize` bytes and `LogoCache.maxPixels` pixels, checked before decoding.
    public static func read(_ path: String) throws(WatermarkError) -> PhotoReport.Logo {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(FilePath(path), limit: LogoCache.maxFileSize)
        } catch {
            throw .logo(path: path, reason: LogoCache.reason(error))
        }
        let kind = bytes.withUnsafeBytes { ImageFormat.sniff($0) }
        switch kind {
        case .png?:
            guard let size = PNGImage.size(of: bytes) else {
                throw .logo(path: path, reason: "not a valid PNG file (its image header is missing or damaged)")
            }
            try check(size, path: path)
            // Decoded once now, so a damaged file is named here and not while drawing.
            do { _ = try PNGImage(bytes: bytes) } catch { throw .logo(path: path, reason: LogoCache.reason(error)) }
            return .png(bytes, width: size.width, height: size.height)
        case .jpeg?:
            do throws(ImageError) {
                // The pixel limit refuses a huge JPEG from its header, before decoding.
                var photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: jpegSide, pixelLimit: LogoCache.maxPixels))
                photo.metadata = PhotoMetadata()
                let jpeg = try photo.jpeg(quality: 92)
                let preview = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: 96))
                return .jpeg(jpeg, width: photo.width, height: photo.height, preview: preview.bitmap)
            } catch .tooManyPixels(let width, let height, _) {
                try check((width, height), path: path)
                throw .logo(path: path, reason: "too many pixels")
            } catch {
                throw .logo(path: path, reason: LogoCache.reason(error))
            }
        default:
            throw .logo(path: path, reason: bytes.isEmpty ? "the file is empty, not a PNG or JPEG image"
                : "not a PNG or JPEG image (an SVG or other logo: export it as PNG)")
        }
    }

    private static func check(_ size: (width: Int, height: Int), path: String) throws(WatermarkError) {
        guard size.width > 0, size.height > 0, size.width <= LogoCache.maxPixels / size.height else {
            throw .logo(path: path, reason: "the logo is \(size.width)×\(size.height) pixels; a logo may have at most "
                + "4096×4096: scale it down")
        }
    }
}
