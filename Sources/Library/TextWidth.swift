/// How many terminal columns text takes: CJK characters two, combining marks none (GLib's Unicode
/// tables), for tables that line up whatever the script.
public enum TextWidth {
    public static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + GLibUnicode.columns($1.value) }
    }

    /// `text` cut to at most `width` columns, with "…" where it was cut: at the end, or at the start
    /// when `keepingEnd` (a path's file name matters most).
    public static func fitted(_ text: String, width: Int, keepingEnd: Bool = false) -> String {
        guard columns(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var kept: [Unicode.Scalar] = [], used = 0
        let scalars = keepingEnd ? Array(text.unicodeScalars.reversed()) : Array(text.unicodeScalars)
        for scalar in scalars {
            let needed = GLibUnicode.columns(scalar.value)
            if used + needed > width - 1 { break }
            kept.append(scalar)
            used += needed
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: keepingEnd ? kept.reversed() : kept)
        return keepingEnd ? "…" + String(result) : String(result) + "…"
    }

    /// `text` padded with spaces to `width` columns.
    public static func padded(_ text: String, width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }
}
