import Testing
import TestSupport
@testable import Imaging

@Suite struct MetadataTests {
    /// Corpus photos carrying EXIF, with what their EXIF holds.
    static let photosWithExif = TestFiles.corpusPhotos.filter { !$0.contains("Landscape_") }

    @Test("EXIF survives: DateTimeOriginal, Make, GPS equal; Orientation 1; sizes right; no stale thumbnail",
          arguments: photosWithExif)
    func exifKept(path: String) throws {
        let source = try Photo(jpeg: try TestFiles.bytes(path))
        let output = try source.jpeg()
        let reread = try Photo(jpeg: output, options: LoadOptions(maxSize: 0))
        let before = source.metadata, after = reread.metadata
        #expect(before.exif != nil)
        #expect(after.dateTimeOriginal == before.dateTimeOriginal)
        #expect(after.offsetTimeOriginal == before.offsetTimeOriginal)
        #expect(after.make == before.make)
        #expect(after.model == before.model)
        #expect(after.gps == before.gps)
        #expect(after.orientation == .up)
        #expect(after.thumbnailByteCount == 0)
        let payload = try #require(after.exif)
        let block = try #require(ExifBlock(payload: payload))
        if let width = block.short(.pixelXDimension) {
            #expect(width == reread.width)
            #expect(block.short(.pixelYDimension) == reread.height)
        }
    }

    @Test("the corpus has what the EXIF test relies on")
    func corpusCoverage() throws {
        let all = try Self.photosWithExif.map { try Photo(jpeg: try TestFiles.bytes($0), options: LoadOptions(maxSize: 64)) }
        #expect(all.filter { $0.metadata.gps != nil }.count >= 5)
        #expect(all.filter { $0.metadata.thumbnailByteCount > 0 }.count >= 10)
        #expect(all.contains { $0.metadata.offsetTimeOriginal == "+03:00" })
        #expect(all.filter { $0.metadata.orientation != .up }.count >= 4)
    }

    @Test("GPS is read as signed decimal degrees")
    func gps() throws {
        let photo = try Photo(jpeg: try TestFiles.bytes(TestFiles.corpus("ianare-exif-samples/jpg/gps/DSCN0010.jpg")),
                              options: LoadOptions(maxSize: 64))
        let gps = try #require(photo.metadata.gps)
        #expect(abs(gps.latitude - 43.467448) < 0.0001)
        #expect(abs(gps.longitude - 11.885127) < 0.0001)
    }

    @Test("the ICC profile is kept byte for byte")
    func iccKept() throws {
        let source = try Photo(jpeg: try TestFiles.bytes(TestFiles.corpus("drewnoakes-metadata-extractor-images/jpg/Issue 266.jpg")))
        let profile = try #require(source.metadata.iccProfile)
        let reread = try Photo(jpeg: try source.jpeg(), options: LoadOptions(maxSize: 0))
        #expect(reread.metadata.iccProfile == profile)
    }

    @Test("corrupt EXIF is a warning: the photo still loads and encodes")
    func corruptExif() throws {
        let good = try TestFiles.bytes(TestFiles.corpus("ianare-exif-samples/jpg/gps/DSCN0010.jpg"))
        let photo = try Photo(jpeg: BadJPEG.corruptExif(good), options: LoadOptions(maxSize: 200))
        #expect(!photo.metadata.warnings.isEmpty)
        #expect(photo.metadata.warnings.allSatisfy { $0.contains("EXIF") })
        #expect(try photo.jpeg().count > 1000)
    }
}
