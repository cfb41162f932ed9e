import Testing
import TestSupport
import Imaging

/// What `ExifRecord.payload()` writes, read back from the TIFF bytes themselves.
@Suite struct ExifRecordTests {
    static func layout(_ record: ExifRecord) throws -> ExifLayout {
        let payload = try #require(record.payload())
        return try #require(ExifLayout(payload: payload))
    }

    @Test("the tags EXIF 2.32 requires are there, each directory in ascending tag order")
    func requiredTags() throws {
        let layout = try Self.layout(Fixtures.camera(storedWidth: 64, storedHeight: 48))
        for tag in [0x0112, 0x011A, 0x011B, 0x0128, 0x0213] { #expect(layout.entry(tag, in: layout.ifd0) != nil, "IFD0 lacks \(tag)") }
        for tag in [0x9000, 0x9101, 0xA000, 0xA001, 0xA002, 0xA003] { #expect(layout.entry(tag, in: layout.exif) != nil, "EXIF IFD lacks \(tag)") }
        for directory in [layout.ifd0, layout.exif] {
            let tags = directory.map(\.tag)
            #expect(tags == tags.sorted() && Set(tags).count == tags.count)
        }
        #expect(layout.entry(0x9000, in: layout.exif)?.value == Array("0231".utf8))
        #expect(layout.entry(0xA000, in: layout.exif)?.value == Array("0100".utf8))
        #expect(layout.gps.isEmpty && layout.ifd1.isEmpty)
    }

    @Test("Orientation is written as given", arguments: Orientation.allCases)
    func orientation(orientation: Orientation) throws {
        var record = ExifRecord()
        record.orientation = orientation
        let layout = try Self.layout(record)
        let entry = try #require(layout.entry(0x0112, in: layout.ifd0))
        #expect(entry.type == 3 && layout.integer(entry) == orientation.rawValue)
    }

    @Test("GPS: version 2.3.0.0, references, unsigned degrees-minutes-seconds, altitude below sea level")
    func gps() throws {
        var record = ExifRecord()
        record.gps = GPSPosition(latitude: -22.951916, longitude: -43.210487, altitude: -12.25)
        let layout = try Self.layout(record)
        let tags = layout.gps.map(\.tag)
        #expect(tags == [0, 1, 2, 3, 4, 5, 6])
        #expect(layout.entry(0, in: layout.gps)?.value == [2, 3, 0, 0])
        #expect(layout.entry(1, in: layout.gps).map(layout.text) == "S")
        #expect(layout.entry(3, in: layout.gps).map(layout.text) == "W")
        // 22.951916° = 22° 57' 6.898"; 43.210487° = 43° 12' 37.753".
        let latitude = try #require(layout.entry(2, in: layout.gps))
        #expect(latitude.type == 5 && layout.rationals(latitude).map { [$0.0, $0.1] } == [[22, 1], [57, 1], [6898, 1000]])
        let longitude = try #require(layout.entry(4, in: layout.gps))
        #expect(layout.rationals(longitude).map { [$0.0, $0.1] } == [[43, 1], [12, 1], [37753, 1000]])
        #expect(layout.entry(5, in: layout.gps)?.value == [1])
        let altitude = try #require(layout.entry(6, in: layout.gps))
        #expect(layout.rationals(altitude).map { [$0.0, $0.1] } == [[12250, 1000]])
    }

    @Test("seconds that round up carry into minutes and degrees, never 60")
    func carry() throws {
        var record = ExifRecord()
        record.gps = GPSPosition(latitude: 10.999_999_99, longitude: 0)
        let layout = try Self.layout(record)
        let latitude = try #require(layout.entry(2, in: layout.gps))
        #expect(layout.rationals(latitude).map { [$0.0, $0.1] } == [[11, 1], [0, 1], [0, 1000]])
        #expect(layout.entry(3, in: layout.gps).map(layout.text) == "E")
        #expect(layout.entry(5, in: layout.gps) == nil)  // no altitude given
    }

    @Test("a position off the globe is left out, the rest written")
    func offTheGlobe() throws {
        for position in [GPSPosition(latitude: 91, longitude: 0), GPSPosition(latitude: 0, longitude: -180.5),
                         GPSPosition(latitude: .nan, longitude: 0)] {
            var record = ExifRecord()
            record.make = "Acme"
            record.gps = position
            let metadata = PhotoMetadata(exif: record.payload(), iccProfile: nil)
            #expect(metadata.gps == nil && metadata.make == "Acme")
        }
    }

    @Test("the thumbnail goes into IFD1 as JPEG, at the offset and length IFD1 gives")
    func thumbnail() throws {
        let thumbnail = try Photo(bitmap: try Fixtures.card(width: 80, height: 60)).jpeg()
        var record = ExifRecord()
        record.thumbnail = thumbnail
        let layout = try Self.layout(record)
        let compression = try #require(layout.entry(0x0103, in: layout.ifd1))
        #expect(layout.integer(compression) == 6)
        for tag in [0x011A, 0x011B, 0x0128] { #expect(layout.entry(tag, in: layout.ifd1) != nil) }
        let offset = layout.integer(try #require(layout.entry(0x0201, in: layout.ifd1)))
        let length = layout.integer(try #require(layout.entry(0x0202, in: layout.ifd1)))
        #expect(length == thumbnail.count)
        try #require(offset + length <= layout.tiff.count)
        #expect(Array(layout.tiff[offset..<offset + length]) == thumbnail)
    }

    @Test("a thumbnail too large for one APP1 marker is left out, the tags kept")
    func thumbnailTooLarge() throws {
        var record = ExifRecord()
        record.model = "Cam"
        record.thumbnail = [0xFF, 0xD8] + [UInt8](repeating: 0x55, count: 70_000)
        let payload = try #require(record.payload())
        #expect(payload.count < 1000)
        let metadata = PhotoMetadata(exif: payload, iccProfile: nil)
        #expect(metadata.thumbnailByteCount == 0 && metadata.model == "Cam")
    }
}
