import CGLib

/// GLib's East Asian width and zero-width tables.
enum GLibUnicode {
    static func columns(_ scalar: UInt32) -> Int {
        if g_unichar_iszerowidth(gunichar(scalar)) != 0 { return 0 }
        return g_unichar_iswide(gunichar(scalar)) != 0 ? 2 : 1
    }
}
