import CCairo
#if canImport(Glibc)
import Glibc
#endif

/// A PNG decoded from memory by Cairo: the owner of the image surface. Used under `LogoCache`'s
/// lock only, never by two threads at once.
final class DecodedPNG {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from the IHDR chunk, which a PNG has first: read before decoding so a huge
    /// image is refused before its memory is taken. Nil when the bytes do not start like a PNG.
    static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes.starts(with: signature),
              bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let width = bigEndian(16), height = bigEndian(20)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// Decodes `bytes`; throws Cairo's reason when they are not a complete PNG.
    init(bytes: [UInt8]) throws(PNGFailure) {
        let reader = ByteReader(bytes: bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                return Unmanaged<ByteReader>.fromOpaque(closure).takeUnretainedValue().read(into: data, count: Int(length))
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { throw PNGFailure(reason: "Cairo could not decode it") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            switch status {
            case CAIRO_STATUS_READ_ERROR: throw PNGFailure(reason: "the PNG data ends too early (a truncated file?)")
            case CAIRO_STATUS_NO_MEMORY: throw PNGFailure(reason: "not enough memory to decode it")
            default: throw PNGFailure(reason: "damaged PNG data (\(String(cString: cairo_status_to_string(status))))")
            }
        }
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    var pixelCount: Int { width * height }
}

struct PNGFailure: Error {
    let reason: String
}

/// Hands Cairo's PNG reader the bytes in the pieces it asks for.
private final class ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func read(into destination: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, count > 0 { _ = memcpy(destination, base + offset, count) }
        }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
