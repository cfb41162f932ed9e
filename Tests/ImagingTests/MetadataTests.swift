import Testing
import TestSupport
@testable import Imaging

/// What `Photo.jpeg()` does with a source's metadata, shown on one photo.
func checkMetadataKept(_ bytes: [UInt8], name: String) throws {
    let source = try Photo(jpeg: bytes)
    let output = try source.jpeg()
    let reread = try Photo(jpeg: output, options: LoadOptions(maxSize: 0))
    let before = source.metadata, after = reread.metadata
    #expect(before.exif != nil, "\(name) has no EXIF")
    #expect(after.dateTimeOriginal == before.dateTimeOriginal)
    #expect(after.offsetTimeOriginal == before.offsetTimeOriginal)
    #expect(after.make == before.make)
    #expect(after.model == before.model)
    #expect(after.artist == before.artist)
    #expect(after.gps == before.gps)
    #expect(after.orientation == .up)
    #expect(after.thumbnailByteCount == 0)
    #expect(after.iccProfile == before.iccProfile)
    let payload = try #require(after.exif)
    let block = try #require(ExifBlock(payload: payload))
    if let width = block.short(.pixelXDimension) {
        #expect(width == reread.width)
        #expect(block.short(.pixelYDimension) == reread.height)
    }
}

@Suite struct MetadataTests {
    @Test("EXIF survives: dates, zone, Make, Model, Artist, GPS, ICC equal; Orientation 1; sizes right; no stale thumbnail",
          arguments: Fixtures.withExif)
    func exifKept(photo: FixturePhoto) throws {
        try checkMetadataKept(try photo.jpeg(), name: photo.name)
        // And they are the fixture's own, not two equal blanks.
        let record = try #require(photo.exif)
        let reread = try Photo(jpeg: try Photo(jpeg: try photo.jpeg()).jpeg(), options: LoadOptions(maxSize: 64)).metadata
        #expect(reread.dateTimeOriginal == record.dateTime && reread.offsetTimeOriginal == record.offsetTime)
        #expect(reread.make == record.make && reread.model == record.model && reread.artist == record.artist)
        #expect((reread.gps == nil) == (record.gps == nil))
        #expect(reread.warnings.isEmpty)
    }

    @Test("GPS is read as signed decimal degrees from N/S, E/W and the altitude reference", arguments: Fixtures.withGPS)
    func gps(photo: FixturePhoto) throws {
        let expected = try #require(photo.exif?.gps)
        let read = try #require(try Photo(jpeg: try photo.jpeg(), options: LoadOptions(maxSize: 64)).metadata.gps)
        // Written to a thousandth of a second of arc: 1/3 600 000 of a degree.
        #expect(abs(read.latitude - expected.latitude) < 0.000_001)
        #expect(abs(read.longitude - expected.longitude) < 0.000_001)
        #expect(read.latitude.sign == expected.latitude.sign && read.longitude.sign == expected.longitude.sign)
        if let altitude = expected.altitude {
            #expect(abs((read.altitude ?? .infinity) - altitude) < 0.001)
        } else {
            #expect(read.altitude == nil)
        }
    }

    @Test("the time zone is OffsetTimeOriginal's, and absent when the camera wrote none")
    func zone() throws {
        let zoned = try Photo(jpeg: try Fixtures.belowSeaLevel.jpeg(), options: LoadOptions(maxSize: 64)).metadata
        #expect(zoned.dateTimeOriginal == Fixtures.dateTime && zoned.offsetTimeOriginal == "+03:00")
        let local = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 64)).metadata
        #expect(local.dateTimeOriginal == Fixtures.dateTime && local.offsetTimeOriginal == nil)
    }

    @Test("the ICC profile is kept byte for byte, also one spanning several APP2 markers",
          arguments: [Fixtures.withICC, Fixtures.withLargeICC])
    func iccKept(photo: FixturePhoto) throws {
        let source = try Photo(jpeg: try photo.jpeg())
        let profile = try #require(source.metadata.iccProfile)
        #expect(profile == photo.iccProfile)
        let reread = try Photo(jpeg: try source.jpeg(), options: LoadOptions(maxSize: 0))
        #expect(reread.metadata.iccProfile == profile)
    }

    @Test("a large EXIF block is read whole and written back without its thumbnail")
    func largeExif() throws {
        let bytes = try Fixtures.withLargeExif.jpeg()
        let source = try Photo(jpeg: bytes)
        #expect(source.metadata.thumbnailByteCount > 50_000)
        #expect(source.metadata.offsetTimeOriginal == "+05:30")
        let output = try source.jpeg()
        let payload = try #require(JPEGSegments.exifPayload(output))
        #expect(payload.count < 10_000)
        #expect(PhotoMetadata(exif: payload, iccProfile: nil).make == Fixtures.withLargeExif.exif?.make)
    }

    @Test("corrupt EXIF is a warning: the photo still loads and encodes")
    func corruptExif() throws {
        let photo = try Photo(jpeg: BadJPEG.corruptExif(try Fixtures.site.jpeg()), options: LoadOptions(maxSize: 200))
        #expect(!photo.metadata.warnings.isEmpty)
        #expect(photo.metadata.warnings.allSatisfy { $0.contains("EXIF") })
        #expect(try photo.jpeg().count > 1000)
    }
}

/// The same on the real camera photos of ../shared/corpus, when it is there.
@Suite struct CorpusMetadataTests {
    /// Corpus photos carrying EXIF.
    static let photosWithExif = Corpus.photos.filter { !$0.contains("Landscape_") }

    @Test("EXIF of every corpus photo survives", .needsCorpus, arguments: photosWithExif)
    func exifKept(path: String) throws {
        try checkMetadataKept(try TestFiles.bytes(path), name: path)
    }

    @Test("the corpus has what the EXIF test relies on", .needsCorpus)
    func corpusCoverage() throws {
        let all = try Self.photosWithExif.map { try Photo(jpeg: try TestFiles.bytes($0), options: LoadOptions(maxSize: 64)) }
        #expect(all.filter { $0.metadata.gps != nil }.count >= 5)
        #expect(all.filter { $0.metadata.thumbnailByteCount > 0 }.count >= 10)
        #expect(all.contains { $0.metadata.offsetTimeOriginal == "+03:00" })
        #expect(all.filter { $0.metadata.orientation != .up }.count >= 4)
    }

    @Test("GPS of a camera photo is read as signed decimal degrees", .needsCorpus)
    func gps() throws {
        let photo = try Photo(jpeg: try TestFiles.bytes(Corpus.path("ianare-exif-samples/jpg/gps/DSCN0010.jpg")),
                              options: LoadOptions(maxSize: 64))
        let gps = try #require(photo.metadata.gps)
        #expect(abs(gps.latitude - 43.467448) < 0.0001)
        #expect(abs(gps.longitude - 11.885127) < 0.0001)
    }

    @Test("a camera's ICC profile is kept byte for byte", .needsCorpus)
    func iccKept() throws {
        let source = try Photo(jpeg: try TestFiles.bytes(Corpus.path("drewnoakes-metadata-extractor-images/jpg/Issue 266.jpg")))
        let profile = try #require(source.metadata.iccProfile)
        let reread = try Photo(jpeg: try source.jpeg(), options: LoadOptions(maxSize: 0))
        #expect(reread.metadata.iccProfile == profile)
    }

    @Test("corrupt EXIF in a camera photo is a warning", .needsCorpus)
    func corruptExif() throws {
        let good = try TestFiles.bytes(Corpus.path("ianare-exif-samples/jpg/gps/DSCN0010.jpg"))
        let photo = try Photo(jpeg: BadJPEG.corruptExif(good), options: LoadOptions(maxSize: 200))
        #expect(!photo.metadata.warnings.isEmpty)
        #expect(photo.metadata.warnings.allSatisfy { $0.contains("EXIF") })
        #expect(try photo.jpeg().count > 1000)
    }
}
