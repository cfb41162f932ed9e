import Imaging
import Platform
import Templates
import Values

/// What a stamped photo says about itself besides its pixels, in one place for `shoot`, `apply` and
/// `restamp`: the EXIF tags and the XMP packet (IPTC Photo Metadata properties for viewers and maps,
/// and stampcam's own record of the stamp, read back by `restamp` and to refuse stamping twice).
public struct StampRecord: Sendable, Equatable {
    public var styleID: String
    public var styleName: String
    public var styleVersion: Int
    /// The values the stamp shows (as given, before a stamp cuts them short).
    public var fields: Fields
    /// When the stamp was made.
    public var stampedAt: Timestamp?
    /// stampcam and its version, e.g. "stampcam 0.2.0".
    public var software: String
    /// The kept original: its file name (beside the photo), its SHA-256, how it was taken.
    public var original: String?
    public var originalSHA256: String?
    public var capture: String?
    /// The SHA-256 of the unstamped picture (see docs/provenance.md for what is hashed on each path),
    /// from which with the shown values `fields.code` is derived; nil until the writer knows it.
    public var pixelsSHA256: String? {
        get { fields.pixelsSHA256 }
        set { fields.pixelsSHA256 = newValue }
    }

    /// The verification code the stamp shows (`VerificationCode`).
    public var code: String? { fields.code }

    public init(styleID: String, styleName: String, styleVersion: Int, fields: Fields, stampedAt: Timestamp?,
                software: String, original: String? = nil, originalSHA256: String? = nil, capture: String? = nil) {
        self.styleID = styleID
        self.styleName = styleName
        self.styleVersion = styleVersion
        self.fields = fields
        self.stampedAt = stampedAt
        self.software = software
        self.original = original
        self.originalSHA256 = originalSHA256
        self.capture = capture
    }

    public init(style: Template, fields: Fields, stampedAt: Timestamp?, software: String, original: String? = nil,
                originalSHA256: String? = nil, capture: String? = nil) {
        self.init(styleID: style.id, styleName: style.name, styleVersion: style.version, fields: fields, stampedAt: stampedAt,
                  software: software, original: original, originalSHA256: originalSHA256, capture: capture)
    }

    /// Records the hash of the unstamped picture and the code derived from it and what `style`
    /// shows of the fields (`Template.shownValues`), so the stamp can show the code.
    public mutating func setPicture(sha256: String, style: Template) {
        pixelsSHA256 = sha256
        fields.code = VerificationCode.derive(pixelsSHA256: sha256, fields: style.shownValues(fields))
    }

    /// stampcam's XMP namespace. The `.invalid` domain (RFC 2606) is one nobody owns: the URI names
    /// the vocabulary and points nowhere.
    public static let namespace = XMPNamespace(uri: "http://stampcam.invalid/xmp/1.0/", prefix: "stampcam")

    /// Metadata keeps this many characters of a value (the stamp shows `Fields.maxValueLength`).
    public static let maximumValueLength = 2000

    /// Times that say when the photo was taken (others — a file's modification time, the clock
    /// while nothing was taken — are not written as the capture time).
    static let captureTimeSources: Set<String> = ["EXIF", "camera clock", "command line", uploadTimeSource]
    /// A phone's photo: the server's clock when it arrived (`PhotoUploads.timeSource`).
    static let uploadTimeSource = "server clock at upload"

    // MARK: writing

    /// The EXIF tags and the XMP packet a photo with `source` metadata is written with.
    public func outputMetadata(source: PhotoMetadata) -> OutputMetadata {
        // A camera time without OffsetTimeOriginal is shown in the local zone, a guess: XMP gets it without one.
        let zoneKnown = !(fields.timeSource == "EXIF" && source.offsetTimeOriginal == nil)
        return OutputMetadata(exif: exifEdits(source: source), xmp: xmp(zoneKnown: zoneKnown))
    }

    /// Artist, ImageDescription and Software; DateTimeOriginal with its zone when the time was
    /// given, or is the server's for a phone's frame without one (a photo's own time is its EXIF's
    /// already); GPS when the position is not the source's.
    func exifEdits(source: PhotoMetadata) -> ExifEdits {
        var edits = ExifEdits(software: software)
        if let user = cut(fields.user), user != source.artist { edits.artist = user }
        edits.imageDescription = cut(fields.note)
        // A time given, or the server's for a phone's frame that has none of its own (a file keeps its own).
        if let time = fields.time,
           fields.timeSource == "command line" || fields.timeSource == Self.uploadTimeSource && source.dateTimeOriginal == nil {
            edits.dateTimeOriginal = time.exifText
            if !time.exifOffset.isEmpty { edits.offsetTimeOriginal = time.exifOffset }
        }
        if let position {
            let same = source.gps.map { abs($0.latitude - position.latitude) < 1e-7 && abs($0.longitude - position.longitude) < 1e-7 } ?? false
            if !same { edits.gps = position }
        }
        return edits
    }

    private var position: GPSPosition? {
        guard let latitude = fields.latitude, let longitude = fields.longitude else { return nil }
        return GPSPosition(latitude: latitude, longitude: longitude, altitude: fields.altitude)
    }

    private func cut(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value.count > Self.maximumValueLength ? String(value.prefix(Self.maximumValueLength)) : value
    }

    /// The XMP packet: IPTC Photo Metadata (who, what, where), XMP basics, and stampcam's record.
    /// `zoneKnown` false writes the capture time (photoshop:DateCreated) without a zone.
    public func xmp(zoneKnown: Bool = true) -> XMPPacket {
        typealias P = XMPPacket.Property
        var properties: [P] = [P(.xmp, "CreatorTool", .text(software))]
        if let stampedAt {
            properties.append(P(.xmp, "ModifyDate", .text(stampedAt.iso8601)))
            properties.append(P(.xmp, "MetadataDate", .text(stampedAt.iso8601)))
        }
        if let time = fields.time, Self.captureTimeSources.contains(fields.timeSource ?? "") {
            var created = time
            if !zoneKnown { created.utcOffsetMinutes = nil }
            properties.append(P(.photoshop, "DateCreated", .text(created.iso8601)))
        }
        if let user = cut(fields.user) { properties.append(P(.dc, "creator", .ordered([user]))) }
        if let note = cut(fields.note) { properties.append(P(.dc, "description", .languageAlternative(note))) }
        if let project = cut(fields.project) {
            properties.append(P(.dc, "title", .languageAlternative(project)))
            properties.append(P(.photoshop, "Headline", .text(project)))
        }
        let city = cut(fields.extra["city"]), state = cut(fields.extra["state"]), country = cut(fields.extra["country"])
        if let location = cut(fields.location) { properties.append(P(.iptcCore, "Location", .text(location))) }
        if let city { properties.append(P(.photoshop, "City", .text(city))) }
        if let state { properties.append(P(.photoshop, "State", .text(state))) }
        if let country { properties.append(P(.photoshop, "Country", .text(country))) }
        var shown: [P] = []
        if let location = cut(fields.location) { shown.append(P(.iptcExtension, "LocationName", .languageAlternative(location))) }
        if let city { shown.append(P(.iptcExtension, "City", .text(city))) }
        if let state { shown.append(P(.iptcExtension, "ProvinceState", .text(state))) }
        if let country { shown.append(P(.iptcExtension, "CountryName", .text(country))) }
        if let position {
            shown.append(P(.exif, "GPSLatitude", .text(Self.xmpCoordinate(position.latitude, positive: "N", negative: "S"))))
            shown.append(P(.exif, "GPSLongitude", .text(Self.xmpCoordinate(position.longitude, positive: "E", negative: "W"))))
        }
        if !shown.isEmpty { properties.append(P(.iptcExtension, "LocationShown", .structures([shown]))) }
        // Where the photographer stood: the named site (--sites), in the nearest town, in its country.
        if let site = cut(fields.site) {
            var created = [P(.iptcExtension, "Sublocation", .text(site))]
            if let town = city ?? cut(fields.placeName) { created.append(P(.iptcExtension, "City", .text(town))) }
            if let code = fields.countryCode, !code.isEmpty { created.append(P(.iptcExtension, "CountryCode", .text(code))) }
            properties.append(P(.iptcExtension, "LocationCreated", .structures([created])))
        }
        return XMPPacket(properties: properties + stampcamProperties)
    }

    /// stampcam's own record: the style, every field value, the time's source, the kept original.
    private var stampcamProperties: [XMPPacket.Property] {
        let ns = Self.namespace
        typealias P = XMPPacket.Property
        var properties = [P(ns, "Style", .text(styleID)), P(ns, "StyleName", .text(styleName)),
                          P(ns, "StyleVersion", .text(String(styleVersion)))]
        if let stampedAt { properties.append(P(ns, "Stamped", .text(stampedAt.iso8601))) }
        let texts: [(String, String?)] = [
            ("Time", fields.time?.iso8601), ("TimeSource", fields.timeSource), ("User", cut(fields.user)),
            ("Project", cut(fields.project)), ("Location", cut(fields.location)), ("Site", cut(fields.site)),
            ("SiteAddress", cut(fields.address)), ("Note", cut(fields.note)),
            ("Camera", cut(fields.camera)), ("Filename", fields.filename), ("Sequence", fields.sequence.map(String.init)),
            ("Latitude", fields.latitude.map { String($0) }), ("Longitude", fields.longitude.map { String($0) }),
            ("Altitude", fields.altitude.map { String($0) }),
            ("Original", original), ("OriginalSHA256", originalSHA256), ("Capture", capture),
            ("PixelsSHA256", pixelsSHA256), ("Code", fields.code),
            // The clock checked against GPS: GPS time, and how far the clock was from it (seconds).
            ("GPSTime", fields.gpsTime?.iso8601), ("ClockDifference", fields.clockDifference.map { fixedPoint($0, places: 1) }),
        ]
        for (name, value) in texts { if let value { properties.append(P(ns, name, .text(value))) } }
        if !fields.extra.isEmpty {
            properties.append(P(ns, "Extra", .structures(fields.extra.keys.sorted().map { key in
                [P(ns, "Key", .text(key)), P(ns, "Value", .text(cut(fields.extra[key]) ?? ""))]
            })))
        }
        return properties
    }

    /// XMP's GPS coordinate: "DDD,MM.mmmmmmK" (XMP Specification Part 2, GPSCoordinate).
    static func xmpCoordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let magnitude = abs(degrees)
        let whole = Int(clamping: magnitude, rounding: .towardZero)
        let minutes = (magnitude - Double(whole)) * 60
        let micro = Int(clamping: minutes * 1_000_000)
        return "\(whole),\(micro / 1_000_000).\(zeroPadded(micro % 1_000_000, 6))\(degrees < 0 ? negative : positive)"
    }

    // MARK: reading

    /// stampcam's record in an XMP packet; nil when the packet has none.
    public init?(xmp packet: XMPPacket) {
        let ns = Self.namespace
        guard let style = packet.text(ns, "Style") else { return nil }
        func text(_ name: String) -> String? { packet.text(ns, name) }
        // A number off the globe (or NaN, 1e308) in a hostile record is no position.
        func number(_ name: String, within limit: Double) -> Double? {
            text(name).flatMap(Double.init).flatMap { abs($0) <= limit ? $0 : nil }
        }
        var fields = Fields(time: text("Time").flatMap(Timestamp.init(iso8601:)), timeSource: text("TimeSource"),
                            user: text("User"), project: text("Project"), location: text("Location"), note: text("Note"),
                            latitude: number("Latitude", within: 90), longitude: number("Longitude", within: 180),
                            altitude: number("Altitude", within: 1e6), camera: text("Camera"), filename: text("Filename"),
                            sequence: text("Sequence").flatMap { Int($0) })
        fields.site = text("Site")
        fields.address = text("SiteAddress")
        fields.code = text("Code").flatMap { VerificationCode.isWellFormed($0) ? $0 : nil }
        fields.gpsTime = text("GPSTime").flatMap(Timestamp.init(iso8601:))
        fields.clockDifference = text("ClockDifference").flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        if case .structures(let pairs)? = packet.value(ns, "Extra") {
            for pair in pairs {
                let key = pair.first { $0.namespace.uri == ns.uri && $0.name == "Key" }?.value.text
                let value = pair.first { $0.namespace.uri == ns.uri && $0.name == "Value" }?.value.text
                if let key, !key.isEmpty { fields.extra[key] = value ?? "" }
            }
        }
        self.init(styleID: style, styleName: text("StyleName") ?? style, styleVersion: text("StyleVersion").flatMap { Int($0) } ?? 0,
                  fields: fields, stampedAt: text("Stamped").flatMap(Timestamp.init(iso8601:)),
                  software: packet.text(.xmp, "CreatorTool") ?? "", original: text("Original"),
                  originalSHA256: text("OriginalSHA256"), capture: text("Capture"))
        pixelsSHA256 = text("PixelsSHA256").map { $0.lowercased() }.flatMap { $0.utf8.count == 64 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
    }

    /// stampcam's record in a photo's XMP; nil when there is none, or the XMP cannot be read (then
    /// nothing says the photo was stamped).
    public static func read(_ metadata: PhotoMetadata) -> StampRecord? {
        guard let bytes = metadata.xmp, let packet = try? XMPPacket(parsing: bytes) else { return nil }
        return StampRecord(xmp: packet)
    }

    /// The day the stamp was made ("2026-11-29"), else the day of the time it shows.
    public var stampedDay: String? {
        (stampedAt ?? fields.time)?.dateText
    }
}

/// A photo stampcam stamped before, refused so it does not get a second stamp over the first.
public struct AlreadyStamped: Error, Sendable, Equatable, CustomStringConvertible {
    public let style: String
    /// "2026-11-29", when known.
    public let day: String?
    /// Whether the unstamped original its record names is beside it, so `restamp` can use it.
    public let originalKept: Bool

    public init(_ record: StampRecord, originalKept: Bool = false) {
        style = record.styleID
        day = record.stampedDay
        self.originalKept = originalKept
    }

    public var description: String {
        day.map { L("already stamped in style {1} on {2}", style, $0) } ?? L("already stamped in style {1}", style)
    }
}
