import CCairo
#if canImport(Glibc)
import Glibc
#endif

/// PNG files read through Cairo's PNG loader, from memory: photos, logos and golden images alike.
enum PNGReader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from the IHDR chunk, which a PNG has first: read before decoding, so a huge
    /// image is refused before its memory is taken. Nil when the bytes do not start like a PNG.
    static func size(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature), bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (word(16), word(20))
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The pixels with their transparency; `ImageError.corruptFile` says why when the bytes are not
    /// a complete PNG (in Cairo's words when it gives no better ones).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> PNGSurface {
        guard size(bytes) != nil else { throw .corruptFile(.png, "no image header") }
        let reader = ByteReader(bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                return Unmanaged<ByteReader>.fromOpaque(closure).takeUnretainedValue().read(into: data, count: Int(length))
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { throw .corruptFile(.png, "Cairo could not decode it") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            switch status {
            case CAIRO_STATUS_READ_ERROR: throw .corruptFile(.png, "the PNG data ends too early (a truncated file?)")
            // Cairo reports every error libpng raises (a bad checksum, damaged pixel data) as this.
            case CAIRO_STATUS_NO_MEMORY: throw .corruptFile(.png, "libpng could not decode it (damaged data, or not enough memory)")
            default: throw .corruptFile(.png, String(cString: cairo_status_to_string(status)))
            }
        }
        return PNGSurface(surface)
    }
}

/// Hands Cairo's PNG reader the bytes in the pieces it asks for.
private final class ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
        if let base = bytes.baseAddress, count > 0 { _ = memcpy(destination, base + offset, count) }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
