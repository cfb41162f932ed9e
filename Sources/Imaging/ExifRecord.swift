/// The EXIF tags of a photo made from scratch (a camera capture), as opposed to EXIF read from a
/// file. Its `payload()` goes into `PhotoMetadata.exif`, and from there into the JPEG.
public struct ExifRecord: Sendable, Equatable {
    public var make: String?
    public var model: String?
    public var software: String?
    public var artist: String?
    /// Local time of the capture, "YYYY:MM:DD HH:MM:SS" (written as DateTime, DateTimeOriginal
    /// and DateTimeDigitized).
    public var dateTime: String?
    /// Its UTC offset, "+HH:MM" (written as OffsetTime, OffsetTimeOriginal and OffsetTimeDigitized).
    public var offsetTime: String?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// The EXIF Flash value: bit 0 fired; bits 3–4 mode (1 on, 2 off, 3 auto); bit 5 no flash.
    public var flash: Int?
    /// Digital zoom applied (EXIF DigitalZoomRatio); 0 or nil for none.
    public var digitalZoomRatio: Double?
    /// Free text, written as an ASCII UserComment (the capture settings, for instance).
    public var userComment: String?

    public init() {}

    /// The EXIF Flash value for a camera without a flash.
    public static let flashNotPresent = 0x20

    /// The APP1 payload ("Exif\0\0" + TIFF) holding these tags; nil when libexif cannot build it.
    public func payload() -> [UInt8]? {
        ExifBuilder(self)?.payload()
    }
}
