internal import CPango
import Values

/// What stampcam accepts in a line's Pango markup beyond Pango's own rules, and the limits applied
/// while drawing. Sizes in a template are fractions of the photo's short side, so markup may change
/// a text's size only relatively (`<big>`, `<small>`, `size="larger"`, `size="120%"`, `<sup>`),
/// and the result must stay within the range a line's `font.size` may have. Lengths (`rise`,
/// `letter_spacing`, `baseline_shift`, an absolute `line_height`) are in Pango units, 1024 to the
/// pixel, and do not scale with the photo: beyond `maxLength` they are errors, and when drawn they
/// are limited to the line's own font size (`clampLengths`), so the text stays within its block.
enum MarkupCheck {
    /// Lengths in markup beyond ±1000 pixels are errors: no photo has text that size.
    static let maxLength = 1000 * Int(PANGO_SCALE)
    /// The most a `line_height` factor may be.
    static let maxLineHeight = 3.0
    /// The range a text's size may end up in, as a fraction of the short side (as `font.size`).
    static let sizeRange = 0.002...0.5

    enum Issue: Equatable {
        /// Pango's parser refused the markup; its message.
        case invalid(String)
        /// Parsed, but outside stampcam's limits.
        case limit(String)

        var text: String {
            switch self {
            case .invalid(let message): return "not valid Pango markup: \(message)"
            case .limit(let message): return message
            }
        }
    }

    /// GLib's parser message in the template's terms: without the position in Pango's own wrapper
    /// ("Error on line 1 char 21: "), and an unclosed tag said as such.
    static func plain(_ message: String) -> String {
        var text = Substring(message)
        if text.hasPrefix("Error on line "), let colon = text.firstRange(of: ": ") { text = text[colon.upperBound...] }
        let unclosed = "Element “markup” was closed, but the currently open element is “"
        if text.hasPrefix(unclosed), let end = text.dropFirst(unclosed.count).firstIndex(of: "”") {
            return "the tag <\(text.dropFirst(unclosed.count)[..<end])> is not closed"
        }
        return String(text)
    }

    /// Problems in one line's markup (its variables replaced by a placeholder) in a font of
    /// `fontSize` (a fraction of the short side).
    static func issues(in markup: String, fontSize: Double) -> [Issue] {
        var attributes: OpaquePointer?
        var error: UnsafeMutablePointer<GError>?
        guard pango_parse_markup(markup, -1, 0, &attributes, nil, nil, &error) != 0, let attributes else {
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
            if let error { g_error_free(error) }
            return [.invalid(plain(message))]
        }
        defer { pango_attr_list_unref(attributes) }
        var issues: [Issue] = []
        var sizesAreRelative = true
        forEachAttribute(in: attributes) { attribute in
            let type = attribute.pointee.klass.pointee.type
            switch type {
            case PANGO_ATTR_SIZE, PANGO_ATTR_ABSOLUTE_SIZE:
                sizesAreRelative = false
                let size = shortNumber(Double(intValue(attribute)) / Double(PANGO_SCALE))
                issues.append(.limit("an absolute text size (\(size) \(type == PANGO_ATTR_SIZE ? "pt" : "px")) does not follow "
                    + "the photo's size; use a relative one: size=\"larger\", size=\"120%\", <big> or <small>"))
            case PANGO_ATTR_FONT_DESC:
                let description = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrFontDesc.self).pointee.desc
                if pango_font_description_get_set_fields(description).rawValue & PANGO_FONT_MASK_SIZE.rawValue != 0 {
                    sizesAreRelative = false
                    var shown = "…"
                    if let text = pango_font_description_to_string(description) {
                        shown = String(cString: text)
                        g_free(text)
                    }
                    issues.append(.limit("font=\"\(shown)\" sets a size, which does not follow the photo's size; "
                        + "leave the size out and use size=\"120%\", <big> or <small>"))
                }
            case PANGO_ATTR_SCALE:
                let scale = floatValue(attribute)
                if !(scale.isFinite && scale > 0.001 && scale < 1000) {
                    sizesAreRelative = false
                    issues.append(.limit("markup scales text by \(shortNumber(scale)) (size=\"…%\", <big> or <small>); "
                        + "text may end up at most \(shortNumber(sizeRange.upperBound / fontSize)) times this line's size"))
                }
            case PANGO_ATTR_RISE, PANGO_ATTR_LETTER_SPACING, PANGO_ATTR_BASELINE_SHIFT, PANGO_ATTR_ABSOLUTE_LINE_HEIGHT:
                let value = Int(intValue(attribute))
                if abs(value) > maxLength {
                    // Said in pixels only: the value is in Pango units, 1024 to the pixel.
                    let pixels = Self.pixels(abs(value))
                    issues.append(.limit("\(lengthName(type))=\"\(value)\" (in Pango units, 1024 to the pixel) is \(pixels) pixels; "
                        + "at most \(maxLength / Int(PANGO_SCALE)) pixels are allowed"))
                }
            case PANGO_ATTR_LINE_HEIGHT:
                let factor = floatValue(attribute)
                if !(factor.isFinite && factor <= maxLineHeight) {
                    issues.append(.limit("line_height=\"\(shortNumber(factor))\" is more than \(shortNumber(maxLineHeight)) times the line's height"))
                }
            default:
                break
            }
        }
        guard sizesAreRelative else { return issues }
        let scales = scaleRange(attributes)
        if fontSize * scales.upperBound > sizeRange.upperBound {
            issues.append(.limit("markup makes text \(shortNumber(scales.upperBound)) times this line's size, "
                + "\(shortNumber(fontSize * scales.upperBound)) of the photo's short side (at most \(sizeRange.upperBound))"))
        }
        if fontSize * scales.lowerBound < sizeRange.lowerBound {
            issues.append(.limit("markup makes text \(shortNumber(scales.lowerBound)) times this line's size, "
                + "\(shortNumber(fontSize * scales.lowerBound)) of the photo's short side (at least \(sizeRange.lowerBound))"))
        }
        return issues
    }

    /// A length in Pango units as pixels, with the digits that tell it from the limit (1000.001).
    static func pixels(_ units: Int) -> String {
        let whole = units / Int(PANGO_SCALE)
        guard units % Int(PANGO_SCALE) != 0 else { return String(whole) }
        var text = fixedPoint(Double(units) / Double(PANGO_SCALE), places: 3)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Limits lengths to the line's font size `em` (in Pango units) so raised or spaced text stays in
    /// its block on any photo: rise and baseline shift ±1 em, letter spacing −0.5…1 em, an absolute
    /// line height 3 em.
    static func clampLengths(_ attributes: OpaquePointer, em: Int32) {
        var limit = max(1, em)
        let removed = pango_attr_list_filter(attributes, { attribute, data in
            guard let attribute, let data else { return 0 }
            let em = data.assumingMemoryBound(to: Int32.self).pointee
            let value = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self)
            switch attribute.pointee.klass.pointee.type {
            case PANGO_ATTR_RISE, PANGO_ATTR_BASELINE_SHIFT:
                value.pointee.value = min(max(value.pointee.value, -em), em)
            case PANGO_ATTR_LETTER_SPACING:
                value.pointee.value = min(max(value.pointee.value, -em / 2), em)
            case PANGO_ATTR_ABSOLUTE_LINE_HEIGHT:
                value.pointee.value = min(max(value.pointee.value, 0), em.multipliedReportingOverflow(by: 3).overflow ? em : em * 3)
            default:
                break
            }
            return 0  // keep every attribute
        }, &limit)
        if let removed { pango_attr_list_unref(removed) }
    }

    /// The smallest and largest size factor markup gives any of the text, as Pango computes fonts:
    /// scale attributes (`<big>`, `size="120%"` …) on a base font, the innermost winning.
    private static func scaleRange(_ attributes: OpaquePointer) -> ClosedRange<Double> {
        let base = 1000.0 * Double(PANGO_SCALE)
        var smallest = 1.0, largest = 1.0
        guard let iterator = pango_attr_list_get_iterator(attributes) else { return 1...1 }
        defer { pango_attr_iterator_destroy(iterator) }
        repeat {
            guard let font = pango_font_description_new() else { break }
            pango_font_description_set_absolute_size(font, base)
            pango_attr_iterator_get_font(iterator, font, nil, nil)
            let factor = Double(pango_font_description_get_size(font)) / base
            pango_font_description_free(font)
            smallest = min(smallest, factor)
            largest = max(largest, factor)
        } while pango_attr_iterator_next(iterator) != 0
        return smallest...largest
    }

    private static func forEachAttribute(in attributes: OpaquePointer, _ body: (UnsafeMutablePointer<PangoAttribute>) -> Void) {
        let list = pango_attr_list_get_attributes(attributes)
        var node = list
        while let current = node {
            if let attribute = current.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) {
                body(attribute)
                pango_attribute_destroy(attribute)
            }
            node = current.pointee.next
        }
        g_slist_free(list)
    }

    private static func intValue(_ attribute: UnsafeMutablePointer<PangoAttribute>) -> Int32 {
        UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self).pointee.value
    }

    private static func floatValue(_ attribute: UnsafeMutablePointer<PangoAttribute>) -> Double {
        UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrFloat.self).pointee.value
    }

    private static func lengthName(_ type: PangoAttrType) -> String {
        switch type {
        case PANGO_ATTR_RISE: return "rise"
        case PANGO_ATTR_LETTER_SPACING: return "letter_spacing"
        case PANGO_ATTR_BASELINE_SHIFT: return "baseline_shift"
        default: return "line_height"
        }
    }
}

/// A number for a message: `8.9`, `0.28`, `0.0016`, `1.2e+15`.
func shortNumber(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    if value != 0 && (abs(value) >= 1e6 || abs(value) < 1e-3) { return "\(Float(value))" }
    // Two significant digits below 10, one decimal above: 0.0016, 0.64, 4.3, 15.6.
    let magnitude = abs(value)
    let digits = magnitude >= 1 ? 1 : magnitude >= 0.1 ? 2 : magnitude >= 0.01 ? 3 : 4
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return rounded == rounded.rounded() ? "\(Int(rounded))" : "\(rounded)"
}
