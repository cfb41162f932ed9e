import CJPEG

/// Owns one libjpeg decompressor reading from `data`, which it keeps alive.
final class JPEGDecoder {
    private let data: [UInt8]
    private let handle: OpaquePointer
    let header: sc_jpeg_header

    init(data: [UInt8]) throws(ImageError) {
        guard !data.isEmpty else { throw .empty }
        // SOI then any marker: anything else is not a JPEG, whatever libjpeg would make of it.
        guard data.count >= 3, data[0] == 0xFF, data[1] == 0xD8, data[2] == 0xFF else { throw .notJPEG }
        self.data = data
        var message = ErrorBuffer()
        let created = data.withUnsafeBufferPointer { buffer in
            message.withPointer { sc_decoder_create(buffer.baseAddress, buffer.count, $0) }
        }
        guard let created else { throw Self.classify(message.text) }
        handle = created
        header = sc_decoder_header(created)
        if header.precision != 8 { throw .unsupportedPrecision(bits: Int(header.precision)) }
    }

    deinit { sc_decoder_destroy(handle) }

    var exif: [UInt8]? {
        var length = 0
        guard let pointer = sc_decoder_exif(handle, &length), length > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    var iccProfile: [UInt8]? {
        var length = 0
        guard let pointer = sc_decoder_icc(handle, &length) else { return nil }
        defer { sc_free(pointer) }
        return Array(UnsafeBufferPointer(start: pointer, count: length))
    }

    func scaledSize(denominator: Int) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        sc_decoder_scaled_size(handle, Int32(denominator), &width, &height)
        return (Int(width), Int(height))
    }

    /// Decodes at 1/`denominator` of full size, shrinking in the DCT domain.
    func decode(denominator: Int) throws(ImageError) -> Bitmap {
        let size = scaledSize(denominator: denominator)
        guard var bitmap = Bitmap(width: size.width, height: size.height, zeroed: false) else {
            throw .outOfMemory(width: size.width, height: size.height)
        }
        var message = ErrorBuffer()
        var truncated: Int32 = 0
        let stride = bitmap.stride
        let status = bitmap.withUnsafeMutableBytes { pixels in
            message.withPointer {
                sc_decoder_decode(handle, Int32(denominator), pixels.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                  stride, &truncated, $0)
            }
        }
        if status != 0 { throw Self.classify(message.text) }
        if truncated != 0 { throw .truncated }
        return bitmap
    }

    /// Turns libjpeg's message into the error a user can act on.
    private static func classify(_ message: String) -> ImageError {
        if message.contains("Not a JPEG file") { return .notJPEG }
        if message.contains("Premature end") || message.contains("Empty input") || message.contains("contains no image") {
            return .truncated
        }
        if message.contains("data precision") {
            let bits = message.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return .unsupportedPrecision(bits: bits)
        }
        return .corrupt(message)
    }
}

/// A fixed C buffer libjpeg can write its message into.
struct ErrorBuffer {
    private var bytes = [CChar](repeating: 0, count: Int(SC_JPEG_ERROR_LENGTH))

    mutating func withPointer<R>(_ body: (UnsafeMutablePointer<CChar>) -> R) -> R {
        bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    var text: String {
        bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
