/// A PNG decoded with its transparency, to be drawn over a photo (a logo). Made once and only read
/// after; not shared between threads (its owner keeps it behind a lock).
public final class PNGImage {
    public let width: Int
    public let height: Int
    let pixels: PNGSurface

    /// The eight bytes every PNG file starts with.
    public static var signature: [UInt8] { PNGReader.signature }

    /// Width and height from the file's header, read without decoding; nil when `bytes` do not
    /// start like a PNG.
    public static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        bytes.withUnsafeBytes { PNGReader.size($0) }
    }

    /// Decodes `bytes`; `ImageError.corruptFile` says why they are not a complete PNG.
    public init(bytes: [UInt8]) throws(ImageError) {
        pixels = try bytes.withUnsafeBytes { buffer in
            Result { () throws(ImageError) in try PNGReader.decode(buffer).surface }
        }.get()
        width = pixels.width
        height = pixels.height
    }

    public var pixelCount: Int { width * height }

    /// Runs `body` with a Cairo image surface (premultiplied ARGB32) of the pixels, to paint from.
    package func withCairoSource<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(pixels.surface)
    }
}
