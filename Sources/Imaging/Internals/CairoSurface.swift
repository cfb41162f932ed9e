import CCairo

extension Bitmap {
    /// Runs `body` with a Cairo context drawing straight into this bitmap's memory (made its own
    /// first); the drawing is flushed before it returns. `origin`: where this bitmap's top-left
    /// pixel lies in the coordinates drawn in (a window onto part of a larger picture).
    /// `transparent`: the fourth byte of each pixel is its opacity (Cairo's premultiplied ARGB32),
    /// for a picture laid over another one (a zeroed bitmap is then wholly transparent).
    package mutating func draw<Result>(origin: (x: Int, y: Int) = (0, 0), transparent: Bool = false,
                                       _ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        let (width, height, stride) = (Int32(self.width), Int32(self.height), Int32(self.stride))
        return try withUnsafeMutableBytes { bytes in
            let surface = cairo_image_surface_create_for_data(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), transparent ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
                width, height, stride)!
            defer {
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            cairo_surface_set_device_offset(surface, Double(-origin.x), Double(-origin.y))
            let context = cairo_create(surface)!
            defer {
                cairo_destroy(context)
                cairo_surface_flush(surface)
            }
            return try body(context)
        }
    }

    /// Runs `body` with a Cairo surface over this bitmap's memory, to paint from. Cairo does not
    /// write to a source; the surface is finished before this returns so no reference outlives it.
    package func withCairoSource<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        let (width, height, stride) = (Int32(self.width), Int32(self.height), Int32(self.stride))
        return try withUnsafeBytes { bytes in
            let surface = cairo_image_surface_create_for_data(
                UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                CAIRO_FORMAT_RGB24, width, height, stride)!
            defer {
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            return try body(surface)
        }
    }
}
