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
        #expect(photo.decodeEighths == 4)  // 3/8 (1536 px) is too close for the crude 3-point IDCT
        #expect(photo.width == 1024 && photo.height == 683)
        let large = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 2000))
        #expect(large.decodeEighths == 6 && large.width == 2000)  // 3072 px: the first 1.5x
        let full = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0))
        #expect(full.decodeEighths == 8 && full.width == 4096)
    }

    @Test("a rotated photo picks its DCT scale on the upright size")
    func shrinkRotated() throws {
        // Stored 512x342, upright 342x512; fitted to 256 it is 171x256 upright, 256x171 stored.
        let bytes = try Fixtures.oriented(.right, width: 342, height: 512).jpeg()
        let photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 256))
        #expect(photo.metadata.orientation == .right)
        #expect(photo.width == 171 && photo.height == 256)
        // 6/8 gives 384x257, 1.5x the stored target 256x171; compared unturned it would not
        #expect(photo.decodeEighths == 6)
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
        #expect(throws: ImageError.truncated) { try Photo(jpeg: Array(good.prefix(40))) }
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
    @Test("a 22 MP camera photo is shrunk on load: decoded at 3/8, leaving Lanczos a 2x shrink to 1024 px", .needsCorpus)
    func shrinkOnLoad() throws {
        let bytes = try TestFiles.bytes(Corpus.path("drewnoakes-metadata-extractor-images/jpg/Issue 266.jpg"))
        let photo = try Photo(jpeg: bytes)
        #expect(photo.sourceWidth == 5760 && photo.sourceHeight == 3840)
        #expect(photo.decodeEighths == 3)
        #expect(photo.width == 1024 && photo.height == 683)
        let large = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 2000))
        #expect(large.decodeEighths == 5)
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
