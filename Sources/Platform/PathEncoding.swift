/// Linux file names are bytes, not text: `caf\xe9.jpg` (Latin-1 on a USB stick) is a valid name
/// that is not UTF-8. Paths are carried through stampcam as `String`s in which every byte that is
/// not part of valid UTF-8 is held as the private-use scalar U+10FF00 + byte, so no name is lost or
/// changed on its way from `readdir` or argv to `open`. A name that really contains one of those
/// scalars is held byte by byte the same way, so the mapping is lossless both ways.
public enum PathEncoding {
    static let escapeBase: UInt32 = 0x10FF00

    /// The path for these bytes (from argv, readdir, readlink).
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        // Well-formed UTF-8 without a lead byte 0xF4 (which every escape needs) is the string as it
        // is: the common case, an order of magnitude quicker than scalar by scalar (the environment
        // is decoded at every start).
        if !bytes.contains(0xF4), let text = String(validating: bytes, as: UTF8.self) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index), scalar.value < escapeBase {
                scalars.append(scalar)
                index += length
            } else {
                // Not UTF-8 (or one of our own escapes spelled out): keep this byte as an escape.
                let length = scalar(in: bytes, at: index)?.length ?? 1
                for byte in bytes[index..<index + length] { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
                index += length
            }
        }
        return String(scalars)
    }

    /// The bytes the kernel gets for `path` (without a terminating NUL).
    public static func encode(_ path: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase {
                bytes.append(UInt8(truncatingIfNeeded: scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return bytes
    }

    /// The path as a person should see it in a message: bytes that are not UTF-8 and control
    /// characters (a newline or an escape sequence in a file name) as `\xNN`, so a line stays one
    /// line and a name cannot drive the terminal; bidirectional controls (U+202E …) as `\u{202E}`,
    /// so a name cannot turn the text after it around.
    public static func display(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= escapeBase {
                output += hexEscape(UInt8(truncatingIfNeeded: scalar.value - escapeBase))
            } else if scalar.properties.isBidiControl {
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else if needsEscape(scalar) {
                output += hexEscape(UInt8(scalar.value))
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether `text` holds bytes that are not UTF-8.
    public static func hasRawBytes(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value >= escapeBase }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || scalar.value >= escapeBase || scalar.properties.isBidiControl
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The well-formed UTF-8 scalar starting at `index` (no overlong forms, no surrogates).
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, length: Int)? {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x10000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
