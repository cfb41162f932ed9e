internal import CCairo
internal import CPango
import Templates

#if canImport(Glibc)
import Glibc
#endif

/// One Pango layout: a line of stamp text (markup) in its font, measured and drawn with its effects.
final class TextLayout {
    let layout: OpaquePointer
    private let font: OpaquePointer
    /// Whether long text wraps at word boundaries (rather than being cut at once).
    private let wraps: Bool
    /// Whether the text may end in "…" when it does not fit (false: the time, which is never cut).
    private let cuts: Bool

    /// `maxLines`: how many lines wrapped text may take before it ends in "…" (`.wrap` only); nil
    /// wraps as far as it takes and never cuts. `rightToLeft`: the stamp's language is written right
    /// to left, so every line is a right-to-left paragraph that starts on the right.
    convenience init(context: OpaquePointer, markup: String, font spec: Template.Font, pixelSize: Double,
                     align: Template.Alignment, overflow: Template.Overflow, tabWidth: Double = 4, maxLines: Int? = 1,
                     rightToLeft: Bool = false) {
        self.init(context: context, text: MarkupText(markup), font: spec, pixelSize: pixelSize, align: align,
                  overflow: overflow, tabWidth: tabWidth, maxLines: maxLines, rightToLeft: rightToLeft)
    }

    init(context: OpaquePointer, text: MarkupText, font spec: Template.Font, pixelSize: Double,
         align: Template.Alignment, overflow: Template.Overflow, tabWidth: Double = 4, maxLines: Int? = 1,
         rightToLeft: Bool = false) {
        layout = pango_layout_new(context)
        font = pango_font_description_new()
        pango_font_description_set_family(font, spec.family)
        pango_font_description_set_absolute_size(font, pixelSize * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, spec.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        // A right-to-left stamp makes every line a right-to-left paragraph (a right-to-left mark
        // first), so a line that starts with a date or a Latin name is laid out like the others;
        // values keep their own direction inside it (they are isolated). With auto-dir Pango then
        // reads "left" as the line's start. A left-to-right stamp keeps each line left to right
        // whatever script its values are in: a Hebrew project must not swing a column.
        pango_layout_set_auto_dir(layout, rightToLeft ? 1 : 0)
        switch (align, rightToLeft) {
        case (.center, _): pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        // In a right-to-left stamp both "left" (the start) and "right" put the line on the right.
        case (.left, _), (.right, true): pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case (.right, false): pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        wraps = overflow == .wrap
        cuts = overflow == .ellipsis || maxLines != nil
        if overflow == .ellipsis {
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        } else if let maxLines {
            // Wrapped at word boundaries only; a word longer than the line makes the text one line
            // ending in "…" (`constrain`). A negative height is a number of lines: wrapping stops
            // there and the last line ends in "…".
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_set_height(layout, -Int32(max(1, min(maxLines, 1000))))
        } else {
            // The time is never cut: in a column too narrow for it, it breaks between characters.
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        // Pango's default tab (8 spaces) varies with the fonts in the line; a fixed stop keeps columns straight.
        let tabs = pango_tab_array_new(1, 1)
        pango_tab_array_set_tab(tabs, 0, PANGO_TAB_LEFT, Int32(min(max(0, tabWidth * pixelSize), 1e6)))
        pango_layout_set_tabs(layout, tabs)
        pango_tab_array_free(tabs)
        let (characters, attributes) = text.laidOut(rightToLeft: rightToLeft,
                                                    em: Int32(min(1e6, pixelSize) * Double(PANGO_SCALE)))
        pango_layout_set_text(layout, characters, -1)
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
    }

    deinit {
        pango_font_description_free(font)
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// Wrap or ellipsize at `width` pixels. A word wider than that cannot wrap: the text is then
    /// one line that ends in "…" (never a word broken in two, never a hyphen added).
    func constrain(width: Double) {
        pango_layout_set_width(layout, Int32(max(1, min(width, 1e6)) * Double(PANGO_SCALE)))
        guard wraps, cuts, widestLine > max(1, width) + 0.5 else { return }
        pango_layout_set_height(layout, -1)
        // Pango keeps a layout that already has no more lines than the new height: lay it out again.
        pango_layout_context_changed(layout)
    }

    /// The width of the widest line, in pixels: wider than the layout's width when a word is.
    private var widestLine: Double {
        (0..<pango_layout_get_line_count(layout)).reduce(0) { widest, index in
            guard let line = pango_layout_get_line_readonly(layout, index) else { return widest }
            var logical = PangoRectangle()
            pango_layout_line_get_pixel_extents(line, nil, &logical)
            return max(widest, Double(logical.width))
        }
    }

    /// Whether the text starts on the right: its first paragraph runs right to left.
    var isRightToLeft: Bool {
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
        return line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue
    }

    /// The text as laid out (UTF-8) and where each of its lines starts in it.
    var wrapping: (text: [UInt8], lineStarts: [Int]) {
        let text = pango_layout_get_text(layout).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        let starts = (0..<pango_layout_get_line_count(layout)).compactMap { index in
            pango_layout_get_line_readonly(layout, index).map { Int($0.pointee.start_index) }
        }
        return (text, starts)
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
