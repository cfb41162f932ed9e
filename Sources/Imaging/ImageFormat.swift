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

    /// The media type of a file that starts with `bytes` (`image/jpeg`, `image/png`, `image/heic`,
    /// `image/heif`, `image/avif`), as C2PA names an ingredient's format; nil for none we read.
    public static func mediaType<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8, Bytes.Index == Int {
        switch sniff(bytes) {
        case .jpeg?: return "image/jpeg"
        case .png?: return "image/png"
        case .heif?:
            let brand = String(decoding: Array(bytes.prefix(12)).suffix(4), as: UTF8.self)
            return brand == "avif" ? "image/avif" : ["mif1", "msf1"].contains(brand) ? "image/heif" : "image/heic"
        case nil: return nil
        }
    }

    /// The format a file name's extension announces.
    public static func named(_ name: String) -> ImageFormat? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return extensions[name[name.index(after: dot)...].lowercased()]
    }
}
