import Platform
import Testing
import TestSupport
@testable import Imaging

@Suite struct DecodeTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try TestFiles.bytes(TestFiles.packageRoot + "/Tests/ImagingTests/Fixtures/\(name).jpg")
    }

    @Test("every JPEG flavour decodes to the same picture",
          arguments: ["progressive", "arithmetic", "444", "422", "cmyk"])
    func flavours(name: String) throws {
        let reference = try Photo(jpeg: try Self.fixture("baseline"), options: LoadOptions(maxSize: 0))
        let photo = try Photo(jpeg: try Self.fixture(name), options: LoadOptions(maxSize: 0))
        #expect(photo.width == 160 && photo.height == 90)
        let difference = try #require(PixelCompare.meanDifference(reference.bitmap, photo.bitmap))
        #expect(difference < 6, "\(name) differs from baseline by \(difference)")
    }

    @Test("grayscale decodes to grey RGB")
    func grayscale() throws {
        let photo = try Photo(jpeg: try Self.fixture("grayscale"), options: LoadOptions(maxSize: 0))
        let pixel = photo.bitmap.rgb(x: 10, y: 10)  // the light grey bar
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
        #expect(pixel.red > 150)
    }

    @Test("the CMYK card keeps its colours: the red bar is red")
    func cmykColours() throws {
        let photo = try Photo(jpeg: try Self.fixture("cmyk"), options: LoadOptions(maxSize: 0))
        let red = photo.bitmap.rgb(x: 130, y: 20)
        #expect(red.red > 140 && red.green < 60 && red.blue < 60)
    }

    @Test("every chroma subsampling decodes to the card", arguments: FixtureSampling.allCases)
    func subsampling(sampling: FixtureSampling) throws {
        let fixture = Fixtures.sampled(sampling)
        let photo = try Photo(jpeg: try fixture.jpeg(), options: LoadOptions(maxSize: 0))
        #expect(photo.width == 160 && photo.height == 90)
        let difference = try #require(PixelCompare.meanDifference(try fixture.card(), photo.bitmap))
        #expect(difference < 5, "\(sampling) differs from the card by \(difference)")
    }

    @Test("an 11 MP photo is shrunk on load: decoded at 4/8, leaving Lanczos a 2x shrink to 1024 px")
    func shrinkOnLoad() throws {
        let bytes = try FixturePhoto(name: "large.jpg", width: 4096, height: 2731).jpeg()
        let photo = try Photo(jpeg: bytes)
        #expect(photo.sourceWidth == 4096 && photo.sourceHeight == 2731)
        #expect(photo.decodeEighths == 4)  // 3/8 (1536 px) would be too close, and no faster
        #expect(photo.width == 1024 && photo.height == 683)
        // 6/8 (3072 px) would leave 1.5x, but its plain-C IDCT costs more than a whole decode.
        let large = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 2000))
        #expect(large.decodeEighths == 8 && large.width == 2000)
        let full = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0))
        #expect(full.decodeEighths == 8 && full.width == 4096)
    }

    @Test("a rotated photo picks its DCT scale on the upright size")
    func shrinkRotated() throws {
        // Stored 2048x1368, upright 1368x2048; fitted to 256 it is 171x256 upright, 256x171 stored.
        let bytes = try Fixtures.oriented(.right, width: 1368, height: 2048).jpeg()
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 256))
        #expect(photo.metadata.orientation == .right)
        #expect(photo.width == 171 && photo.height == 256)
        // 2/8 gives 512x342, 2x the stored target 256x171; compared unturned (171x256) its 342
        // rows would fall short and 4/8 would be taken.
        #expect(photo.decodeEighths == 2)
    }

    @Test("a small photo is never upscaled")
    func noUpscale() throws {
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 4000))
        #expect(photo.width == 640 && photo.height == 480)
        #expect(photo.decodeEighths == 8)
    }

    @Test("bad input is named precisely")
    func badInput() throws {
        let good = try Self.fixture("baseline")
        #expect(throws: ImageError.empty) { try Photo(jpeg: []) }
        #expect(throws: ImageError.notJPEG) { try Photo(jpeg: Array("GIF89a and so on".utf8)) }
        #expect(throws: ImageError.notJPEG) { try Photo(jpeg: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
        #expect(throws: ImageError.truncated) { try Photo(jpeg: BadJPEG.truncated(good)) }
        #expect(throws: ImageError.truncatedFile(.jpeg, bytes: 40, pixelsComplete: false)) { try Photo(jpeg: Array(good.prefix(40))) }
        #expect(throws: ImageError.unsupportedPrecision(bits: 12)) { try Photo(jpeg: BadJPEG.twelveBit(good)) }
    }

    @Test("a 60000x60000 header is refused before any pixel memory is taken")
    func pixelLimit() throws {
        let huge = BadJPEG.resized(try Self.fixture("baseline"), width: 60000, height: 60000)
        #expect(throws: ImageError.tooManyPixels(width: 60000, height: 60000, limit: 200_000_000)) {
            try Photo(jpeg: huge)
        }
        #expect(throws: ImageError.tooManyPixels(width: 160, height: 90, limit: 10_000)) {
            try Photo(jpeg: try Self.fixture("baseline"), options: LoadOptions(pixelLimit: 10_000))
        }
    }
}

/// The same on real camera photos from ../shared/corpus, when it is there.
@Suite struct CorpusDecodeTests {
    @Test("a 22 MP camera photo is shrunk on load: decoded at 4/8, leaving Lanczos a 2.8x shrink to 1024 px", .needsCorpus)
    func shrinkOnLoad() throws {
        let bytes = try TestFiles.bytes(Corpus.path("drewnoakes-metadata-extractor-images/jpg/Issue 266.jpg"))
        let photo = try Photo(jpeg: bytes)
        #expect(photo.sourceWidth == 5760 && photo.sourceHeight == 3840)
        #expect(photo.decodeEighths == 4)  // 2/8 (1440 px) leaves too little for its 2-point IDCT
        #expect(photo.width == 1024 && photo.height == 683)
        let large = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 2000))
        #expect(large.decodeEighths == 8)  // 4/8 (2880 px) is under 1.5x; 5/8 is slower than 8/8
        let full = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0))
        #expect(full.decodeEighths == 8 && full.width == 5760)
    }

    @Test("a rotated camera photo picks its DCT scale on the upright size", .needsCorpus)
    func shrinkRotated() throws {
        let bytes = try TestFiles.bytes(Corpus.path("drewnoakes-metadata-extractor-images/jpg/Canon EOS 1000D.jpg"))
        let photo = try Photo(jpeg: bytes)
        #expect(photo.metadata.orientation == .right)
        #expect(photo.height == 1024 && photo.width == 683)
        #expect(photo.decodeEighths == 4)  // 1944x1296 is 1.5x 1024x683 stored; 1458x972 would not be
    }

    @Test("a small camera photo is never upscaled", .needsCorpus)
    func noUpscale() throws {
        let bytes = try TestFiles.bytes(Corpus.path("ianare-exif-samples/jpg/gps/DSCN0010.jpg"))
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 4000))
        #expect(photo.width == 640 && photo.height == 480)
    }

    @Test("every corpus photo decodes, whatever its subsampling", .needsCorpus)
    func everyPhotoDecodes() throws {
        var samplings = Set<String>()
        for path in Corpus.photos {
            let bytes = try TestFiles.bytes(path)
            let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 64))
            #expect(max(photo.width, photo.height) <= 64, "\(path)")
            samplings.insert(JPEGSegments.samplingFactors(bytes).first.map { "\($0.h)x\($0.v)" } ?? "?")
        }
        #expect(samplings.isSuperset(of: ["2x2", "2x1", "1x2", "1x1"]), "the corpus has \(samplings.sorted())")
    }
}

/// A photo shrunk on load is resampled as libjpeg hands over its rows, never decoded whole first:
/// the result must be the very pixels of a whole decode resampled afterwards.
@Suite struct StreamedDecodeTests {
    /// What `Photo(jpeg:)` would give without streaming: decoded whole at the same scale, then
    /// resampled and turned upright.
    static func decodedWhole(_ bytes: [UInt8], eighths: Int, width: Int, height: Int) throws -> Bitmap {
        let decoder = try JPEGDecoder(data: bytes)
        let orientation = PhotoMetadata(exif: decoder.exif, iccProfile: nil).orientation
        return try decoder.decodeReporting(eighths: eighths).bitmap.uprightScaled(orientation: orientation, width: width, height: height)
    }

    @Test("orientations 1–8 and every subsampling: the same pixels as a whole decode resampled after",
          arguments: Fixtures.orientations + FixtureSampling.allCases.map { Fixtures.sampled($0, width: 640, height: 360) })
    func sameAsWhole(fixture: FixturePhoto) throws {
        let bytes = try fixture.jpeg()
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 100))
        #expect(max(photo.width, photo.height) == 100)
        let whole = try Self.decodedWhole(bytes, eighths: photo.decodeEighths, width: photo.width, height: photo.height)
        #expect(PixelCompare.meanDifference(photo.bitmap, whole) == 0, "\(fixture)")
    }

    @Test("progressive, arithmetic, greyscale and CMYK files stream the same way",
          arguments: ["progressive", "arithmetic", "grayscale", "cmyk", "422", "444"])
    func otherFlavours(name: String) throws {
        let bytes = try HostileDecodeTests.fixture(name)
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 57))
        #expect(max(photo.width, photo.height) == 57)
        let whole = try Self.decodedWhole(bytes, eighths: photo.decodeEighths, width: photo.width, height: photo.height)
        #expect(PixelCompare.meanDifference(photo.bitmap, whole) == 0, "\(name)")
    }

    @Test("the comparison can fail: another scale, resampled to the same size, differs")
    func comparisonCanFail() throws {
        let bytes = try Fixtures.sampled(.s420, width: 640, height: 360).jpeg()
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 100))
        let other = try Self.decodedWhole(bytes, eighths: photo.decodeEighths == 8 ? 4 : 8, width: photo.width, height: photo.height)
        #expect(try #require(PixelCompare.meanDifference(photo.bitmap, other)) > 0)
    }

    @Test("a row source is read exactly to its last row, whatever the windows needed")
    func readsEveryRow() throws {
        for (sourceHeight, height) in [(300, 101), (97, 61), (1000, 7), (5, 3)] {
            var read = 0
            let source = LanczosResampler.Source.rows(width: 40, height: sourceHeight) { (row) throws(ImageError) in
                for i in 0..<160 { row[i] = UInt8(truncatingIfNeeded: read &* 31 &+ i) }
                read += 1
            }
            let result = try LanczosResampler.resample(source, width: 17, height: height)
            #expect(read == sourceHeight && result.height == height, "\(sourceHeight) → \(height): read \(read)")
        }
    }

    @Test("an error reading a row comes out of the resampler as it was thrown")
    func rowErrorsPassThrough() {
        var read = 0
        let source = LanczosResampler.Source.rows(width: 40, height: 300) { (_) throws(ImageError) in
            read += 1
            if read == 150 { throw .truncated }
        }
        #expect(throws: ImageError.truncated) { try LanczosResampler.resample(source, width: 20, height: 100) }
        #expect(read == 150)
    }
}

@Suite struct FittedSizeTests {
    @Test("the size read from the header is the size the decode gives, turned and fitted",
          arguments: Fixtures.orientations)
    func headerSizeMatchesDecode(fixture: FixturePhoto) throws {
        let folder = try TestFiles.temporaryFolder("fitted")
        let file = try FileContents(path: FilePath(try fixture.write(to: folder)))
        for maxSize in [0, 100, 150] {
            let options = LoadOptions(maxSize: maxSize)
            let photo = try Photo(file: file, options: options)
            let size = try #require(Photo.fittedSize(jpeg: file, options: options))
            #expect(size == (photo.width, photo.height), "\(fixture) at \(maxSize)")
        }
    }

    @Test("not a JPEG, or a header that does not read: no size")
    func noSize() throws {
        let folder = try TestFiles.temporaryFolder("fitted-bad")
        try TestFiles.write(Array("GIF89a".utf8), to: folder + "/a.jpg")
        #expect(Photo.fittedSize(jpeg: try FileContents(path: FilePath(folder + "/a.jpg"))) == nil)
    }
}
