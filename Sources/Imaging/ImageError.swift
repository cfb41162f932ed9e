/// Why a photo could not be read, processed or encoded. Messages say what is wrong, not where:
/// the caller names the file.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case empty
    case notJPEG
    case truncated
    case unsupportedPrecision(bits: Int)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case corrupt(String)
    case outOfMemory(width: Int, height: Int)
    case encodeFailed(String)

    public var description: String {
        switch self {
        case .empty:
            return "empty file (0 bytes)"
        case .notJPEG:
            return "not a JPEG file"
        case .truncated:
            return "truncated JPEG (the data ends before the image does)"
        case .unsupportedPrecision(let bits):
            return "\(bits)-bit JPEG is not supported (only 8-bit)"
        case .tooManyPixels(let width, let height, let limit):
            let megapixels = Double(width) * Double(height) / 1_000_000
            return "\(width)x\(height) (\(Int(megapixels.rounded())) MP) is above the limit of \(limit / 1_000_000) MP"
        case .corrupt(let detail):
            return "corrupt JPEG: \(detail)"
        case .outOfMemory(let width, let height):
            return "not enough memory for \(width)x\(height) pixels"
        case .encodeFailed(let detail):
            return "JPEG encoding failed: \(detail)"
        }
    }
}
