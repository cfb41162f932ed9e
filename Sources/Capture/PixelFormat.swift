/// A V4L2 pixel format, known by its four-character code ("MJPG", "YUYV" …).
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    public let fourcc: UInt32

    public init(fourcc: UInt32) { self.fourcc = fourcc }

    /// From a four-character code such as "YUYV"; nil unless it is four ASCII characters.
    public init?(code: String) {
        let bytes = Array(code.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        fourcc = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four-character code, trailing spaces removed ("GREY", "Y16 " → "Y16").
    public var code: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> (8 * $0)) }
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : 0x3F }, as: UTF8.self)
        return text.hasSuffix(" ") ? String(text.reversed().drop { $0 == " " }.reversed()) : text
    }

    public var description: String { code }

    public static let mjpeg = PixelFormat(code: "MJPG")!
    public static let jpeg = PixelFormat(code: "JPEG")!
    public static let yuyv = PixelFormat(code: "YUYV")!
    public static let uyvy = PixelFormat(code: "UYVY")!
    public static let nv12 = PixelFormat(code: "NV12")!
    public static let yuv420 = PixelFormat(code: "YU12")!
    public static let rgb24 = PixelFormat(code: "RGB3")!
    public static let bgr24 = PixelFormat(code: "BGR3")!
    public static let grey = PixelFormat(code: "GREY")!
    /// 32-bit B, G, R, unused in memory: the layout of `Imaging.Bitmap` (the test pattern's format).
    public static let bgrx = PixelFormat(code: "XR24")!

    /// Whether frames are JPEG files (kept as they are, with missing Huffman tables restored).
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// Formats stampcam can capture from, best first: JPEG needs no re-encode, then the raw formats
    /// it converts itself, packed 4:2:2 first (what UVC webcams offer), grey last.
    public static let preferenceOrder: [PixelFormat] = [.mjpeg, .jpeg, .yuyv, .uyvy, .nv12, .yuv420, .rgb24, .bgr24, .bgrx, .grey]

    /// Whether stampcam can capture from this format.
    public var isUsable: Bool { Self.preferenceOrder.contains(self) }

    /// A name people know for the common ones ("RGB24" for RGB3), else the code.
    public var commonName: String {
        switch self {
        case .rgb24: return "RGB24"
        case .bgr24: return "BGR24"
        case .yuv420: return "YUV420"
        case .bgrx: return "BGRX32"
        default: return code
        }
    }

    /// Accepts a code ("RGB3") or a common name ("RGB24", "mjpeg"), case-insensitively.
    public init?(name: String) {
        let upper = name.uppercased()
        if let known = Self.preferenceOrder.first(where: { $0.code == upper || $0.commonName == upper }) {
            self = known
        } else if upper == "JPG" {
            self = .jpeg
        } else if upper.count == 4, let format = PixelFormat(code: upper) {
            self = format
        } else {
            return nil
        }
    }
}
