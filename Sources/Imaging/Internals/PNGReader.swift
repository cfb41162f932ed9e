import CCairo
import CPNG

/// PNG files read with libpng, from memory: photos, logos and golden images alike. The pixels go
/// into a Cairo image surface (premultiplied ARGB32, as Cairo paints them); the eXIf and iCCP
/// chunks come along for photos.
enum PNGReader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A decoded PNG: the pixels with their transparency, the EXIF block as an APP1 payload
    /// ("Exif\0\0" + TIFF, as a JPEG holds it), the ICC profile, and what was salvaged.
    struct Decoded {
        let surface: PNGSurface
        let exif: [UInt8]?
        let iccProfile: [UInt8]?
        let warnings: [String]
    }

    /// Width and height from the IHDR chunk, which a PNG has first: read before decoding, so a huge
    /// image is refused before its memory is taken. Nil when the bytes do not start like a PNG.
    static func size(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (word(16), word(20))
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The EXIF and ICC profile of the chunks before the image data, without decoding pixels.
    static func metadata(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> (exif: [UInt8]?, iccProfile: [UInt8]?) {
        let reader = try open(bytes)
        defer { sc_png_destroy(reader) }
        return (exif(reader), icc(reader))
    }

    /// Decodes the whole file; `ImageError` says what is wrong when the bytes are not a complete
    /// PNG. With `salvage`, a file whose pixels are all there but whose end (the IEND chunk, or
    /// what precedes it) is missing or damaged loads, with a warning saying so.
    static func decode(_ bytes: UnsafeRawBufferPointer, salvage: Bool = false) throws(ImageError) -> Decoded {
        let reader = try open(bytes)
        defer { sc_png_destroy(reader) }
        var width: UInt32 = 0, height: UInt32 = 0
        sc_png_size(reader, &width, &height)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw .outOfMemory(width: Int(width), height: Int(height))
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            throw .outOfMemory(width: Int(width), height: Int(height))
        }
        let owner = PNGSurface(surface)
        cairo_surface_flush(surface)
        var ended: Int32 = 0
        var ending = sc_png_outcome(), outcome = sc_png_outcome()
        guard sc_png_decode(reader, pixels, Int(cairo_image_surface_get_stride(surface)), &ended, &ending, &outcome) == 0 else {
            throw error(outcome, width: Int(width), height: Int(height))
        }
        cairo_surface_mark_dirty(surface)
        var warnings: [String] = []
        if ended == 0 {
            let problem = error(ending, width: Int(width), height: Int(height), afterPixels: true)
            guard salvage else { throw problem }
            warnings.append(ending.status == SC_PNG_TRUNCATED
                ? "the file ends without its PNG end chunk (IEND) (every pixel was there)"
                : "damaged after the picture data: \(words(message(ending))) (every pixel was there)")
        }
        var first: UnsafePointer<CChar>?
        let count = Int(sc_png_warnings(reader, &first))
        if count > 0, let first {
            // Damage in a chunk the picture does without (text, a profile, the EXIF): libpng leaves it out.
            let more = count == 1 ? "" : " (and \(count - 1) more)"
            warnings.insert("libpng read past a problem: \(words(String(cString: first)))\(more)", at: 0)
        }
        return Decoded(surface: owner, exif: exif(reader), iccProfile: icc(reader), warnings: warnings)
    }

    private static func open(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> OpaquePointer {
        guard let (width, height) = size(bytes) else { throw .corruptFile(.png, "no image header (IHDR chunk)") }
        var outcome = sc_png_outcome()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let reader = sc_png_create(base, bytes.count, &outcome) else {
            throw error(outcome, width: width, height: height)
        }
        return reader
    }

    /// The eXIf chunk as an APP1 payload: the TIFF block behind JPEG's "Exif\0\0".
    private static func exif(_ reader: OpaquePointer) -> [UInt8]? {
        var length = 0
        guard let bytes = sc_png_exif(reader, &length), length > 0 else { return nil }
        return Array("Exif\0\0".utf8) + UnsafeBufferPointer(start: bytes, count: length)
    }

    private static func icc(_ reader: OpaquePointer) -> [UInt8]? {
        var length = 0
        guard let bytes = sc_png_icc(reader, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    private static func message(_ outcome: sc_png_outcome) -> String {
        withUnsafeBytes(of: outcome.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func error(_ outcome: sc_png_outcome, width: Int, height: Int, afterPixels: Bool = false) -> ImageError {
        switch outcome.status {
        case SC_PNG_TRUNCATED: return .truncatedFile(.png, bytes: Int(outcome.bytes), pixelsComplete: afterPixels)
        case SC_PNG_OUT_OF_MEMORY: return .outOfMemory(width: width, height: height)
        default:
            let detail = words(message(outcome))
            return .corruptFile(.png, afterPixels ? "damaged after the picture data: \(detail) (every pixel was there)" : detail)
        }
    }

    /// libpng's words, with its terse CRC message spelled out: "IDAT: CRC error" names the chunk.
    static func words(_ message: String) -> String {
        if message.hasSuffix(": CRC error") {
            return "bad CRC in the \(message.dropLast(": CRC error".count)) chunk (the chunk is damaged)"
        }
        return message.isEmpty ? "libpng could not read it" : message
    }
}
