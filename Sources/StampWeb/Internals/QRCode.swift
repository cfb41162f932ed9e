import CWeb

/// A QR code as a square of dark and light modules (libqrencode, error correction level M), for
/// the terminal: a phone's camera opens the URL it holds.
struct QRCode: Sendable, Equatable {
    /// Modules per side.
    let size: Int
    /// Row by row, `true` for a dark module.
    let modules: [Bool]

    /// The code for `text` (8-bit mode); nil when it does not fit in a QR code (or libqrencode is missing).
    init?(_ text: String) {
        guard let web = try? WebLibraries.load(), let code = web.QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            return nil
        }
        defer { web.QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        size = width
        // Bit 0 of each byte is the module's colour; the other bits describe its role.
        modules = (0..<width * width).map { data[$0] & 1 == 1 }
    }

    func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }
}
