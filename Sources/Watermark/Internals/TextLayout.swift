internal import CCairo
import CPango
import Templates

#if canImport(Glibc)
import Glibc
#endif

/// One Pango layout: a line of stamp text (markup) in its font, measured and drawn with its effects.
final class TextLayout {
    let layout: OpaquePointer
    private let font: OpaquePointer

    /// `maxLines`: how many lines wrapped text may take before it ends in "…" (`.wrap` only); nil
    /// wraps as far as it takes and never cuts. `rightToLeft`: the stamp's language is written right
    /// to left, so the line starts on the right (its label, then the value to the left of it).
    init(context: OpaquePointer, markup: String, font spec: Template.Font, pixelSize: Double,
         align: Template.Alignment, overflow: Template.Overflow, tabWidth: Double = 4, maxLines: Int? = 1,
         rightToLeft: Bool = false) {
        layout = pango_layout_new(context)
        font = pango_font_description_new()
        pango_font_description_set_family(font, spec.family)
        pango_font_description_set_absolute_size(font, pixelSize * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, spec.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        // Each line keeps the template's alignment whatever script its values are in: a Hebrew
        // project must not swing a left-aligned column to the right. Values carry their own
        // direction (`Markup.escape` isolates right-to-left ones).
        // In a right-to-left language a line takes the direction of its first word: one starting
        // with a label runs right to left (label on the right), one starting with a date or a
        // number left to right. With auto-dir the alignment follows: left is the line's start.
        pango_layout_set_auto_dir(layout, rightToLeft ? 1 : 0)
        switch align {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if overflow == .ellipsis {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        } else {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if let maxLines {
                // A negative height is a number of lines: wrapping stops there and the last line ends in "…".
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
                pango_layout_set_height(layout, -Int32(max(1, min(maxLines, 1000))))
            }
        }
        // Pango's default tab (8 spaces) varies with the fonts in the line; a fixed stop keeps columns straight.
        setTabStop(tabWidth * pixelSize, hanging: false)
        // Parsed once here (set_markup would parse again). `stamp` draws only templates that pass
        // `validate`, whose markup parses; should it still fail, the text is shown as typed.
        var attributes: OpaquePointer?
        var text: UnsafeMutablePointer<CChar>?
        if pango_parse_markup(markup, -1, 0, &attributes, &text, nil, nil) != 0, let text {
            pango_layout_set_text(layout, text, -1)
            if let attributes {
                MarkupCheck.clampLengths(attributes, em: Int32(min(1e6, pixelSize) * Double(PANGO_SCALE)))
                pango_layout_set_attributes(layout, attributes)
                pango_attr_list_unref(attributes)
            }
            g_free(text)
        } else {
            pango_layout_set_text(layout, markup, -1)
        }
    }

    deinit {
        pango_font_description_free(font)
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// Puts the tab stop (the value column after a label) at `x` pixels; `hanging` indents wrapped
    /// lines to it, so a long value stays in its column instead of running back under the label.
    func setTabStop(_ x: Double, hanging: Bool) {
        let tabs = pango_tab_array_new(1, 1)
        pango_tab_array_set_tab(tabs, 0, PANGO_TAB_LEFT, Int32(x.rounded()))
        pango_layout_set_tabs(layout, tabs)
        pango_tab_array_free(tabs)
        pango_layout_set_indent(layout, hanging ? -Int32((x * Double(PANGO_SCALE)).rounded()) : 0)
    }

    /// Where the first tab is, in pixels from the left: the end of a line's label. Nil without a tab.
    var labelEnd: Double? {
        guard let text = pango_layout_get_text(layout) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
        guard let index = bytes.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
        var position = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(index), &position)
        return Double(position.x) / Double(PANGO_SCALE)
    }

    /// Wrap or ellipsize at `width` pixels.
    func constrain(width: Double) {
        pango_layout_set_width(layout, Int32(max(1, width) * Double(PANGO_SCALE)))
    }

    /// Whether the text starts on the right: its first paragraph runs right to left.
    var isRightToLeft: Bool {
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
        return line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
    }

    /// Some of the text was cut and ends in "…".
    var isEllipsized: Bool { pango_layout_is_ellipsized(layout) != 0 }

    /// How many lines the text takes.
    var lineCount: Int { Int(pango_layout_get_line_count(layout)) }

    /// Logical size in pixels.
    var size: (width: Double, height: Double) {
        let logical = logicalExtents
        return (Double(logical.width), Double(logical.height))
    }

    /// Left edge of the logical extents (non-zero for centred or right-aligned text in a set width).
    var offsetX: Double { Double(logicalExtents.x) }

    private var logicalExtents: PangoRectangle {
        var logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, nil, &logical)
        return logical
    }

    /// The inked pixels' rectangle, relative to where the layout is drawn.
    var ink: (x: Double, y: Double, width: Double, height: Double) {
        var ink = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, nil)
        return (Double(ink.x), Double(ink.y), Double(ink.width), Double(ink.height))
    }

    /// Characters no configured font has a glyph for (they would print as boxes).
    var unknownGlyphs: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

    /// The characters behind `unknownGlyphs`, each once, in the order they appear.
    var missingCharacters: [Unicode.Scalar] {
        guard unknownGlyphs > 0, let iterator = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iterator) }
        // Pango's glyph for a character no font has is the character's code with this flag set.
        let unknownFlag: UInt32 = 0x1000_0000
        var found: [Unicode.Scalar] = []
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iterator), let glyphs = run.pointee.glyphs else { continue }
            for index in 0..<Int(glyphs.pointee.num_glyphs) {
                let glyph = glyphs.pointee.glyphs[index].glyph
                guard glyph & unknownFlag != 0, glyph != UInt32.max,
                      let scalar = Unicode.Scalar(glyph & ~unknownFlag), !found.contains(scalar) else { continue }
                found.append(scalar)
            }
        } while pango_layout_iter_next_run(iterator) != 0
        return found
    }

    /// Draws with the top-left of the layout box at (x, y). `mask` draws only the glyphs' shapes in
    /// white, without effects or the markup's colours: where the text is (for legibility checks).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, color: Template.Color, fontSize: Double,
              shadow: Template.Shadow?, outline: Template.Outline?, mask: Bool = false) {
        if mask {
            // The same glyphs as drawn, without the markup's colours and alpha.
            let attributes = pango_layout_get_attributes(layout).map { pango_attr_list_ref($0)! }
            if let attributes, let plain = pango_attr_list_copy(attributes) {
                let removed = pango_attr_list_filter(plain, { attribute, _ in
                    let type = attribute?.pointee.klass.pointee.type
                    return type == PANGO_ATTR_FOREGROUND || type == PANGO_ATTR_FOREGROUND_ALPHA ? 1 : 0
                }, nil)
                if let removed { pango_attr_list_unref(removed) }
                pango_layout_set_attributes(layout, plain)
                pango_attr_list_unref(plain)
            }
            cairo_move_to(cr, x, y)
            cairo_set_source_rgb(cr, 1, 1, 1)
            pango_cairo_show_layout(cr, layout)
            if let attributes {
                pango_layout_set_attributes(layout, attributes)
                pango_attr_list_unref(attributes)
            }
            return
        }
        if let shadow {
            let offset = max(1, (shadow.offset * fontSize).rounded())
            cairo_move_to(cr, x + offset, y + offset)
            setColor(cr, shadow.color)
            pango_cairo_show_layout(cr, layout)
        }
        if let outline {
            cairo_move_to(cr, x, y)
            pango_cairo_layout_path(cr, layout)
            setColor(cr, outline.color)
            cairo_set_line_width(cr, max(1, 2 * outline.width * fontSize))
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_move_to(cr, x, y)
        setColor(cr, color)
        pango_cairo_show_layout(cr, layout)
    }
}

func setColor(_ cr: OpaquePointer, _ color: Template.Color, opacity: Double = 1) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * opacity)
}
