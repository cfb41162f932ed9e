import CCairo

extension Bitmap {
    /// Reads a PNG (for golden images); alpha is dropped onto black.
    public init?(pngFile path: String) {
        let surface = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        self.init(width: Int(cairo_image_surface_get_width(surface)), height: Int(cairo_image_surface_get_height(surface)))
        draw { cr in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
        }
    }

    /// Writes the pixels as a PNG file (not atomic: for test output and goldens).
    @discardableResult
    public func writePNG(to path: String) -> Bool {
        withCairoSource { cairo_surface_write_to_png($0, path) == CAIRO_STATUS_SUCCESS }
    }
}
