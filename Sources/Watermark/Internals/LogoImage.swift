internal import CCairo
import Imaging

/// A logo's pixels at the size it is drawn: premultiplied ARGB32 in Cairo's layout. Immutable, so one
/// value serves every worker thread; each draw wraps the bytes in a Cairo surface of its own.
final class LogoImage: Sendable {
    let width: Int
    let height: Int
    private let stride: Int
    private let pixels: [UInt8]

    var byteCount: Int { pixels.count }

    /// `source` scaled to `width` × `height`; nil when Cairo cannot make the surface.
    init?(scaling source: PNGImage, width: Int, height: Int) {
        guard width > 0, height > 0,
              let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(target) }
        guard cairo_surface_status(target) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(target) else { return nil }
        cairo_scale(cr, Double(width) / Double(source.width), Double(height) / Double(source.height))
        source.withCairoSource { surface in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            // Edge pixels repeat outwards instead of fading into transparency at the logo's border.
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
        }
        cairo_destroy(cr)  // drops the pattern's reference to the source
        cairo_surface_flush(target)
        let stride = Int(cairo_image_surface_get_stride(target))
        guard let data = cairo_image_surface_get_data(target) else { return nil }
        self.width = width
        self.height = height
        self.stride = stride
        pixels = Array(UnsafeBufferPointer(start: data, count: stride * height))
    }

    /// `code` as black modules on white, with the quiet zone of 4 modules a reader needs around it,
    /// `side` pixels square; each module's edges fall on whole pixels, so it stays sharp.
    /// nil when Cairo cannot make the surface.
    init?(qr code: QRMatrix, side: Int) {
        let quiet = 4, modules = code.size + 2 * quiet
        let side = max(side, modules)
        func edge(_ module: Int) -> Double { Double(module * side / modules) }
        guard let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side)) else { return nil }
        defer { cairo_surface_destroy(target) }
        guard cairo_surface_status(target) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(target) else { return nil }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        for y in 0..<code.size {
            for x in 0..<code.size where code.modules[y * code.size + x] {
                let left = edge(x + quiet), top = edge(y + quiet)
                cairo_rectangle(cr, left, top, edge(x + quiet + 1) - left, edge(y + quiet + 1) - top)
            }
        }
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(target)
        let stride = Int(cairo_image_surface_get_stride(target))
        guard let data = cairo_image_surface_get_data(target) else { return nil }
        width = side
        height = side
        self.stride = stride
        pixels = Array(UnsafeBufferPointer(start: data, count: stride * side))
    }

    /// Draws the logo at its own size with its top-left corner at (x, y).
    func draw(_ cr: OpaquePointer, x: Double, y: Double) {
        pixels.withUnsafeBufferPointer { buffer in
            // Cairo only reads a source surface; the bytes are never written.
            guard let base = buffer.baseAddress,
                  let surface = cairo_image_surface_create_for_data(UnsafeMutablePointer(mutating: base), CAIRO_FORMAT_ARGB32,
                                                                    Int32(width), Int32(height), Int32(stride)) else { return }
            cairo_save(cr)
            cairo_set_source_surface(cr, surface, x, y)
            cairo_paint(cr)
            cairo_restore(cr)  // drops the pattern's reference before the bytes go out of reach
            cairo_surface_finish(surface)
            cairo_surface_destroy(surface)
        }
    }
}
