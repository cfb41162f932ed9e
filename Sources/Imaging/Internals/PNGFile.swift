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

    /// Writes the pixels as a PNG file (not atomic: for test output and goldens).
    @discardableResult
    public func writePNG(to path: String) -> Bool {
        withCairoSource { surface in
            FilePath(path).withCString { cairo_surface_write_to_png(surface, $0) == CAIRO_STATUS_SUCCESS }
        }
    }
}
