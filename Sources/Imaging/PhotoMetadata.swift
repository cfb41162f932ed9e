
/// A position from the photo's GPS tags, in decimal degrees (south and west negative) and metres.
public struct GPSPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    /// Which way the camera faced, degrees clockwise from north (GPSImgDirection).
    public var heading: Double? = nil

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }
}

/// What a photo carries besides pixels: the EXIF block as read (kept for writing back), the ICC
/// profile, and the EXIF fields stamps and names are made of.
public struct PhotoMetadata: Sendable {
    /// The APP1 payload, starting "Exif\0\0", as found in the source.
    public var exif: [UInt8]?
    public var iccProfile: [UInt8]?
    /// The XMP packet as found in the source's APP1 (after its namespace header): read, for
    /// stampcam's own record (`XMPPacket(parsing:)`); not written out again.
    public var xmp: [UInt8]?
    public var orientation: Orientation = .up
    /// EXIF date strings as written, "YYYY:MM:DD HH:MM:SS"; offsets as "+HH:MM".
    public var dateTimeOriginal: String?
    public var offsetTimeOriginal: String?
    public var dateTime: String?
    public var make: String?
    public var model: String?
    public var artist: String?
    public var gps: GPSPosition?
    public var thumbnailByteCount = 0
    /// Problems found while reading, the photo still usable: in the EXIF block or the ICC profile
    /// (dropped), and, when loaded with `LoadOptions.salvage`, damage in the picture data.
    public var warnings: [String] = []

    public init() {}

    /// Reads the fields of an EXIF APP1 payload and an ICC profile.
    public init(exif: [UInt8]?, iccProfile: [UInt8]?) {
        self.exif = exif
        self.iccProfile = iccProfile
        guard let exif else { return }
        guard let block = ExifBlock(payload: exif) else {
            warnings.append("corrupt EXIF: no readable tags; the photo is written without EXIF")
            self.exif = nil
            return
        }
        warnings = block.problems
        orientation = block.short(.orientation).flatMap(Orientation.init(rawValue:)) ?? .up
        dateTimeOriginal = block.string(.dateTimeOriginal)
        offsetTimeOriginal = block.string(.offsetTimeOriginal)
        dateTime = block.string(.dateTime)
        make = block.string(.make)
        model = block.string(.model)
        artist = block.string(.artist)
        gps = block.gpsPosition
        thumbnailByteCount = block.thumbnailByteCount
    }
}
