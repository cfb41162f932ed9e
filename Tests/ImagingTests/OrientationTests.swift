import Testing
import TestSupport
@testable import Imaging

@Suite struct OrientationTests {
    static func landscape(_ n: Int) throws -> Photo {
        let bytes = try TestFiles.bytes(TestFiles.corpus("recurser-exif-orientation-examples/Landscape_\(n).jpg"))
        return try Photo(jpeg: bytes, options: LoadOptions(maxSize: 180))
    }

    @Test("Landscape_1…8 all come out upright and alike", arguments: 1...8)
    func uprightAndAlike(n: Int) throws {
        let reference = try Self.landscape(1)
        let photo = try Self.landscape(n)
        #expect(photo.metadata.orientation.rawValue == n)
        #expect(photo.width == 180 && photo.height == 120)
        let difference = try #require(PixelCompare.meanDifference(reference.bitmap, photo.bitmap))
        #expect(difference < 4, "Landscape_\(n) differs from Landscape_1 by \(difference) on average")
    }

    @Test("the comparison can fail: Landscape_3 left unturned differs from Landscape_1")
    func comparisonCanFail() throws {
        let reference = try Self.landscape(1)
        let bytes = try TestFiles.bytes(TestFiles.corpus("recurser-exif-orientation-examples/Landscape_3.jpg"))
        let decoder = try JPEGDecoder(data: bytes)
        let raw = try decoder.decode(denominator: 8).uprightScaled(orientation: .up, width: 180, height: 120)
        let difference = try #require(PixelCompare.meanDifference(reference.bitmap, raw))
        #expect(difference > 20)
    }

    @Test("output is written with Orientation 1", arguments: [3, 6, 8])
    func writtenUpright(n: Int) throws {
        let output = try Self.landscape(n).jpeg()
        let reread = try Photo(jpeg: output, options: LoadOptions(maxSize: 0))
        #expect(reread.width == 180 && reread.height == 120)
        #expect(reread.metadata.orientation == .up)
    }
}
