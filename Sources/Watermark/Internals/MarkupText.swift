internal import CPango

#if canImport(Glibc)
import Glibc
#endif

/// Stamp markup parsed once by Pango: its text and the attributes over it (owned). A line with a
/// label splits at its first tab into the label's text and the value's, each keeping its markup.
final class MarkupText {
    /// The text, UTF-8, without the markup.
    private let text: [UInt8]
    private let attributes: OpaquePointer

    /// `markup` as Pango parses it; should it not parse (`stamp` draws only templates whose
    /// markup does, so this is a last resort), the text as typed.
    convenience init(_ markup: String) {
        var attributes: OpaquePointer?
        var text: UnsafeMutablePointer<CChar>?
        if pango_parse_markup(markup, -1, 0, &attributes, &text, nil, nil) != 0, let text {
            defer { g_free(text) }
            let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
            self.init(text: Array(bytes), attributes: attributes ?? pango_attr_list_new())
        } else {
            if let attributes { pango_attr_list_unref(attributes) }
            self.init(text: Array(markup.utf8), attributes: pango_attr_list_new())
        }
    }

    private init(text: [UInt8], attributes: OpaquePointer) {
        self.text = text
        self.attributes = attributes
    }

    deinit { pango_attr_list_unref(attributes) }

    /// The text before the first tab (the label) and after it (the value), each with the
    /// attributes that cover it; nil without a tab.
    var labelAndValue: (label: MarkupText, value: MarkupText)? {
        guard let tab = text.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
        let label = pango_attr_list_copy(attributes)!, value = pango_attr_list_copy(attributes)!
        pango_attr_list_update(label, Int32(tab), Int32(text.count - tab), 0)
        pango_attr_list_update(value, 0, Int32(tab + 1), 0)
        return (MarkupText(text: Array(text[..<tab]), attributes: label),
                MarkupText(text: Array(text[(tab + 1)...]), attributes: value))
    }

    /// The text and a new attribute list to lay it out with: never hyphenated, lengths in the
    /// markup clamped to `em` (`MarkupCheck.clampLengths`), and in a right-to-left stamp a
    /// right-to-left mark first, which makes the line a right-to-left paragraph.
    func laidOut(rightToLeft: Bool, em: Int32) -> (text: String, attributes: OpaquePointer) {
        let list = pango_attr_list_copy(attributes)!
        MarkupCheck.clampLengths(list, em: em)
        var characters = String(decoding: text, as: UTF8.self)
        if rightToLeft {
            let mark = "\u{200F}"
            pango_attr_list_update(list, 0, 0, Int32(mark.utf8.count))
            characters = mark + characters
        }
        // Pango adds a hyphen where it breaks inside a word: a stamp breaks between words only.
        pango_attr_list_insert(list, pango_attr_insert_hyphens_new(0))
        return (characters, list)
    }
}
