import CGLib

/// GLib's SHA-256 (`GChecksum`), for modules that may not link a C library of their own.
enum GLibChecksum {
    /// The 32 bytes of the SHA-256 of `bytes`.
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return [] }
        defer { g_checksum_free(checksum) }
        if let base = bytes.baseAddress, bytes.count > 0 {
            g_checksum_update(checksum, base.assumingMemoryBound(to: guchar.self), gssize(bytes.count))
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length = gsize(digest.count)
        digest.withUnsafeMutableBufferPointer { g_checksum_get_digest(checksum, $0.baseAddress, &length) }
        return length == 32 ? digest : []
    }
}
