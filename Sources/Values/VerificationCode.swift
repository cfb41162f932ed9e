import Platform

/// The short code a stamp shows (`{code}`, `K7MN-4XRT-9P`), derived from the SHA-256 of the
/// unstamped picture and the values the stamp shows, so a photo's code can be checked against its
/// record and found again in the catalog by a person who reads it off a print.
///
/// Derivation (version 1): SHA-256 over the length-prefixed UTF-8 strings `stampcam-code/1`, the
/// picture's hash in lowercase hex, then each field's name and value, names in byte order (each
/// string is its UTF-8 length as 4 bytes big-endian, then its bytes). The first 8 bytes of that
/// hash, big-endian, modulo 20¹⁰, written in base 20 with `alphabet`, most significant first, as
/// 4-4-2 characters joined by dashes.
public enum VerificationCode {
    /// Digits and capitals no one mistakes for another when read off a photo or typed: no 0/O/D/Q,
    /// 1/I/L, 2/Z, 5/S, 8/B, 6/G or U/V.
    public static let alphabet = Array("34679ACEFHJKMNPRTWXY")

    /// Characters in a code, without its dashes.
    public static let length = 10

    /// Where the dashes go: `XXXX-XXXX-XX`.
    static let groups = [4, 4, 2]

    /// The code for a picture whose SHA-256 is `pixelsSHA256` (hex) stamped with `fields` (a field's
    /// name → the text the stamp shows for it).
    public static func derive(pixelsSHA256: String, fields: [String: String]) -> String {
        var input: [UInt8] = []
        func append(_ text: String) {
            let bytes = Array(text.utf8)
            let count = UInt32(clamping: bytes.count)
            input += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            input += bytes
        }
        append("stampcam-code/1")
        append(pixelsSHA256.lowercased())
        // Sorted by their UTF-8 bytes, so the order does not depend on Unicode's collation.
        for name in fields.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            append(name)
            append(fields[name] ?? "")
        }
        let digest = SHA256Digest.digest(input)
        let head = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let base = UInt64(alphabet.count)
        var number = head % (0..<length).reduce(UInt64(1)) { value, _ in value * base }
        var characters = [Character](repeating: alphabet[0], count: length)
        for index in (0..<length).reversed() {
            characters[index] = alphabet[Int(number % base)]
            number /= base
        }
        return grouped(characters)
    }

    /// Whether `code` is a code as `derive` writes it (capitals, dashes in place).
    public static func isWellFormed(_ code: String) -> Bool {
        normalized(code) == code
    }

    /// A code as a person may type it — lower case, spaces or dashes anywhere or none — in the form
    /// `derive` writes; nil when it cannot be a code (a wrong length, a character not in `alphabet`).
    public static func normalized(_ typed: String) -> String? {
        var characters: [Character] = []
        for character in typed.uppercased() where character != "-" && !character.isWhitespace {
            guard alphabet.contains(character), characters.count < length else { return nil }
            characters.append(character)
        }
        return characters.count == length ? grouped(characters) : nil
    }

    /// Why typed text cannot be a code.
    public enum Flaw: Sendable, Equatable {
        /// Characters of the alphabet, dashes and spaces aside: `count`, not `length`.
        case length(Int)
        /// A character no code uses (a letter mistaken for a digit, punctuation …).
        case character(Character)
    }

    /// Why `typed` cannot be a code; nil when `normalized` reads it as one.
    public static func flaw(_ typed: String) -> Flaw? {
        var count = 0
        for character in typed.uppercased() where character != "-" && !character.isWhitespace {
            guard alphabet.contains(character) else { return .character(character) }
            count += 1
        }
        return count == length ? nil : .length(count)
    }

    private static func grouped(_ characters: [Character]) -> String {
        var parts: [String] = [], start = 0
        for size in groups {
            parts.append(String(characters[start..<start + size]))
            start += size
        }
        return parts.joined(separator: "-")
    }
}
