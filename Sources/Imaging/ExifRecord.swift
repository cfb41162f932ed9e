/// The EXIF tags of a photo made from scratch (a camera capture), as opposed to EXIF read from a
/// file. Its `payload()` goes into `PhotoMetadata.exif`, and from there into the JPEG.
public struct ExifRecord: Sendable, Equatable {
    public var make: String?
    public var model: String?
    public var software: String?
    public var artist: String?
    /// How the stored pixels must be turned to be upright (EXIF Orientation); `.up` for pixels
    /// stored upright.
    public var orientation: Orientation = .up
    /// Local time of the capture, "YYYY:MM:DD HH:MM:SS" (written as DateTime, DateTimeOriginal
    /// and DateTimeDigitized).
    public var dateTime: String?
    /// Its UTC offset, "+HH:MM" (written as OffsetTime, OffsetTimeOriginal and OffsetTimeDigitized).
    public var offsetTime: String?
    /// Stored pixel size (EXIF PixelXDimension, PixelYDimension): before any orientation turn.
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// The EXIF Flash value: bit 0 fired; bits 3–4 mode (1 on, 2 off, 3 auto); bit 5 no flash.
    public var flash: Int?
    /// Digital zoom applied (EXIF DigitalZoomRatio); 0 or nil for none.
    public var digitalZoomRatio: Double?
    /// Free text, written as an ASCII UserComment (the capture settings, for instance).
    public var userComment: String?
    /// Where the photo was taken: the GPS IFD's latitude, longitude and, when known, altitude
    /// (negative below sea level).
    public var gps: GPSPosition?
    /// A small JPEG preview (the thumbnail in IFD1). Left out when the whole block would not fit
    /// in one APP1 marker.
    public var thumbnail: [UInt8]?

    public init() {}

    /// The EXIF Flash value for a camera without a flash.
    public static let flashNotPresent = 0x20

    /// The most an APP1 marker holds: its length field counts itself and is 16 bits.
    public static let maximumPayloadSize = 65533

    /// The APP1 payload ("Exif\0\0" + TIFF) holding these tags; nil when libexif cannot build it
    /// or the tags alone do not fit in one APP1 marker.
    public func payload() -> [UInt8]? {
        if let payload = ExifBuilder(self)?.payload(), payload.count <= Self.maximumPayloadSize { return payload }
        guard thumbnail != nil else { return nil }
        var withoutThumbnail = self
        withoutThumbnail.thumbnail = nil
        return withoutThumbnail.payload()
    }
}
