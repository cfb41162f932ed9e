internal import CCairo
internal import CPango

/// The Pango context every layout of a `Watermarker` is made in: the private font map, with font
/// options that give the same pixels everywhere.
final class TextContext {
    private let fontMap: FontMap
    let context: OpaquePointer

    init(configFile: String) throws(WatermarkError) {
        fontMap = try FontMap(configFile: configFile)
        context = pango_font_map_create_context(fontMap.fontMap)
        // Grey antialiasing and no hinting: the same pixels on every display and in every test.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(context)) }

    /// Whether a font of `family` is installed (see `FontMap.hasFamily`).
    func hasFontFamily(_ family: String) -> Bool {
        fontMap.hasFamily(family)
    }

    /// Matches the context to the drawing it is about to be used on (transform, target).
    func prepare(for cr: OpaquePointer) {
        pango_cairo_update_context(cr, context)
    }
}
