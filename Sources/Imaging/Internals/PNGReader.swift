import CCairo

/// PNG files read through Cairo's PNG loader, from memory.
enum PNGReader {
    /// Width and height from the IHDR chunk, read before any pixel memory is allocated.
    static func size(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (word(16), word(20))
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The pixels; transparency is flattened onto black.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> Bitmap {
        final class Cursor {
            let bytes: UnsafeRawBufferPointer
            var offset = 0
            init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
        }
        let cursor = Cursor(bytes)
        let surface = withExtendedLifetime(cursor) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                let cursor = Unmanaged<Cursor>.fromOpaque(closure!).takeUnretainedValue()
                let count = Int(length)
                guard let data, cursor.offset + count <= cursor.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                UnsafeMutableRawPointer(data).copyMemory(from: cursor.bytes.baseAddress! + cursor.offset, byteCount: count)
                cursor.offset += count
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(cursor).toOpaque())!
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .corruptFile(.png, String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        guard var bitmap = Bitmap(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }
        bitmap.draw { cr in
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
        }
        return bitmap
    }
}
