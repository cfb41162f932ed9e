import CHeif
import Platform
import Values

#if canImport(Glibc)
import Glibc
#endif

/// A HEIC/HEIF file read with libheif: the primary image turned as its `irot`/`imir` boxes say
/// (libheif applies them while decoding), its EXIF and its ICC profile. Owns the libheif context
/// and handle; the file's bytes are lent for the length of `reading`.
final class HEIFFile {
    private let heif: sc_heif
    private let context: OpaquePointer
    private let handle: OpaquePointer

    private init(heif: sc_heif, context: OpaquePointer, handle: OpaquePointer) {
        self.heif = heif
        self.context = context
        self.handle = handle
    }

    /// libheif, opened on first use.
    static func library() throws(MissingLibrary) -> sc_heif {
        var reason: UnsafePointer<CChar>?
        guard let table = sc_heif_load(&reason) else {
            throw MissingLibrary(feature: "reading HEIC photos", packages: ["libheif1"], reason: reason)
        }
        return table.pointee
    }

    deinit {
        heif.heif_image_handle_release(handle)
        heif.heif_context_free(context)
    }

    static func reading<Result>(_ bytes: UnsafeRawBufferPointer, _ body: (HEIFFile) throws(ImageError) -> Result) throws(ImageError) -> Result {
        guard !bytes.isEmpty else { throw .empty }
        let heif: sc_heif
        do { heif = try library() } catch { throw .libraryMissing(error) }
        guard let base = bytes.baseAddress, let context = heif.heif_context_alloc() else { throw .outOfMemory(width: 0, height: 0) }
        var error = heif.heif_context_read_from_memory_without_copy(context, base, bytes.count, nil)
        guard error.code == heif_error_Ok else {
            let reason = Self.text(error)  // the message lives in the context: read it before freeing
            heif.heif_context_free(context)
            throw .corruptFile(.heif, reason)
        }
        var handle: OpaquePointer?
        error = heif.heif_context_get_primary_image_handle(context, &handle)
        guard error.code == heif_error_Ok, let handle else {
            let reason = Self.text(error)
            heif.heif_context_free(context)
            throw .corruptFile(.heif, reason)
        }
        return try body(HEIFFile(heif: heif, context: context, handle: handle))
    }

    /// libheif's words on one line: some of its messages end in a newline, or hold several lines.
    static func text(_ error: heif_error) -> String {
        guard let message = error.message.map({ String(cString: $0) }) else { return "error \(error.code.rawValue)" }
        return Self.oneLine(message)
    }

    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// The image's size as shown (after its transforms).
    var size: (width: Int, height: Int) {
        (Int(heif.heif_image_handle_get_width(handle)), Int(heif.heif_image_handle_get_height(handle)))
    }

    /// The EXIF block as a JPEG's APP1 payload ("Exif\0\0" + TIFF), if the file has one.
    var exif: [UInt8]? {
        var id: heif_item_id = 0
        guard heif.heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
        let size = heif.heif_image_handle_get_metadata_size(handle, id)
        guard size > 4, size < 16 << 20 else { return nil }
        var data = [UInt8](repeating: 0, count: size)
        guard heif.heif_image_handle_get_metadata(handle, id, &data).code == heif_error_Ok else { return nil }
        // A 4-byte offset to the TIFF header comes first (usually 6: past "Exif\0\0").
        let offset = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
        guard offset >= 0, 4 + offset + 8 <= size else { return nil }
        return Array("Exif\0\0".utf8) + data[(4 + offset)...]
    }

    var iccProfile: [UInt8]? {
        let size = heif.heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0, size < 16 << 20 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard heif.heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok else { return nil }
        return profile
    }

    /// The pixels, upright (libheif applies `irot` and `imir`).
    func decode() throws(ImageError) -> Bitmap {
        var image: OpaquePointer?
        let error = heif.heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
        guard error.code == heif_error_Ok, let image else { throw .corruptFile(.heif, Self.text(error)) }
        defer { heif.heif_image_release(image) }
        let width = Int(heif.heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif.heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .corruptFile(.heif, "no RGB plane")
        }
        guard var bitmap = Bitmap(width: width, height: height, zeroed: false) else { throw .outOfMemory(width: width, height: height) }
        let outStride = bitmap.stride
        bitmap.withUnsafeMutableBytes { out in
            for y in 0..<height {
                let source = plane.advanced(by: y * Int(stride))
                let target = out.baseAddress!.advanced(by: y * outStride).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    target[x * 4] = source[x * 3 + 2]
                    target[x * 4 + 1] = source[x * 3 + 1]
                    target[x * 4 + 2] = source[x * 3]
                    target[x * 4 + 3] = 255
                }
            }
        }
        return bitmap
    }

    /// `bitmap` as a HEIC file (HEVC), stored turned so that `orientation`'s irot/imir boxes make it
    /// upright again, with `exif`: for making test photos.
    static func encode(_ stored: Bitmap, quality: Int, orientation: Orientation, exif: [UInt8]?) -> [UInt8]? {
        guard let heif = try? library(), let context = heif.heif_context_alloc() else { return nil }
        defer { heif.heif_context_free(context) }
        var encoder: OpaquePointer?
        guard heif.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok, let encoder else {
            return nil
        }
        defer { heif.heif_encoder_release(encoder) }
        _ = heif.heif_encoder_set_lossy_quality(encoder, Int32(quality))
        var image: OpaquePointer?
        guard heif.heif_image_create(Int32(stored.width), Int32(stored.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image)
            .code == heif_error_Ok, let image else { return nil }
        defer { heif.heif_image_release(image) }
        guard heif.heif_image_add_plane(image, heif_channel_interleaved, Int32(stored.width), Int32(stored.height), 8).code == heif_error_Ok else {
            return nil
        }
        var stride: Int32 = 0
        guard let plane = heif.heif_image_get_plane(image, heif_channel_interleaved, &stride) else { return nil }
        for y in 0..<stored.height {
            for x in 0..<stored.width {
                let pixel = stored.rgb(x: x, y: y)
                let target = plane.advanced(by: y * Int(stride) + x * 3)
                target[0] = pixel.red
                target[1] = pixel.green
                target[2] = pixel.blue
            }
        }
        guard let options = heif.heif_encoding_options_alloc() else { return nil }
        defer { heif.heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.rawValue))
        var handle: OpaquePointer?
        guard heif.heif_context_encode_image(context, image, encoder, options, &handle).code == heif_error_Ok, let handle else { return nil }
        defer { heif.heif_image_handle_release(handle) }
        if let exif, exif.count > 6 {
            // HEIF's Exif item: a 4-byte offset to the TIFF header, then the header.
            let item: [UInt8] = [0, 0, 0, 0] + exif.dropFirst(6)
            _ = item.withUnsafeBytes { heif.heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)) }
        }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1, write: { _, data, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let data { sink.bytes += UnsafeRawBufferPointer(start: data, count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        })
        let result = withExtendedLifetime(sink) {
            heif.heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
        }
        return result.code == heif_error_Ok ? sink.bytes : nil
    }
}
