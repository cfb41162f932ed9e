/// The kinds of photo file stampcam reads, told apart by their first bytes, never by their name.
public enum ImageFormat: String, Sendable, Equatable {
    case jpeg = "JPEG", heif = "HEIC", png = "PNG"

    /// File name extensions that announce a photo (lowercase).
    public static let extensions: [String: ImageFormat] = [
        "jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "jfif": .jpeg,
        "heic": .heif, "heif": .heif, "hif": .heif, "png": .png,
    ]

    /// The format of a file that starts with `bytes` (the first 16 are enough); nil for none we read.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8, Bytes.Index == Int {
        let head = Array(bytes.prefix(16))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.starts(with: PNGReader.signature) { return .png }
        // ISO base media: a 'ftyp' box whose major brand is an image one (HEIC, HEIF, AVIF).
        if head.count >= 12, head[4..<8] == Array("ftyp".utf8)[...],
           ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif"].contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return .heif
        }
        return nil
    }

    /// The format a file name's extension announces.
    public static func named(_ name: String) -> ImageFormat? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return extensions[name[name.index(after: dot)...].lowercased()]
    }
}
