/// Escaping for Pango markup and HTML (XML text): user values never become markup.
public enum Markup {
    /// `text` escaped; a value with right-to-left letters (Hebrew, Arabic …) is also wrapped in a
    /// first-strong isolate (U+2068 … U+2069), so it runs in its own direction without pulling the
    /// label, the time or the punctuation around it into its order.
    public static func escape(_ text: String) -> String {
        let escaped = xmlEscaped(text)
        return hasRightToLeft(text) ? "\u{2068}" + escaped + "\u{2069}" : escaped
    }

    /// Whether `text` has a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko …).
    public static func hasRightToLeft(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` as entities: the five HTML and XML both read.
    static func xmlEscaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
