internal import CCairo
import Imaging

#if canImport(Glibc)
import Glibc
#endif

/// Owns one Cairo image surface holding a photo's preview pixels with the photo's JPEG attached as
/// its MIME data: the PDF surface embeds those JPEG bytes (DCTDecode) instead of compressing the
/// pixels again. Cairo draws the JPEG over the surface's own extent, so the preview may be far
/// smaller than the photo. Made and checked at creation, released in `deinit` (the PDF keeps its
/// own reference until it is finished).
final class ReportImage {
    let surface: OpaquePointer
    let width: Double
    let height: Double

    init?(preview: Bitmap, jpeg: [UInt8]) {
        guard !jpeg.isEmpty, let made = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(preview.width), Int32(preview.height)) else {
            return nil
        }
        guard cairo_surface_status(made) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(made) else {
            cairo_surface_destroy(made)
            return nil
        }
        surface = made
        width = Double(preview.width)
        height = Double(preview.height)
        // The same layout as the bitmap (32-bit RGB24), row by row: the strides may differ.
        let stride = Int(cairo_image_surface_get_stride(made))
        preview.withUnsafeBytes { source in
            for row in 0..<preview.height {
                memcpy(pixels + row * stride, source.baseAddress! + row * preview.stride, preview.width * 4)
            }
        }
        cairo_surface_mark_dirty(made)
        // Cairo frees its copy of the JPEG with the surface.
        guard let copy = malloc(jpeg.count) else { return nil }
        jpeg.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, jpeg.count) }
        let status = cairo_surface_set_mime_data(made, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self),
                                                 UInt(jpeg.count), { free($0) }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            return nil
        }
    }

    deinit { cairo_surface_destroy(surface) }
}
