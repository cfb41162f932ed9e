import CExif

#if canImport(Glibc)
import Glibc
#endif

/// Owns one new libexif `ExifData` and fills it from an `ExifRecord`. Values are written in the
/// formats the EXIF 2.32 specification gives each tag, with the tags it requires of a compressed
/// (JPEG) file; nothing is taken from the clock.
final class ExifBuilder {
    private let data: UnsafeMutablePointer<ExifData>
    private let order = EXIF_BYTE_ORDER_INTEL

    init?(_ record: ExifRecord) {
        guard let data = exif_data_new() else { return nil }
        self.data = data
        exif_data_set_byte_order(data, order)
        exif_data_set_data_type(data, EXIF_DATA_TYPE_COMPRESSED)
        fill(record)
        if let gps = record.gps { fillGPS(gps) }
        if let thumbnail = record.thumbnail, !thumbnail.isEmpty { fillThumbnail(thumbnail) }
    }

    deinit { exif_data_unref(data) }

    private func fill(_ record: ExifRecord) {
        ascii(EXIF_IFD_0, EXIF_TAG_MAKE, record.make)
        ascii(EXIF_IFD_0, EXIF_TAG_MODEL, record.model)
        short(EXIF_IFD_0, EXIF_TAG_ORIENTATION, record.orientation.rawValue)
        resolution(EXIF_IFD_0)
        ascii(EXIF_IFD_0, EXIF_TAG_SOFTWARE, record.software)
        ascii(EXIF_IFD_0, EXIF_TAG_DATE_TIME, record.dateTime)
        ascii(EXIF_IFD_0, EXIF_TAG_ARTIST, record.artist)
        short(EXIF_IFD_0, EXIF_TAG_YCBCR_POSITIONING, 1)  // centred: where libjpeg puts chroma samples
        // 0231: the first version with the OffsetTime tags.
        undefined(EXIF_IFD_EXIF, EXIF_TAG_EXIF_VERSION, Array("0231".utf8))
        ascii(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, record.dateTime)
        ascii(EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_DIGITIZED, record.dateTime)
        for tag in [EXIF_TAG_OFFSET_TIME, EXIF_TAG_OFFSET_TIME_ORIGINAL, EXIF_TAG_OFFSET_TIME_DIGITIZED] {
            ascii(EXIF_IFD_EXIF, tag, record.offsetTime)
        }
        undefined(EXIF_IFD_EXIF, EXIF_TAG_COMPONENTS_CONFIGURATION, [1, 2, 3, 0])  // Y, Cb, Cr
        if let flash = record.flash { short(EXIF_IFD_EXIF, EXIF_TAG_FLASH, flash) }
        if let comment = record.userComment {
            // UserComment starts with an 8-byte character code; ASCII is "ASCII\0\0\0".
            undefined(EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT, Array("ASCII\0\0\0".utf8) + Array(comment.utf8.prefix(2000)))
        }
        undefined(EXIF_IFD_EXIF, EXIF_TAG_FLASH_PIX_VERSION, Array("0100".utf8))
        short(EXIF_IFD_EXIF, EXIF_TAG_COLOR_SPACE, 1)  // sRGB
        if let width = record.pixelWidth { long(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION, width) }
        if let height = record.pixelHeight { long(EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION, height) }
        if let ratio = record.digitalZoomRatio, let value = Self.milli(ratio) {
            rationals(EXIF_IFD_EXIF, EXIF_TAG_DIGITAL_ZOOM_RATIO, [(value, 1000)])
        }
    }

    /// The GPS IFD (EXIF 2.32 §4.6.6, GPS version 2.3): unsigned degrees, minutes and seconds with
    /// N/S and E/W references; altitude in metres above or below sea level. A position off the
    /// globe is left out rather than written wrong.
    private func fillGPS(_ position: GPSPosition) {
        guard (-90...90).contains(position.latitude), (-180...180).contains(position.longitude),
              let latitude = Self.degreesMinutesSeconds(position.latitude),
              let longitude = Self.degreesMinutesSeconds(position.longitude) else { return }
        bytes(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_VERSION_ID), [2, 3, 0, 0])
        ascii(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_LATITUDE_REF), position.latitude < 0 ? "S" : "N")
        rationals(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_LATITUDE), latitude)
        ascii(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_LONGITUDE_REF), position.longitude < 0 ? "W" : "E")
        rationals(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_LONGITUDE), longitude)
        if let altitude = position.altitude, let metres = Self.milli(abs(altitude)) {
            bytes(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_ALTITUDE_REF), [altitude < 0 ? 1 : 0])
            rationals(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_ALTITUDE), [(metres, 1000)])
        }
        if let heading = position.heading, (0...360).contains(heading), let hundredths = Self.milli(heading / 10) {
            ascii(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_IMG_DIRECTION_REF), "T")  // true north
            rationals(EXIF_IFD_GPS, Self.gpsTag(EXIF_TAG_GPS_IMG_DIRECTION), [(hundredths % 36000, 100)])
        }
    }

    /// IFD1 describing a JPEG thumbnail. libexif writes its offset and length
    /// (JPEGInterchangeFormat, JPEGInterchangeFormatLength) when it saves the data.
    private func fillThumbnail(_ jpeg: [UInt8]) {
        guard let copy = malloc(jpeg.count) else { return }
        copy.copyMemory(from: jpeg, byteCount: jpeg.count)
        data.pointee.data = copy.assumingMemoryBound(to: UInt8.self)  // freed by exif_data_unref
        data.pointee.size = UInt32(jpeg.count)
        short(EXIF_IFD_1, EXIF_TAG_COMPRESSION, 6)  // JPEG
        resolution(EXIF_IFD_1)
    }

    /// The block serialised as an APP1 payload.
    func payload() -> [UInt8]? { ExifDataAccess.payload(data) }

    // MARK: values

    /// The GPS tags are macros in libexif's header, imported as plain integers.
    private static func gpsTag(_ value: some BinaryInteger) -> ExifTag { ExifTag(rawValue: UInt32(value)) }

    /// `value` in thousandths, when that fits an unsigned 32-bit numerator.
    static func milli(_ value: Double) -> UInt32? {
        let scaled = (value * 1000).rounded()
        guard scaled.isFinite, scaled >= 0, scaled <= Double(UInt32.max) else { return nil }
        return UInt32(scaled)
    }

    /// |`degrees`| as three rationals: whole degrees, whole minutes, seconds to a thousandth
    /// (about 3 cm), counted in whole milliseconds of arc so rounding never gives 60 seconds.
    static func degreesMinutesSeconds(_ degrees: Double) -> [(UInt32, UInt32)]? {
        guard degrees.isFinite, abs(degrees) <= 360 else { return nil }
        let total = UInt64((abs(degrees) * 3_600_000).rounded())
        return [(UInt32(total / 3_600_000), 1), (UInt32(total / 60_000 % 60), 1), (UInt32(total % 60_000), 1000)]
    }

    // MARK: entries

    /// XResolution, YResolution and ResolutionUnit, which EXIF requires in IFD0 and IFD1 (72 dpi:
    /// a photo has no print size of its own).
    private func resolution(_ ifd: ExifIfd) {
        rationals(ifd, EXIF_TAG_X_RESOLUTION, [(72, 1)])
        rationals(ifd, EXIF_TAG_Y_RESOLUTION, [(72, 1)])
        short(ifd, EXIF_TAG_RESOLUTION_UNIT, 2)  // inches
    }

    private func ascii(_ ifd: ExifIfd, _ tag: ExifTag, _ text: String?) {
        guard let text, !text.isEmpty else { return }
        let bytes = Array(text.utf8.filter { $0 != 0 }) + [0]
        put(ifd, tag, format: EXIF_FORMAT_ASCII, components: bytes.count, bytes: bytes)
    }

    private func undefined(_ ifd: ExifIfd, _ tag: ExifTag, _ bytes: [UInt8]) {
        put(ifd, tag, format: EXIF_FORMAT_UNDEFINED, components: bytes.count, bytes: bytes)
    }

    private func bytes(_ ifd: ExifIfd, _ tag: ExifTag, _ bytes: [UInt8]) {
        put(ifd, tag, format: EXIF_FORMAT_BYTE, components: bytes.count, bytes: bytes)
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

    /// RATIONAL values, each a (numerator, denominator) pair.
    private func rationals(_ ifd: ExifIfd, _ tag: ExifTag, _ values: [(UInt32, UInt32)]) {
        var bytes = [UInt8](repeating: 0, count: 8 * values.count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for (index, value) in values.enumerated() {
                exif_set_rational(buffer.baseAddress! + index * 8, order, ExifRational(numerator: value.0, denominator: value.1))
            }
        }
        put(ifd, tag, format: EXIF_FORMAT_RATIONAL, components: values.count, bytes: bytes)
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
