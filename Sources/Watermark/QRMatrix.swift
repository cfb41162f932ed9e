internal import CQRencode

/// A QR code as a square of dark and light modules (libqrencode, error correction level M, 8-bit
/// mode): a stamp's `qr` block, and the link `serve` and `team add` show in the terminal.
public struct QRMatrix: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row by row, `true` for a dark module.
    public let modules: [Bool]

    /// nil when `text` does not fit in a QR code.
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        size = width
        // Bit 0 of each byte is the module's colour; the other bits describe its role.
        modules = (0..<width * width).map { data[$0] & 1 == 1 }
    }

    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }
}
