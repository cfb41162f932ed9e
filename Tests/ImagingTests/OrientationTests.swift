import Testing
import TestSupport
@testable import Imaging

@Suite struct OrientationTests {
    static func upright(_ n: Int) throws -> Photo {
        let orientation = try #require(Orientation(rawValue: n))
        return try Photo(jpeg: try Fixtures.oriented(orientation).jpeg(), options: LoadOptions(maxSize: 180))
    }

    @Test("orientations 1…8 all come out upright: the card again, pixel for pixel", arguments: 1...8)
    func uprightAndAlike(n: Int) throws {
        let photo = try Self.upright(n)
        #expect(photo.metadata.orientation.rawValue == n)
        #expect(photo.width == 180 && photo.height == 120)
        let difference = try #require(PixelCompare.meanDifference(try Fixtures.card(width: 180, height: 120), photo.bitmap))
        #expect(difference < 5, "orientation \(n) differs from the card by \(difference) on average")
        let first = try #require(PixelCompare.meanDifference(try Self.upright(1).bitmap, photo.bitmap))
        #expect(first < 5, "orientation \(n) differs from orientation 1 by \(first) on average")
    }

    @Test("the comparison can fail: the stored pixels, left unturned, are not the card", arguments: 2...8)
    func comparisonCanFail(n: Int) throws {
        let fixture = Fixtures.oriented(try #require(Orientation(rawValue: n)))
        let raw = try JPEGDecoder(data: try fixture.jpeg()).decode(denominator: 1)
        #expect(raw.width == fixture.storedWidth && raw.height == fixture.storedHeight)
        let card = try Fixtures.card(width: raw.width, height: raw.height)
        let difference = try #require(PixelCompare.meanDifference(card, raw))
        #expect(difference > 20, "orientation \(n) unturned differs from the card by only \(difference)")
    }

    @Test("output is written upright with Orientation 1", arguments: [2, 3, 5, 6, 7, 8])
    func writtenUpright(n: Int) throws {
        let output = try Self.upright(n).jpeg()
        let reread = try Photo(jpeg: output, options: LoadOptions(maxSize: 0))
        #expect(reread.width == 180 && reread.height == 120)
        #expect(reread.metadata.orientation == .up)
        let difference = try #require(PixelCompare.meanDifference(try Fixtures.card(width: 180, height: 120), reread.bitmap))
        #expect(difference < 6)
    }
}

/// The same on the orientation examples in ../shared/corpus, when it is there.
@Suite struct CorpusOrientationTests {
    static func landscape(_ n: Int) throws -> Photo {
        let bytes = try TestFiles.bytes(Corpus.path("recurser-exif-orientation-examples/Landscape_\(n).jpg"))
        return try Photo(jpeg: bytes, options: LoadOptions(maxSize: 180))
    }

    @Test("Landscape_1…8 all come out upright and alike", .needsCorpus, arguments: 1...8)
    func uprightAndAlike(n: Int) throws {
        let reference = try Self.landscape(1)
        let photo = try Self.landscape(n)
        #expect(photo.metadata.orientation.rawValue == n)
        #expect(photo.width == 180 && photo.height == 120)
        let difference = try #require(PixelCompare.meanDifference(reference.bitmap, photo.bitmap))
        #expect(difference < 4, "Landscape_\(n) differs from Landscape_1 by \(difference) on average")
    }

    @Test("the comparison can fail: Landscape_3 left unturned differs from Landscape_1", .needsCorpus)
    func comparisonCanFail() throws {
        let reference = try Self.landscape(1)
        let bytes = try TestFiles.bytes(Corpus.path("recurser-exif-orientation-examples/Landscape_3.jpg"))
        let decoder = try JPEGDecoder(data: bytes)
        let raw = try decoder.decode(denominator: 8).uprightScaled(orientation: .up, width: 180, height: 120)
        let difference = try #require(PixelCompare.meanDifference(reference.bitmap, raw))
        #expect(difference > 20)
    }

    @Test("Landscape_3, 6 and 8 are written with Orientation 1", .needsCorpus, arguments: [3, 6, 8])
    func writtenUpright(n: Int) throws {
        let output = try Self.landscape(n).jpeg()
        let reread = try Photo(jpeg: output, options: LoadOptions(maxSize: 0))
        #expect(reread.width == 180 && reread.height == 120)
        #expect(reread.metadata.orientation == .up)
    }
}
