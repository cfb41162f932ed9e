import CCairo

/// The owner of a decoded PNG: a Cairo image surface in premultiplied ARGB32, only read once made.
final class PNGSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// Takes over `surface`, which must be a Cairo image surface without error.
    init(_ surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The pixels with transparency shown over black.
    func flattened() throws(ImageError) -> Bitmap {
        guard var bitmap = Bitmap(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }
        bitmap.draw { cr in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
        }
        return bitmap
    }
}
