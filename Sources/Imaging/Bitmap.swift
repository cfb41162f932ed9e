/// Pixels in Cairo's RGB24 layout: 32 bits per pixel, blue-green-red-unused in memory (little-endian),
/// rows `stride` bytes apart. The one buffer a photo's pixels live in from decode to encode.
public final class Bitmap: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: UnsafeMutableRawPointer

    /// Allocates a black bitmap; nil when the memory is not there.
    public convenience init?(width: Int, height: Int) {
        self.init(width: width, height: height, zeroed: true)
    }

    /// `zeroed: false` skips clearing memory that a decoder or a full paint overwrites anyway.
    init?(width: Int, height: Int, zeroed: Bool) {
        guard width > 0, height > 0 else { return nil }
        let stride = width * 4
        let (bytes, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, let memory = zeroed ? calloc(bytes, 1) : malloc(bytes) else { return nil }
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = memory
    }

    deinit { free(pixels) }

    public var byteCount: Int { stride * height }

    /// The colour at (x, y) as 8-bit red, green, blue.
    public func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let p = pixels.advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
        return (p[2], p[1], p[0])
    }

    public func setRGB(x: Int, y: Int, _ color: (red: UInt8, green: UInt8, blue: UInt8)) {
        let p = pixels.advanced(by: y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
        p[0] = color.blue
        p[1] = color.green
        p[2] = color.red
        p[3] = 255
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension Bitmap {
    /// A separate bitmap with the same pixels.
    public func copy() -> Bitmap? {
        guard let copy = Bitmap(width: width, height: height, zeroed: false) else { return nil }
        memcpy(copy.pixels, pixels, byteCount)
        return copy
    }
}
