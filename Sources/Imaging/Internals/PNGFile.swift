import CCairo
import Platform

extension Bitmap {
    /// Reads a PNG file (for golden images); alpha is dropped onto black.
    public init?(pngFile path: String) {
        guard let bytes = try? FileSystem.read(FilePath(path)),
              let decoded = try? bytes.withUnsafeBytes({ (buffer) throws(ImageError) in try PNGReader.decode(buffer).surface }),
              let bitmap = try? decoded.flattened() else { return nil }
        self = bitmap
    }

    /// The pixels as PNG bytes; `transparent` keeps the fourth byte as each pixel's opacity (a
    /// bitmap drawn with `draw(transparent: true)`).
    public func pngBytes(transparent: Bool = false) -> [UInt8] {
        let (width, height, stride) = (Int32(self.width), Int32(self.height), Int32(self.stride))
        return withUnsafeBytes { bytes in
            let surface = cairo_image_surface_create_for_data(
                UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                transparent ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height, stride)!
            defer {
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            final class Sink { var bytes: [UInt8] = [] }
            let sink = Sink()
            let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
            return status == CAIRO_STATUS_SUCCESS ? sink.bytes : []
        }
    }

    /// Writes the pixels as a PNG file (not atomic: for test output and goldens).
    @discardableResult
    public func writePNG(to path: String) -> Bool {
        withCairoSource { surface in
            FilePath(path).withCString { cairo_surface_write_to_png(surface, $0) == CAIRO_STATUS_SUCCESS }
        }
    }
}
