import Testing
import TestSupport
@testable import Imaging

/// Encoding: failures after the output buffer grew (once a double free), and metadata that does not
/// fit its segment (once dropped without a word).
@Suite struct EncodeSafetyTests {
    static func noise(_ width: Int, _ height: Int) throws -> Bitmap {
        try #require(HostileJPEG.noise(width: width, height: height))
    }

    // MARK: the destination buffer

    @Test("an encode that fails after its buffer grew frees it once (once a double free)",
          arguments: [1, 17, 300, 511])
    func failureAfterGrowth(rows: Int) throws {
        let bitmap = try Self.noise(512, 512)
        // Without Huffman optimisation the data goes out row by row, so by `rows` the output has
        // outgrown libjpeg's 4 KB first buffer (and ours, 512 * 512 / 4 + 4 KB) for most rows.
        let whole = try JPEGEncoder.encode(bitmap, quality: 100, subsampling: .s444, exif: nil, icc: nil, optimize: false)
        #expect(whole.count > 512 * 512 / 4 + 4096 + 300_000)
        #expect(throws: ImageError.encodeFailed("failure injected by a test")) {
            try JPEGEncoder.encode(bitmap, quality: 100, subsampling: .s444, exif: nil, icc: nil, optimize: false,
                                   failAfterRows: rows)
        }
        // With optimisation the data waits for the end, but a large EXIF block goes out at once.
        let exif = HostileJPEG.exifPayload(userComment: 60_000)
        #expect(throws: ImageError.encodeFailed("failure injected by a test")) {
            try JPEGEncoder.encode(bitmap, quality: 90, subsampling: .s420, exif: exif, icc: nil, failAfterRows: rows)
        }
    }

    @Test("a failure in libjpeg itself (an image too wide) is an error, not a crash")
    func libjpegFailure() throws {
        let wide = try Self.noise(65_501, 1)
        #expect(throws: ImageError.encodeFailed("Maximum supported image dimension is 65500 pixels")) {
            try JPEGEncoder.encode(wide, quality: 90, subsampling: .s420, exif: nil, icc: nil)
        }
    }

    @Test("the encoded bytes are a JPEG that decodes back to the picture, at every size of buffer",
          arguments: [(1, 1), (16, 16), (640, 480), (1500, 1000)])
    func roundTrip(size: (Int, Int)) throws {
        let card = try #require(TestCard.draw(width: size.0, height: size.1))
        let bytes = try Photo(bitmap: card).jpeg(quality: 95, subsampling: .s444)
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF] && Array(bytes.suffix(2)) == [0xFF, 0xD9])
        let back = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 0))
        let difference = try #require(PixelCompare.meanDifference(card, back.bitmap))
        #expect(difference < 3)
    }

    // MARK: EXIF that does not fit

    static func photo(exif: [UInt8]) throws -> Photo {
        var photo = Photo(bitmap: try #require(TestCard.draw(width: 96, height: 64)))
        photo.metadata = PhotoMetadata(exif: exif, iccProfile: nil)
        #expect(photo.metadata.warnings.isEmpty)
        return photo
    }

    @Test("a 65,528-byte EXIF block loses its UserComment, not everything, and says so")
    func oversizedUserComment() throws {
        let exif = HostileJPEG.exifPayload(total: 65_528)
        #expect(exif.count == 65_528)
        let photo = try Self.photo(exif: exif)
        #expect(photo.metadata.make == "Test Camera Co")
        let encoded = try photo.encoded()
        #expect(encoded.warnings.count == 1)
        let warning = try #require(encoded.warnings.first)
        #expect(warning.hasPrefix("EXIF shortened: the EXIF block is "), "\(warning)")
        #expect(warning.contains("more than the 65533 one APP1 segment holds; dropped UserComment (65"), "\(warning)")
        let reread = try Photo(jpeg: encoded.bytes, options: LoadOptions(maxSize: 0))
        #expect(reread.metadata.exif != nil)  // before: no EXIF at all
        #expect(reread.metadata.make == "Test Camera Co")
        #expect(reread.metadata.dateTimeOriginal == "2025:06:01 12:34:56")
        let payload = try #require(reread.metadata.exif)
        let block = try #require(ExifBlock(payload: payload))
        #expect(block.short(.pixelXDimension) == 96)
    }

    @Test("the largest of MakerNote and UserComment goes first, and only as much as needed")
    // (A payload larger than an APP1 segment cannot come from a file; libexif reads 65534 bytes at most.)
    func largestFirst() throws {
        let photo = try Self.photo(exif: HostileJPEG.exifPayload(makerNote: 40_000, total: 65_528))
        let encoded = try photo.encoded()
        #expect(encoded.warnings.count == 1)
        #expect(encoded.warnings.first?.hasSuffix("dropped MakerNote (40000 bytes)") == true, "\(encoded.warnings)")
        let reread = try Photo(jpeg: encoded.bytes, options: LoadOptions(maxSize: 0))
        let payload = try #require(reread.metadata.exif)
        #expect(payload.count > 25_000)  // the UserComment stayed
        #expect(reread.metadata.make == "Test Camera Co")
    }

    @Test("EXIF that fits is written whole, without a warning")
    func fits() throws {
        let photo = try Self.photo(exif: HostileJPEG.exifPayload(userComment: 20_000, makerNote: 20_000))
        let encoded = try photo.encoded()
        #expect(encoded.warnings.isEmpty)
        #expect(try photo.jpeg() == encoded.bytes)
        let reread = try Photo(jpeg: encoded.bytes, options: LoadOptions(maxSize: 0))
        #expect(try #require(reread.metadata.exif).count > 40_000)
    }

    @Test("an ICC profile too large for 255 segments is left out with a warning")
    func oversizedICC() throws {
        var photo = Photo(bitmap: try #require(TestCard.draw(width: 32, height: 32)))
        photo.metadata.iccProfile = [UInt8](repeating: 7, count: JPEGEncoder.maximumICCProfile + 1)
        let encoded = try photo.encoded()
        #expect(encoded.warnings == ["ICC profile not written: 16707346 bytes is more than the 16707345 that 255 APP2 segments hold"])
        #expect(try Photo(jpeg: encoded.bytes).metadata.iccProfile == nil)
        // One byte less fits.
        photo.metadata.iccProfile = [UInt8](repeating: 7, count: JPEGEncoder.maximumICCProfile)
        let fitting = try photo.encoded()
        #expect(fitting.warnings.isEmpty)
        #expect(try Photo(jpeg: fitting.bytes).metadata.iccProfile?.count == JPEGEncoder.maximumICCProfile)
    }
}
