/// What XML 1.0 can hold: libxml2 writes a control character as a character reference that no
/// parser accepts back, so text bound for XMP or KML is cleaned first.
public enum XMLCharacters {
    /// `text` with the characters XML 1.0 cannot hold, even escaped, as U+FFFD.
    public static func clean(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || value >= 0x10000
            scalars.append(allowed ? scalar : "\u{FFFD}")
        }
        return String(scalars)
    }
}
