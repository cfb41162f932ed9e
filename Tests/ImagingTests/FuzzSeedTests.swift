@testable import Imaging
import Testing
import TestSupport

/// The fuzz target `exif`'s seeds (see TestSupport's FuzzSeeds): the TIFF blocks of our maker-note
/// layouts and of a full EXIF record (GPS, times, words), each one the EXIF tree reads.
@Suite struct FuzzSeedTests {
    @Test func exifSeedsAreBlocksTheTreeReads() throws {
        var record = ExifRecord()
        (record.make, record.model, record.software, record.artist) = ("Canon", "EOS R6", "stampcam", "Ana Lima")
        (record.dateTime, record.offsetTime, record.orientation) = ("2026:05:04 10:20:30", "+02:00", .right)
        (record.pixelWidth, record.pixelHeight, record.flash, record.digitalZoomRatio) = (4000, 3000, 1, 2.5)
        record.userComment = "Bridge 7, north abutment"
        record.gps = GPSPosition(latitude: 48.137, longitude: 11.575, altitude: 519)
        let samples = MakerNoteLayouts.all.map { ($0.name, $0.payload) }
            + [("fixture-maker-note", MakerNoteFixture.payload), ("record", try #require(record.payload()))]
        for (name, payload) in samples {
            let tree = try #require(ExifTree(payload: payload), "\(name)")
            #expect(tree.problems.isEmpty, "\(name): \(tree.problems)")
            try FuzzSeeds.write(Array(payload.dropFirst(6)), target: "exif", name: name)
        }
    }
}
