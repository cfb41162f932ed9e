import CCairo
import CPango
import Imaging

/// Draws lines of plain text in a rounded, semi-transparent box with Pango.
struct TextBox {
    var lines: [String]
    var fontFamily = "Sans"
    /// Font size in pixels.
    var fontSize: Double
    var maxWidth: Double
    var padding: Double
    var cornerRadius: Double
    var boxOpacity = 0.55

    /// Lays the text out and draws it with its top-left corner at (x, y) measured from the box's
    /// bottom-left being at `bottomLeft`.
    func draw(in context: OpaquePointer, fontMap: FontMap, bottomLeft: (x: Double, y: Double)) {
        let pangoContext = pango_font_map_create_context(fontMap.fontMap)!
        defer { g_object_unref(UnsafeMutableRawPointer(pangoContext)) }
        // Grey antialiasing and no hinting: the same pixels on every display and in every test.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pangoContext, options)
        cairo_font_options_destroy(options)
        pango_cairo_update_context(context, pangoContext)

        let layout = pango_layout_new(pangoContext)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_new()!
        defer { pango_font_description_free(font) }
        pango_font_description_set_family(font, fontFamily)
        pango_font_description_set_absolute_size(font, fontSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, Int32(max(1, maxWidth - 2 * padding) * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        // Plain text, never markup: user input such as "<b>&" is printed as typed.
        pango_layout_set_text(layout, lines.joined(separator: "\n"), -1)

        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let boxWidth = Double(logical.width) + 2 * padding
        let boxHeight = Double(logical.height) + 2 * padding
        let x = bottomLeft.x, y = bottomLeft.y - boxHeight

        roundedRectangle(context, x: x, y: y, width: boxWidth, height: boxHeight, radius: cornerRadius)
        cairo_set_source_rgba(context, 0, 0, 0, boxOpacity)
        cairo_fill(context)

        cairo_move_to(context, x + padding - Double(logical.x), y + padding - Double(logical.y))
        cairo_set_source_rgb(context, 1, 1, 1)
        pango_cairo_show_layout(context, layout)
    }

    private func roundedRectangle(_ context: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
                                  radius: Double) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_sub_path(context)
        cairo_arc(context, x + width - r, y + r, r, -.pi / 2, 0)
        cairo_arc(context, x + width - r, y + height - r, r, 0, .pi / 2)
        cairo_arc(context, x + r, y + height - r, r, .pi / 2, .pi)
        cairo_arc(context, x + r, y + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(context)
    }
}
