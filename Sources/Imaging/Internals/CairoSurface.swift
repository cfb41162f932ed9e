import CCairo

/// A Cairo image surface drawing straight into a `Bitmap`'s memory (no copy). Keeps the bitmap alive.
package final class CairoSurface {
    package let bitmap: Bitmap
    package let surface: OpaquePointer

    package init(_ bitmap: Bitmap) {
        self.bitmap = bitmap
        surface = cairo_image_surface_create_for_data(
            bitmap.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
            Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride))
    }

    deinit {
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
    }

    /// Runs `body` with a fresh drawing context on this surface; flushes after.
    package func draw(_ body: (OpaquePointer) -> Void) {
        let context = cairo_create(surface)!
        body(context)
        cairo_destroy(context)
        cairo_surface_flush(surface)
    }
}
