internal import CCairo
import Imaging

enum StoredFrame {
    /// Makes what `cr` draws in upright coordinates land on the pixels as a file stores them,
    /// turned per `orientation` (the stored image is `storedWidth` × `storedHeight`).
    static func apply(_ orientation: Orientation, storedWidth: Int, storedHeight: Int, to cr: OpaquePointer) {
        guard orientation != .up else { return }
        let t = orientation.transform(width: Double(storedWidth), height: Double(storedHeight))
        var matrix = cairo_matrix_t()
        cairo_matrix_init(&matrix, t.xx, t.yx, t.xy, t.yy, t.x0, t.y0)
        // `transform` maps stored to upright; drawing needs the way back.
        guard cairo_matrix_invert(&matrix) == CAIRO_STATUS_SUCCESS else { return }
        cairo_transform(cr, &matrix)
    }
}
