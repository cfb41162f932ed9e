import CExif

#if canImport(Glibc)
import Glibc
import Values
#endif

/// Owns one libexif `ExifData`. Reads fields from it and rewrites it for a processed photo.
final class ExifBlock {
    /// The tags we read or change, with the IFD they live in.
    enum Tag {
        case orientation, dateTime, make, model, artist
        case dateTimeOriginal, offsetTimeOriginal, pixelXDimension, pixelYDimension, makerNote, userComment
        case gpsLatitudeRef, gpsLatitude, gpsLongitudeRef, gpsLongitude, gpsAltitudeRef, gpsAltitude, gpsStatus, gpsImgDirection

        var place: (ifd: ExifIfd, tag: ExifTag) {
            switch self {
            case .orientation: return (EXIF_IFD_0, EXIF_TAG_ORIENTATION)
            case .dateTime: return (EXIF_IFD_0, EXIF_TAG_DATE_TIME)
            case .make: return (EXIF_IFD_0, EXIF_TAG_MAKE)
            case .model: return (EXIF_IFD_0, EXIF_TAG_MODEL)
            case .artist: return (EXIF_IFD_0, EXIF_TAG_ARTIST)
            case .dateTimeOriginal: return (EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL)
            case .offsetTimeOriginal: return (EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_ORIGINAL)
            case .pixelXDimension: return (EXIF_IFD_EXIF, EXIF_TAG_PIXEL_X_DIMENSION)
            case .pixelYDimension: return (EXIF_IFD_EXIF, EXIF_TAG_PIXEL_Y_DIMENSION)
            case .makerNote: return (EXIF_IFD_EXIF, EXIF_TAG_MAKER_NOTE)
            case .userComment: return (EXIF_IFD_EXIF, EXIF_TAG_USER_COMMENT)
            case .gpsLatitudeRef: return (EXIF_IFD_GPS, ExifTag(1))
            case .gpsLatitude: return (EXIF_IFD_GPS, ExifTag(2))
            case .gpsLongitudeRef: return (EXIF_IFD_GPS, ExifTag(3))
            case .gpsLongitude: return (EXIF_IFD_GPS, ExifTag(4))
            case .gpsAltitudeRef: return (EXIF_IFD_GPS, ExifTag(5))
            case .gpsAltitude: return (EXIF_IFD_GPS, ExifTag(6))
            case .gpsStatus: return (EXIF_IFD_GPS, ExifTag(9))
            case .gpsImgDirection: return (EXIF_IFD_GPS, ExifTag(0x11))
            }
        }
    }

    private let data: UnsafeMutablePointer<ExifData>
    /// What libexif complained about while loading (corrupt offsets, bad sizes …).
    private(set) var problems: [String] = []

    /// Parses an APP1 payload ("Exif\0\0" + TIFF). Nil when libexif finds nothing usable in it.
    init?(payload: [UInt8]) {
        guard let data = exif_data_new() else { return nil }
        self.data = data
        // Keep tags libexif does not know and do not "fix" the data: the source's EXIF goes out as it came.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        let collector = LogCollector()
        let log = exif_log_new()
        exif_log_set_func(log, { _, code, domain, format, arguments, context in
            guard code == EXIF_LOG_CODE_CORRUPT_DATA, let format, let arguments, let context else { return }
            // libexif's maker-note parsers ("ExifMnoteCanon" …) guess a layout and byte order
            // exiftool does not (a Canon note kept little-endian in a block rewritten big-endian
            // reads as "Too much tags (9472)"); the writer reads maker notes itself, and keeps them.
            if let domain, String(cString: domain).hasPrefix("ExifMnote") { return }
            var buffer = [CChar](repeating: 0, count: 256)
            vsnprintf(&buffer, buffer.count, format, arguments)
            Unmanaged<LogCollector>.fromOpaque(context).takeUnretainedValue()
                .messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }, Unmanaged.passUnretained(collector).toOpaque())
        exif_data_log(data, log)
        payload.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32($0.count)) }
        exif_data_log(data, nil)
        exif_log_unref(log)
        problems = collector.messages.first.map { [Self.plain($0)] } ?? []
        if (0..<Int(EXIF_IFD_COUNT.rawValue)).allSatisfy({ content(ExifIfd(UInt32($0)))?.pointee.count ?? 0 == 0 }) {
            return nil
        }
    }

    deinit { exif_data_unref(data) }

    /// libexif's complaint in words: a maker note it cannot parse is the camera's private data in a
    /// layout libexif does not know (the writer keeps it byte for byte, so nothing is lost).
    static func plain(_ message: String) -> String {
        if message.contains("MakerNote") {
            return "the camera's maker notes are in a layout that could not be read (\(message)); they are kept as they are"
        }
        return "corrupt EXIF: " + message
    }

    private final class LogCollector { var messages: [String] = [] }

    private var byteOrder: ExifByteOrder { exif_data_get_byte_order(data) }

    private func content(_ ifd: ExifIfd) -> UnsafeMutablePointer<ExifContent>? { ExifDataAccess.content(data, ifd) }

    private func entry(_ tag: Tag) -> UnsafeMutablePointer<ExifEntry>? {
        let place = tag.place
        guard let content = content(place.ifd) else { return nil }
        return exif_content_get_entry(content, place.tag)
    }

    func string(_ tag: Tag) -> String? {
        guard let entry = entry(tag), entry.pointee.format == EXIF_FORMAT_ASCII,
              let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let text = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace
        return text.isEmpty ? nil : text
    }

    func short(_ tag: Tag) -> Int? {
        guard let entry = entry(tag), let bytes = entry.pointee.data, entry.pointee.size >= 2 else { return nil }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT: return Int(exif_get_short(bytes, byteOrder))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(bytes, byteOrder))
        default: return nil
        }
    }

    /// RATIONAL or SRATIONAL values (phones write GPS tags in both). A zero denominator gives nil
    /// for that value, except 0/0, which writers use for "unknown" and reads as NaN.
    private func rationals(_ tag: Tag) -> [Double?]? {
        guard let entry = entry(tag), let bytes = entry.pointee.data else { return nil }
        let signed: Bool
        switch entry.pointee.format {
        case EXIF_FORMAT_RATIONAL: signed = false
        case EXIF_FORMAT_SRATIONAL: signed = true
        default: return nil
        }
        let count = min(Int(entry.pointee.components), Int(entry.pointee.size) / 8)
        return (0..<count).map { index -> Double? in
            let (numerator, denominator): (Double, Double)
            if signed {
                let value = exif_get_srational(bytes + index * 8, byteOrder)
                (numerator, denominator) = (Double(value.numerator), Double(value.denominator))
            } else {
                let value = exif_get_rational(bytes + index * 8, byteOrder)
                (numerator, denominator) = (Double(value.numerator), Double(value.denominator))
            }
            if denominator == 0 { return numerator == 0 ? .nan : nil }
            return numerator / denominator
        }
    }

    /// The first character of a reference tag (N/S, E/W), uppercased, whatever type it was written
    /// as (ASCII, BYTE, UNDEFINED).
    private func reference(_ tag: Tag) -> Character? {
        guard let entry = entry(tag), let bytes = entry.pointee.data, entry.pointee.size >= 1 else { return nil }
        let first = Character(Unicode.Scalar(bytes.pointee))
        return first.isLetter ? Character(first.uppercased()) : nil
    }

    /// Latitude, longitude, altitude and the direction the camera faced, from the GPS IFD as real
    /// files write it: unsigned or signed rationals; degrees, minutes and seconds or fewer parts
    /// (decimal degrees; degrees and decimal minutes; 0/0 for seconds not given); tags in any
    /// order; references missing (the sign of a signed value then stands, else north and east) or
    /// in lower case. Degrees of 0/0 (a camera without a fix) and a position off the globe are nil.
    /// So is a camera's "no position" in other words: GPSStatus V (the measurement is void), or
    /// exactly 0° 0°, which cameras without a fix write with or without GPSMeasureMode (a real fix
    /// lands exactly there no more often than anywhere else, and stamping it would claim a place).
    var gpsPosition: GPSPosition? {
        if reference(.gpsStatus) == "V" { return nil }
        func degrees(_ tag: Tag, _ refTag: Tag, negative: Character) -> Double? {
            guard let parts = rationals(tag), (1...3).contains(parts.count), !parts.contains(nil),
                  parts[0]!.isFinite else { return nil }  // 0/0 degrees: a camera's "no position" (Leica)
            // 0/0 minutes or seconds: none.
            let values = parts.map { $0!.isNaN ? 0 : $0! }
            var magnitude = 0.0
            for (index, value) in values.enumerated() { magnitude += abs(value) / [1.0, 60, 3600][index] }
            switch reference(refTag) {
            case negative?: return -magnitude
            case nil: return values[0] < 0 ? -magnitude : magnitude
            default: return magnitude
            }
        }
        guard let latitude = degrees(.gpsLatitude, .gpsLatitudeRef, negative: "S"),
              let longitude = degrees(.gpsLongitude, .gpsLongitudeRef, negative: "W"),
              latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              latitude != 0 || longitude != 0 else { return nil }
        var altitude = rationals(.gpsAltitude)?.first ?? nil
        if let value = altitude {
            if let entry = entry(.gpsAltitudeRef), entry.pointee.size >= 1, let ref = entry.pointee.data {
                altitude = ref.pointee == 1 ? -abs(value) : abs(value)  // 1: below sea level
            }
            if !(altitude?.isFinite ?? false) { altitude = nil }
        }
        var position = GPSPosition(latitude: latitude, longitude: longitude, altitude: altitude)
        if let direction = rationals(.gpsImgDirection)?.first ?? nil, direction.isFinite, direction >= 0, direction <= 360 {
            position.heading = direction == 360 ? 0 : direction
        }
        return position
    }

    var thumbnailByteCount: Int { data.pointee.data == nil ? 0 : Int(data.pointee.size) }

    // MARK: rewriting for a processed photo

    /// Makes the block describe an upright `width` × `height` photo without a thumbnail: the old
    /// thumbnail is unstamped and unrotated, and would leak the original.
    func prepareForOutput(width: Int, height: Int) {
        setNumber(.orientation, 1, addIfMissing: false)
        let hasExifIFD = (content(EXIF_IFD_EXIF)?.pointee.count ?? 0) > 0
        setNumber(.pixelXDimension, width, addIfMissing: hasExifIFD)
        setNumber(.pixelYDimension, height, addIfMissing: hasExifIFD)
        if data.pointee.data != nil {
            free(data.pointee.data)  // libexif's default allocator is malloc
            data.pointee.data = nil
            data.pointee.size = 0
        }
        if let thumbnailIFD = content(EXIF_IFD_1) {
            while thumbnailIFD.pointee.count > 0, let first = thumbnailIFD.pointee.entries[0] {
                exif_content_remove_entry(thumbnailIFD, first)
            }
        }
    }

    func remove(_ tag: Tag) {
        if let entry = entry(tag), let content = content(tag.place.ifd) {
            exif_content_remove_entry(content, entry)
        }
    }

    private func setNumber(_ tag: Tag, _ value: Int, addIfMissing: Bool) {
        var target = entry(tag)
        if target == nil, addIfMissing, let content = content(tag.place.ifd), let created = exif_entry_new() {
            exif_content_add_entry(content, created)
            exif_entry_initialize(created, tag.place.tag)
            exif_entry_unref(created)
            target = created
        }
        guard let entry = target, let bytes = entry.pointee.data else { return }
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2:
            exif_set_short(bytes, byteOrder, ExifShort(clamping: value))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4:
            exif_set_long(bytes, byteOrder, ExifLong(clamping: value))
        default:
            break
        }
    }

    /// The block serialised as an APP1 payload ("Exif\0\0" + TIFF).
    func payload() -> [UInt8]? { ExifDataAccess.payload(data) }

    /// The block serialised in at most `limit` bytes. What does not fit is dropped, the largest
    /// first, and named in `warnings`: a free-form UserComment or MakerNote (what makes a block
    /// this big) before any other entry. Nil, with a warning, only when nothing fits.
    func payload(fitting limit: Int) -> (payload: [UInt8]?, warnings: [String]) {
        guard var bytes = payload() else {
            return (nil, ["EXIF not written: libexif could not serialise it"])
        }
        let original = bytes.count
        var dropped: [String] = []
        while bytes.count > limit {
            let entries = self.entries()
            let freeForm = entries.filter { [EXIF_TAG_USER_COMMENT, EXIF_TAG_MAKER_NOTE].contains($0.tag) }
            guard let largest = (freeForm.isEmpty ? entries : freeForm).max(by: { $0.size < $1.size }) else { break }
            dropped.append("\(largest.name) (\(largest.size) bytes)")
            if let content = content(largest.ifd) { exif_content_remove_entry(content, largest.entry) }
            guard let smaller = payload() else { break }
            bytes = smaller
        }
        let reason = "the EXIF block is \(original) bytes, more than the \(limit) one APP1 segment holds"
        guard bytes.count <= limit else {
            return (nil, ["EXIF not written: \(reason), even without " + dropped.joined(separator: ", ")])
        }
        if dropped.isEmpty { return (bytes, []) }
        return (bytes, ["EXIF shortened: \(reason); dropped " + dropped.joined(separator: ", ")])
    }

    /// Every entry of the block's IFDs, with its data size and tag name.
    private func entries() -> [(ifd: ExifIfd, tag: ExifTag, entry: UnsafeMutablePointer<ExifEntry>, size: Int, name: String)] {
        var result: [(ifd: ExifIfd, tag: ExifTag, entry: UnsafeMutablePointer<ExifEntry>, size: Int, name: String)] = []
        for index in 0..<Int(EXIF_IFD_COUNT.rawValue) {
            let ifd = ExifIfd(UInt32(index))
            guard let content = content(ifd), let list = content.pointee.entries else { continue }
            for position in 0..<Int(content.pointee.count) {
                guard let entry = list[position] else { continue }
                let tag = entry.pointee.tag
                let name = exif_tag_get_name_in_ifd(tag, ifd).map { String(cString: $0) }
                    ?? "tag 0x" + Hex.padded(tag.rawValue, digits: 4)
                result.append((ifd, tag, entry, Int(entry.pointee.size), name))
            }
        }
        return result
    }
}
