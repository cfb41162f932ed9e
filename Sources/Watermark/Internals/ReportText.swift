internal import CCairo
internal import CPango

/// Owns one Pango layout of plain text (never markup: a value cannot change the formatting) in the
/// report's font, made in the Watermarker's context on the private font setup, so CJK and every
/// other script the configured fonts cover come out.
final class ReportText {
    private let layout: OpaquePointer
    private let font: OpaquePointer
    /// The width it is laid out in (or its own, when not given), in points.
    let boxWidth: Double?

    /// `size` in points; `width` wraps the text (or ellipsizes it, after `lines` lines). `align` is
    /// where a line starts in a left-to-right page; in a `rightToLeft` one, the mirror of it, whichever
    /// way the text itself runs (a Latin name under a Hebrew label ends at the right too).
    init(context: OpaquePointer, _ text: String, size: Double, bold: Bool = false, width: Double? = nil, lines: Int = 1,
         align: PangoAlignment = PANGO_ALIGN_LEFT, rightToLeft: Bool = false) {
        boxWidth = width
        layout = pango_layout_new(context)
        font = pango_font_description_new()
        pango_font_description_set_family(font, "DejaVu Sans")
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_layout_set_alignment(layout, align)
        if let width {
            pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            // A negative height counts lines: the last one ends in "…".
            pango_layout_set_height(layout, -Int32(max(1, lines)))
        }
        pango_layout_set_text(layout, text, -1)
        // Pango turns left and right round itself for a paragraph that runs right to left; the
        // others are turned here, so in a right-to-left page every line starts at the right.
        if rightToLeft, align != PANGO_ALIGN_CENTER,
           pango_layout_line_get_resolved_direction(pango_layout_get_line_readonly(layout, 0)) != PANGO_DIRECTION_RTL {
            pango_layout_set_alignment(layout, align == PANGO_ALIGN_LEFT ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
        }
    }

    deinit {
        pango_font_description_free(font)
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// Logical size in points.
    var size: (width: Double, height: Double) {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    }

    /// Draws with the layout box's top-left at (x, y) in `grey` (0 black, 1 white).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, grey: Double = 0) {
        cairo_move_to(cr, x, y)
        cairo_set_source_rgb(cr, grey, grey, grey)
        pango_cairo_show_layout(cr, layout)
    }
}
