import Foundation
import Imaging
import Library
import Session
import Templates
import Testing
import TestSupport
import Values
import Watermark

/// What a stamped photo carries besides its pixels: decided by `StampRecord`, written by
/// `PhotoWriter` for every front end, read back by exiftool and by ourselves.
@Suite struct StampRecordTests {
    static let style = ShootControllerTests.styles.first { $0.id == "classic" }!
    static let stampTime = Timestamp(year: 2026, month: 11, day: 29, hour: 15, minute: 0, second: 1, utcOffsetMinutes: 480)
    static let fields = Fields(time: Timestamp(year: 2026, month: 11, day: 29, hour: 14, minute: 3, second: 12, utcOffsetMinutes: 480),
                               timeSource: "command line", user: "Li Wei 李伟", project: "Bridge <7> & \"co\"",
                               location: "Pier 4", note: "north wall\nsecond line", latitude: -22.951916, longitude: -43.210487,
                               altitude: 710, camera: "FX-1", filename: "site.jpg", sequence: 3,
                               extra: ["city": "Rio de Janeiro", "country": "Brazil", "crew": "B & C"])

    static func writer(_ version: String = "0.2.0") throws -> PhotoWriter {
        PhotoWriter(watermarker: try Watermarker(fontConfig: ShootControllerTests.fontConfig),
                    settings: PhotoWriter.Settings(version: version, clock: { stampTime }))
    }

    @Test("the record round-trips through XMP: style, every field, the stamp's time, the kept original")
    func roundTrip() throws {
        let record = StampRecord(style: Self.style, fields: Self.fields, stampedAt: Self.stampTime, software: "stampcam 0.2.0",
                                 original: "site.original.jpg", originalSHA256: String(repeating: "ab", count: 32),
                                 capture: "stampcam: test BGRX32 640x360")
        let read = try #require(StampRecord(xmp: try XMPPacket(parsing: try record.xmp().serialized())))
        #expect(read == record)
        #expect(StampRecord(xmp: XMPPacket()) == nil)
    }

    @Test("the picture's hash, the code and the clock against GPS round-trip through XMP; a malformed code or hash is not read")
    func codeAndClockRoundTrip() throws {
        var fields = Self.fields
        fields.gpsTime = Timestamp(iso8601: "2026-11-29T09:03:12Z")
        fields.clockDifference = -10800.5
        var record = StampRecord(style: Self.style, fields: fields, stampedAt: Self.stampTime, software: "stampcam 0.2.0")
        record.setPicture(sha256: String(repeating: "c4", count: 32), style: Self.style)
        let code = try #require(record.code)
        #expect(VerificationCode.isWellFormed(code))
        let packet = try record.xmp().serialized()
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.contains("stampcam:GPSTime") && text.contains("stampcam:ClockDifference") && text.contains(code))
        let read = try #require(StampRecord(xmp: try XMPPacket(parsing: packet)))
        #expect(read == record)
        #expect(read.pixelsSHA256 == String(repeating: "c4", count: 32) && read.code == code)
        #expect(read.fields.clockDifference == -10800.5 && read.fields.gpsTime == fields.gpsTime)
        let forged = text.replacingOccurrences(of: code, with: "not a code").replacingOccurrences(of: String(repeating: "c4", count: 32), with: "zz")
        let odd = try #require(StampRecord(xmp: try XMPPacket(parsing: Array(forged.utf8))))
        #expect(odd.code == nil && odd.pixelsSHA256 == nil)
    }

    @Test("a named site goes into XMP: IPTC LocationCreated (Sublocation, City, CountryCode), stampcam:Site and SiteAddress, read back")
    func site() throws {
        var fields = Self.fields
        fields.site = "Arezzo works"
        fields.address = "Via Roma 1"
        fields.place = "Arezzo, Tuscany, IT"
        fields.placeName = "Arezzo"
        fields.countryCode = "IT"
        fields.extra["city"] = nil  // a city given with --set would win
        let record = StampRecord(style: Self.style, fields: fields, stampedAt: Self.stampTime, software: "stampcam")
        let packet = record.xmp()
        guard case .structures(let created)? = packet.value(.iptcExtension, "LocationCreated") else {
            Issue.record("no LocationCreated")
            return
        }
        let values = created.first.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.name, $0.value.text ?? "") }) }
        #expect(values == ["Sublocation": "Arezzo works", "City": "Arezzo", "CountryCode": "IT"])
        #expect(packet.text(StampRecord.namespace, "Site") == "Arezzo works" && packet.text(StampRecord.namespace, "SiteAddress") == "Via Roma 1")
        let read = try #require(StampRecord(xmp: try XMPPacket(parsing: try packet.serialized())))
        #expect(read.fields.site == "Arezzo works" && read.fields.address == "Via Roma 1")
        // Without a site nothing says where it was created.
        #expect(StampRecord(style: Self.style, fields: Self.fields, stampedAt: nil, software: "stampcam").xmp().value(.iptcExtension, "LocationCreated") == nil)
    }

    @Test("EXIF edits: Artist, ImageDescription, Software; DateTimeOriginal only for a given time; GPS only when new")
    func exifEdits() throws {
        var source = PhotoMetadata()
        source.gps = GPSPosition(latitude: -22.951916, longitude: -43.210487)
        source.artist = "Li Wei 李伟"
        let record = StampRecord(style: Self.style, fields: Self.fields, stampedAt: Self.stampTime, software: "stampcam 0.2.0")
        let edits = record.outputMetadata(source: source).exif
        #expect(edits.artist == nil)  // the source says so already
        #expect(edits.imageDescription == "north wall\nsecond line" && edits.software == "stampcam 0.2.0")
        #expect(edits.dateTimeOriginal == "2026:11:29 14:03:12" && edits.offsetTimeOriginal == "+08:00")
        #expect(edits.gps == nil)
        var fromFile = Self.fields
        fromFile.timeSource = "file time"
        fromFile.latitude = 10
        let other = StampRecord(style: Self.style, fields: fromFile, stampedAt: nil, software: "stampcam").outputMetadata(source: PhotoMetadata())
        #expect(other.exif.dateTimeOriginal == nil && other.exif.artist == "Li Wei 李伟")
        #expect(other.exif.gps == GPSPosition(latitude: 10, longitude: -43.210487, altitude: 710))
        // A file's time is not a capture time: no photoshop:DateCreated.
        #expect(other.xmp?.value(.photoshop, "DateCreated") == nil)
    }

    @Test("a written photo: exiftool reads every field from EXIF and XMP, a strict parser accepts the XMP, we read the record")
    func written() throws {
        let folder = try TestFiles.temporaryFolder("record")
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 320))
        guard case .claimed(let claim) = try NameClaim.claim("site.jpg", in: folder, existing: .number) else {
            Issue.record("no claim"); return
        }
        let original = try Fixtures.site.jpeg()
        let written = try Self.writer().write(photo, style: Self.style, fields: Self.fields, to: claim,
                                              original: PhotoWriter.Original(jpeg: original, capture: "a fixture"))
        let tags = try ExifTool.tags(written.path)
        let expected: [String: String] = [
            "IFD0:Artist": "Li Wei 李伟", "IFD0:ImageDescription": "north wall\nsecond line", "IFD0:Software": "stampcam 0.2.0",
            "ExifIFD:DateTimeOriginal": "2026:11:29 14:03:12", "ExifIFD:OffsetTimeOriginal": "+08:00",
            "IFD0:Make": "Fixture Optics",
            "XMP-xmp:CreatorTool": "stampcam 0.2.0", "XMP-dc:Creator": #"["Li Wei 李伟"]"#,
            "XMP-dc:Description": "north wall\nsecond line", "XMP-dc:Title": "Bridge <7> & \"co\"",
            "XMP-photoshop:Headline": "Bridge <7> & \"co\"", "XMP-iptcCore:Location": "Pier 4",
            "XMP-photoshop:City": "Rio de Janeiro", "XMP-photoshop:Country": "Brazil",
            "XMP-photoshop:DateCreated": "2026:11:29 14:03:12+08:00", "XMP-xmp:ModifyDate": "2026:11:29 15:00:01+08:00",
            "XMP-stampcam:Style": "classic", "XMP-stampcam:User": "Li Wei 李伟", "XMP-stampcam:Note": "north wall\nsecond line",
            "XMP-stampcam:Project": "Bridge <7> & \"co\"", "XMP-stampcam:Location": "Pier 4",
            "XMP-stampcam:Time": "2026:11:29 14:03:12+08:00", "XMP-stampcam:TimeSource": "command line",
            "XMP-stampcam:Original": "site.original.jpg", "XMP-stampcam:OriginalSHA256": FileDigest.sha256(original),
            "XMP-stampcam:Filename": "site.jpg", "XMP-stampcam:Camera": "FX-1",
        ]
        for (tag, value) in expected { #expect(tags[tag] == value, "\(tag)") }
        #expect(tags["Composite:GPSLatitude"].flatMap(Double.init).map { abs($0 + 22.951916) < 1e-6 } == true)
        #expect(tags["Composite:GPSLongitude"].flatMap(Double.init).map { abs($0 + 43.210487) < 1e-6 } == true)
        #expect(tags["XMP-iptcExt:LocationShown"]?.contains("Rio de Janeiro") == true)
        #expect(tags["XMP-stampcam:Extra"]?.contains("B & C") == true)
        let reread = try Photo(jpeg: try TestFiles.bytes(written.path), options: LoadOptions(maxSize: 64))
        let xmp = try #require(reread.metadata.xmp)
        #expect(try XMLLint.check(xmp) == nil)
        let record = try #require(StampRecord.read(reread.metadata))
        // The writer adds the code it derived (and the picture's hash) to the fields given.
        var shown = record.fields
        shown.code = nil
        shown.pixelsSHA256 = nil
        #expect(shown == Self.fields && record.styleID == "classic" && record.stampedAt == Self.stampTime)
        let code = try #require(record.code)
        #expect(tags["XMP-stampcam:Code"] == code && VerificationCode.isWellFormed(code))
        #expect(tags["XMP-stampcam:PixelsSHA256"] == record.pixelsSHA256 && record.pixelsSHA256?.count == 64)
        let originalPath = try #require(written.original)
        #expect(record.original == PhotoName.lastComponent(originalPath))
        #expect(try TestFiles.bytes(originalPath) == original)
    }
}
