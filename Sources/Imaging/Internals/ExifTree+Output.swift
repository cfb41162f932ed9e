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
