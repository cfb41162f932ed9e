import Platform

/// Why a photo could not be read, processed or encoded. Messages say what is wrong, not where:
/// the caller names the file.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case empty
    case notJPEG
    case truncated
    case unsupportedPrecision(bits: Int)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// libjpeg gave up on the file (a bad table, a marker where none may be …): its words.
    case corrupt(String)
    /// A HEIC or PNG that libheif or Cairo could not read: their words.
    case corruptFile(ImageFormat, String)
    /// The file ends after `bytes` bytes, before the image does; `pixelsComplete`: only what follows
    /// the picture data is missing (every pixel is there), so `LoadOptions.salvage` loads it.
    case truncatedFile(ImageFormat, bytes: Int, pixelsComplete: Bool)
    /// A valid file that uses a part of its format the decoder does not support: what it is.
    case unsupportedFeature(ImageFormat, String)
    /// The compressed picture data is damaged: libjpeg's words for the first damage it met. With
    /// `LoadOptions.salvage` the photo loads anyway, with the damage as a warning.
    case corruptData(String)
    /// A progressive JPEG with more scans than `limit` (each scan walks the whole image again).
    case tooManyScans(limit: Int)
    /// Decoding would take `needed` bytes, above `limit`; `coefficients` of them are libjpeg's
    /// buffer of every DCT coefficient, which a progressive (or other multi-scan) JPEG needs to
    /// decode and every JPEG stamped in place.
    case tooMuchMemory(needed: Int, limit: Int, coefficients: Int)
    case outOfMemory(width: Int, height: Int)
    case encodeFailed(String)
    /// libheif, opened when a HEIC is first read, could not be loaded.
    case libraryMissing(MissingLibrary)
    /// A valid JPEG of a kind stamping in place does not write (arithmetic-coded, CMYK): which.
    case notInPlace(String)

    public var description: String {
        switch self {
        case .empty:
            return L("empty file (0 bytes)")
        case .notJPEG:
            return L("not a JPEG file")
        case .truncated:
            return L("truncated JPEG (the data ends before the image does)")
        case .unsupportedPrecision(let bits):
            return "\(bits)-bit JPEG is not supported (only 8-bit)"
        case .tooManyPixels(let width, let height, let limit):
            let megapixels = Double(width) * Double(height) / 1_000_000
            return L("{1}x{2} ({3} MP) is above the limit of {4} MP", width, height, Int(megapixels.rounded()), limit / 1_000_000)
        case .truncatedFile(let format, let bytes, let pixelsComplete):
            let end = format == .png ? "its end chunk (IEND); every pixel is there" : "its end marker; every pixel is there"
            return "truncated \(format.rawValue): the file ends after \(bytes) bytes, " + (pixelsComplete ? "without " + end : "before the image does")
        case .unsupportedFeature(let format, let detail):
            return "unsupported \(format.rawValue) feature: \(detail)"
        case .corrupt(let detail):
            return L("corrupt JPEG: {1}", detail)
        case .corruptFile(let format, let detail):
            return "corrupt \(format.rawValue) file: \(detail)"
        case .corruptData(let detail):
            return L("corrupt JPEG data: {1}; only part of the picture could be decoded", detail)
        case .tooManyScans(let limit):
            return "progressive JPEG with more than \(limit) scans (photos have about 10); each scan decodes the whole image again"
        case .tooMuchMemory(let needed, let limit, let coefficients):
            let detail = coefficients > 0
                ? " (\(Self.megabytes(coefficients)) of it for the DCT coefficients of the whole image)"
                : ""
            return "decoding would need \(Self.megabytes(needed))\(detail), above the memory limit of \(Self.megabytes(limit))"
        case .outOfMemory(let width, let height):
            return L("not enough memory for {1}x{2} pixels", width, height)
        case .encodeFailed(let detail):
            return "JPEG encoding failed: \(detail)"
        case .libraryMissing(let missing):
            return missing.description
        case .notInPlace(let kind):
            return kind
        }
    }

    /// Bytes as whole megabytes (10^6), rounded up so a limit is never shown below what it refused.
    static func megabytes(_ bytes: Int) -> String {
        "\((bytes + 999_999) / 1_000_000) MB"
    }
}
