import CCairo

/// A PNG logo loaded with Cairo, drawn scaled into a rectangle.
final class LogoImage {
    private let surface: OpaquePointer
    let aspectRatio: Double

    init(path: String) throws(WatermarkError) {
        let surface = cairo_image_surface_create_from_png(path)!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(status))
            cairo_surface_destroy(surface)
            throw .logo(path: path, reason: reason)
        }
        self.surface = surface
        aspectRatio = Double(cairo_image_surface_get_width(surface)) / Double(max(1, cairo_image_surface_get_height(surface)))
    }

    deinit { cairo_surface_destroy(surface) }

    func draw(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        let sourceWidth = Double(cairo_image_surface_get_width(surface))
        let sourceHeight = Double(cairo_image_surface_get_height(surface))
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, width / sourceWidth, height / sourceHeight)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
