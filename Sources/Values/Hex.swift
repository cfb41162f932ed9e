/// Hexadecimal digits, written one way everywhere: bytes (digests, tokens), numbers (control ids,
/// hashes) and Unicode code points.
public enum Hex {
    private static let lowerDigits = Array("0123456789abcdef".utf8)

    /// Two lowercase digits per byte: `[0xAB, 0x01]` is `ab01`.
    public static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(lowerDigits[Int(byte >> 4)])
            text.append(lowerDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` (not negative) with at least `digits` digits: `padded(0x9C0901, digits: 8)` is `009c0901`.
    public static func padded<Value: BinaryInteger>(_ value: Value, digits: Int, uppercase: Bool = false) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `U+000A`, `U+1F3D7`: a code point as Unicode writes it.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        "U+" + padded(scalar.value, digits: 4, uppercase: true)
    }
}
