/// EXIF tags a stamped photo carries beyond its source's: set on output, every other tag of the
/// source (maker note included) kept as it was. Nil leaves a tag as the source has it.
public struct ExifEdits: Sendable, Equatable {
    /// IFD0 Artist: who took the photo.
    public var artist: String?
    /// IFD0 ImageDescription: what the photo shows (the note).
    public var imageDescription: String?
    /// IFD0 Software: what made this file.
    public var software: String?
    /// EXIF DateTimeOriginal, "YYYY:MM:DD HH:MM:SS", and OffsetTimeOriginal, "+HH:MM".
    public var dateTimeOriginal: String?
    public var offsetTimeOriginal: String?
    /// A new GPS IFD (the source's is replaced).
    public var gps: GPSPosition?

    public init(artist: String? = nil, imageDescription: String? = nil, software: String? = nil,
                dateTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil, gps: GPSPosition? = nil) {
        self.artist = artist
        self.imageDescription = imageDescription
        self.software = software
        self.dateTimeOriginal = dateTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.gps = gps
    }

    public var isEmpty: Bool { self == ExifEdits() }
}

/// What a written photo carries beyond its source's metadata: EXIF tags to set and an XMP packet.
public struct OutputMetadata: Sendable, Equatable {
    public var exif: ExifEdits
    public var xmp: XMPPacket?

    public init(exif: ExifEdits = ExifEdits(), xmp: XMPPacket? = nil) {
        self.exif = exif
        self.xmp = xmp
    }
}
