extension ExifTree {
    private enum Tag {
        static let imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let imageDescription: UInt16 = 0x010E, orientation: UInt16 = 0x0112
        static let software: UInt16 = 0x0131, artist: UInt16 = 0x013B
        static let componentsConfiguration: UInt16 = 0x9101, flashpixVersion: UInt16 = 0xA000, colorSpace: UInt16 = 0xA001
        static let exifVersion: UInt16 = 0x9000, dateTimeOriginal: UInt16 = 0x9003, offsetTimeOriginal: UInt16 = 0x9011
        static let pixelXDimension: UInt16 = 0xA002, pixelYDimension: UInt16 = 0xA003
    }

    /// Makes the block describe an upright `width` × `height` photo. The thumbnail (IFD1) is never
    /// written: it is unstamped and unrotated, and would leak the original.
    mutating func prepareForOutput(width: Int, height: Int) {
        if entry(.ifd0, Tag.orientation) != nil { set(.ifd0, shortEntry(Tag.orientation, 1)) }
        for (tag, value) in [(Tag.imageWidth, width), (Tag.imageLength, height)] where entry(.ifd0, tag) != nil {
            set(.ifd0, size(tag, value, like: entry(.ifd0, tag)))
        }
        if hasDirectory(.exif) {
            set(.exif, size(Tag.pixelXDimension, width, like: entry(.exif, Tag.pixelXDimension)))
            set(.exif, size(Tag.pixelYDimension, height, like: entry(.exif, Tag.pixelYDimension)))
        }
    }

    /// Keeps `orientation` in the tag, for pixels stored turned (a photo stamped in place).
    mutating func setOrientation(_ orientation: Orientation) {
        set(.ifd0, shortEntry(Tag.orientation, UInt16(orientation.rawValue)))
    }

    /// A size in the type the source used (SHORT when it fits), else LONG.
    private func size(_ tag: UInt16, _ value: Int, like existing: Entry?) -> Entry {
        if existing?.type == 3, let short = UInt16(exactly: value) { return shortEntry(tag, short) }
        return longEntry(tag, UInt32(clamping: value))
    }

    mutating func apply(_ edits: ExifEdits) {
        if let artist = edits.artist { set(.ifd0, asciiEntry(Tag.artist, artist)) }
        if let description = edits.imageDescription { set(.ifd0, asciiEntry(Tag.imageDescription, description)) }
        if let software = edits.software { set(.ifd0, asciiEntry(Tag.software, software)) }
        if edits.dateTimeOriginal != nil || edits.offsetTimeOriginal != nil, !hasDirectory(.exif) {
            // A new EXIF IFD with the tags EXIF requires of a JPEG file (the pixel size follows in
            // prepareForOutput); sRGB as the colour space, as ExifBuilder writes it.
            set(.exif, Entry(tag: Tag.exifVersion, type: 7, count: 4, value: Array("0231".utf8)))
            set(.exif, Entry(tag: Tag.componentsConfiguration, type: 7, count: 4, value: [1, 2, 3, 0]))
            set(.exif, Entry(tag: Tag.flashpixVersion, type: 7, count: 4, value: Array("0100".utf8)))
            set(.exif, shortEntry(Tag.colorSpace, 1))
        }
        if edits.offsetTimeOriginal != nil, let version = entry(.exif, Tag.exifVersion), version.value.count == 4,
           String(decoding: version.value, as: UTF8.self) < "0231" {
            // OffsetTimeOriginal is an EXIF 2.31 tag.
            set(.exif, Entry(tag: Tag.exifVersion, type: 7, count: 4, value: Array("0231".utf8)))
        }
        if let time = edits.dateTimeOriginal { set(.exif, asciiEntry(Tag.dateTimeOriginal, time)) }
        if let offset = edits.offsetTimeOriginal { set(.exif, asciiEntry(Tag.offsetTimeOriginal, offset)) }
        if let position = edits.gps { replace(.gps, with: gpsEntries(position)) }
    }

    /// The GPS IFD for a position (EXIF 2.32 §4.6.6, version 2.3): unsigned degrees, minutes and
    /// seconds with N/S and E/W; altitude in metres above or below sea level. Nil (the source's
    /// GPS kept) for a position off the globe.
    private func gpsEntries(_ position: GPSPosition) -> [Entry]? {
        guard (-90...90).contains(position.latitude), (-180...180).contains(position.longitude),
              let latitude = ExifBuilder.degreesMinutesSeconds(position.latitude),
              let longitude = ExifBuilder.degreesMinutesSeconds(position.longitude) else { return directories[.gps] }
        var entries = [
            Entry(tag: 0, type: 1, count: 4, value: [2, 3, 0, 0]),
            asciiEntry(1, position.latitude < 0 ? "S" : "N"),
            rationalEntry(2, latitude),
            asciiEntry(3, position.longitude < 0 ? "W" : "E"),
            rationalEntry(4, longitude),
        ]
        if let altitude = position.altitude, let metres = ExifBuilder.milli(abs(altitude)) {
            entries.append(Entry(tag: 5, type: 1, count: 1, value: [altitude < 0 ? 1 : 0]))
            entries.append(rationalEntry(6, [(metres, 1000)]))
        }
        return entries
    }
}

extension ExifTree {
    /// Makes a block written for another kind of file (a HEIC's, a PNG's) what EXIF requires of the
    /// JPEG it now describes (EXIF 2.32 §4.6.3–4.6.5, as `exiftool -validate` checks it): the tags
    /// only a TIFF layout has dropped, the required ones added where missing (resolution, ExifVersion,
    /// FlashpixVersion, ComponentsConfiguration, ColorSpace, GPSVersionID) and an ExifVersion
    /// recent enough for the tags the block holds. The pixel size follows in `prepareForOutput`.
    mutating func completeForJPEG(hasICCProfile: Bool) {
        // Strips, samples and compression describe a TIFF's own image data; a JPEG's are in its markers.
        for tag: UInt16 in [0x100, 0x101, 0x102, 0x103, 0x106, 0x111, 0x115, 0x116, 0x117, 0x11C, 0x201, 0x202, 0x212] {
            remove(.ifd0, tag)
        }
        if entry(.ifd0, 0x11A) == nil { set(.ifd0, rationalEntry(0x11A, [(72, 1)])) }  // XResolution
        if entry(.ifd0, 0x11B) == nil { set(.ifd0, rationalEntry(0x11B, [(72, 1)])) }  // YResolution
        if entry(.ifd0, 0x128) == nil { set(.ifd0, shortEntry(0x128, 2)) }  // ResolutionUnit: inches
        if entry(.ifd0, 0x213) == nil { set(.ifd0, shortEntry(0x213, 1)) }  // YCbCrPositioning: centred, as libjpeg samples

        let tags = (entries(.exif) + entries(.interop)).map { Self.exifVersion(introducing: $0.tag) }
        let needed = max(tags.max() ?? 0, hasDirectory(.interop) ? 210 : 0)
        let current = entry(.exif, Tag.exifVersion).flatMap { Int(String(decoding: $0.value, as: UTF8.self)) }
        if current == nil || current! < needed {
            // Raised only as far as the tags need; a block without any version gets the one ExifBuilder writes.
            let version = current == nil ? 232 : needed
            set(.exif, Entry(tag: Tag.exifVersion, type: 7, count: 4, value: Array(Self.versionText(version).utf8)))
        }
        if entry(.exif, Tag.componentsConfiguration) == nil {
            set(.exif, Entry(tag: Tag.componentsConfiguration, type: 7, count: 4, value: [1, 2, 3, 0]))  // Y Cb Cr
        }
        if entry(.exif, Tag.flashpixVersion) == nil {
            set(.exif, Entry(tag: Tag.flashpixVersion, type: 7, count: 4, value: Array("0100".utf8)))
        }
        if entry(.exif, Tag.colorSpace) == nil {
            // A profile that goes along says what the colours are: "uncalibrated" in EXIF's terms.
            set(.exif, shortEntry(Tag.colorSpace, hasICCProfile ? 0xFFFF : 1))
        }
        if hasDirectory(.gps), entry(.gps, 0) == nil {
            set(.gps, Entry(tag: 0, type: 1, count: 4, value: [2, 3, 0, 0]))  // GPSVersionID 2.3
        }
    }

    /// The EXIF version that introduced `tag` (as 232 for 2.32); 0 for the tags of every version.
    static func exifVersion(introducing tag: UInt16) -> Int {
        switch tag {
        case 0xA460...0xA462: return 232  // CompositeImage and its counts
        case 0x9010...0x9012, 0x9400...0x9405: return 231  // OffsetTime*, the ambient conditions
        case 0x8830...0x8835, 0xA430...0xA435: return 230  // sensitivity types, owner, serials, lens
        case 0xA500: return 221  // Gamma
        case 0x9214, 0xA401...0xA40C, 0xA420: return 220  // SubjectArea, the scene tags, ImageUniqueID
        default: return 0
        }
    }

    /// 232 as "0232", as ExifVersion writes it.
    private static func versionText(_ version: Int) -> String {
        let digits = String(version)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
