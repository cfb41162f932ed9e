import CGLib

/// GLib's SHA-256 (GChecksum), the hashing library already linked for Pango.
enum GLibChecksum {
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let text = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress?.assumingMemoryBound(to: guchar.self),
                                                     gsize(bytes.count)) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
