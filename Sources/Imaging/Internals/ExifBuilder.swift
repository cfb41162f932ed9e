import CExif

#if canImport(Glibc)
import Glibc
#endif

/// Owns one new libexif `ExifData` and fills it from an `ExifRecord`. Values are written in the
/// formats the EXIF 2.32 specification gives each tag; nothing is taken from the clock.
final class ExifBuilder {
    private let data: UnsafeMutablePointer<ExifData>
    private let order = EXIF_BYTE_ORDER_INTEL

    init?(_ record: ExifRecord) {
        guard let data = exif_data_new() else { return nil }
        self.data = data
        exif_data_set_byte_order(data, order)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        fill(record)
    }

    deinit { exif_data_unref(data) }

    private func fill(_ record: ExifRecord) {
        ascii(EXIF_IFD_0, EXIF_TAG_MAKE, record.make)
        ascii(EXIF_IFD_0, EXIF_TAG_MODEL, record.model)
        short(EXIF_IFD_0, EXIF_TAG_ORIENTATION, 1)
        ascii(EXIF_IFD_0, EXIF_TAG_SOFTWARE, record.software)
        ascii(EXIF_IFD_0, EXIF_TAG_DATE_TIME, record.dateTime)
        ascii(EXIF_IFD_0, EXIF_TAG_ARTIST, record.artist)
        // 0231: the first version with the OffsetTime tags.
        undefined(EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION, Array("0231".utf8))
        ascii(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, record.dateTime)
        ascii(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_DIGITIZED, record.dateTime)
        for tag in [EXIF_TAG_OFFSET_TIME, EXIF_TAG_OFFSET_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_DIGITIZED] {
            ascii(EXIF_IFD_EXIF, tag, record.offsetTime)
        }
        if let flash = record.flash { short(EXIF_IFD_EXIF, EXIF_TAG_FLASH, flash) }
        if let comment = record.userComment {
            // UserComment starts with an 8-byte character code; ASCII is "ASCII\0\0\0".
            undefined(EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT, Array("ASCII\0\0\0".utf8) + Array(comment.utf8.prefix(2000)))
        }
        short(EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, 1)  // sRGB
        if let width = record.pixelWidth { long(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION, width) }
        if let height = record.pixelHeight { long(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION, height) }
        if let ratio = record.digitalZoomRatio {
            rational(EXIF_IFD_EXIF, EXIF_TAG_DIGITAL_ZOOM_RATIO, numerator: UInt32(max(0, ratio) * 1000), denominator: 1000)
        }
    }

    /// The block serialised as an APP1 payload.
    func payload() -> [UInt8]? { ExifDataAccess.payload(data) }

    // MARK: entries

    private func ascii(_ ifd: ExifIfd, _ tag: ExifTag, _ text: String?) {
        guard let text, !text.isEmpty else { return }
        let bytes = Array(text.utf8.filter { $0 != 0 }) + [0]
        put(ifd, tag, format: EXIF_FORMAT_ASCII, components: bytes.count, bytes: bytes)
    }

    private func undefined(_ ifd: ExifIfd, _ tag: ExifTag, _ bytes: [UInt8]) {
        put(ifd, tag, format: EXIF_FORMAT_UNDEFINED, components: bytes.count, bytes: bytes)
    }

    private func short(_ ifd: ExifIfd, _ tag: ExifTag, _ value: Int) {
        var bytes = [UInt8](repeating: 0, count: 2)
        exif_set_short(&bytes, order, ExifShort(clamping: value))
        put(ifd, tag, format: EXIF_FORMAT_SHORT, components: 1, bytes: bytes)
    }

    private func long(_ ifd: ExifIfd, _ tag: ExifTag, _ value: Int) {
        var bytes = [UInt8](repeating: 0, count: 4)
        exif_set_long(&bytes, order, ExifLong(clamping: value))
        put(ifd, tag, format: EXIF_FORMAT_LONG, components: 1, bytes: bytes)
    }

    private func rational(_ ifd: ExifIfd, _ tag: ExifTag, numerator: UInt32, denominator: UInt32) {
        var bytes = [UInt8](repeating: 0, count: 8)
        exif_set_rational(&bytes, order, ExifRational(numerator: numerator, denominator: denominator))
        put(ifd, tag, format: EXIF_FORMAT_RATIONAL, components: 1, bytes: bytes)
    }

    /// Adds an entry whose data is a malloc'd copy of `bytes` (libexif frees it with the entry).
    private func put(_ ifd: ExifIfd, _ tag: ExifTag, format: ExifFormat, components: Int, bytes: [UInt8]) {
        guard let content = ExifDataAccess.content(data, ifd), let entry = exif_entry_new(), let copy = malloc(bytes.count) else { return }
        copy.copyMemory(from: bytes, byteCount: bytes.count)
        entry.pointee.tag = tag
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(bytes.count)
        entry.pointee.data = copy.assumingMemoryBound(to: UInt8.self)
        exif_content_add_entry(content, entry)
        exif_entry_unref(entry)  // the content holds it now
    }
}
