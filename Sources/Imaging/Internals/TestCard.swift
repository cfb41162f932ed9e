import CCairo

/// A test card stampcam draws itself: colour bars, a grey ramp and a circle, so the pipeline can be
/// tried and checked without a camera or a photo.
public enum TestCard {
    public static func draw(width: Int, height: Int) -> Bitmap? {
        guard var bitmap = Bitmap(width: width, height: height) else { return nil }
        let w = Double(width), h = Double(height)
        bitmap.draw { cr in
            let bars: [(Double, Double, Double)] = [
                (0.75, 0.75, 0.75), (0.75, 0.75, 0), (0, 0.75, 0.75), (0, 0.75, 0),
                (0.75, 0, 0.75), (0.75, 0, 0), (0, 0, 0.75),
            ]
            let barWidth = w / Double(bars.count)
            for (index, bar) in bars.enumerated() {
                cairo_set_source_rgb(cr, bar.0, bar.1, bar.2)
                cairo_rectangle(cr, Double(index) * barWidth, 0, barWidth + 1, h * 0.67)
                cairo_fill(cr)
            }
            let ramp = cairo_pattern_create_linear(0, 0, w, 0)!
            cairo_pattern_add_color_stop_rgb(ramp, 0, 0, 0, 0)
            cairo_pattern_add_color_stop_rgb(ramp, 1, 1, 1, 1)
            cairo_set_source(cr, ramp)
            cairo_rectangle(cr, 0, h * 0.67, w, h * 0.33)
            cairo_fill(cr)
            cairo_pattern_destroy(ramp)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_set_line_width(cr, max(2, h / 180))
            cairo_arc(cr, w / 2, h / 2, h * 0.3, 0, 2 * .pi)
            cairo_stroke(cr)
        }
        return bitmap
    }
}
