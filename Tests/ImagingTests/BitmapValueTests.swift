import Testing
import Imaging

/// Bitmaps and photos are values: a write to one never reaches a copy (the kept original once
/// carried the stamp because a same-size transform returned a shared buffer).
@Suite struct BitmapValueTests {
    static func card() throws -> Bitmap { try #require(TestCard.draw(width: 64, height: 36)) }

    @Test("a copy shares memory until one side writes; the write stays on that side")
    func copyOnWrite() throws {
        let original = try Self.card()
        var copy = original
        #expect(copy.sharesMemory(with: original))
        copy.setRGB(x: 0, y: 0, (1, 2, 3))
        #expect(!copy.sharesMemory(with: original))
        #expect(copy.rgb(x: 0, y: 0) == (1, 2, 3))
        #expect(original.rgb(x: 0, y: 0) != (1, 2, 3))
    }

    @Test("transforms that have nothing to do return the same pixels, and writing to them leaves the source alone",
          arguments: [0, 360])
    func identityTransforms(degrees: Int) throws {
        let original = try Self.card()
        var turned = try original.rotated(clockwise: degrees)
        var scaled = try original.scaled(width: original.width, height: original.height)
        turned.setRGB(x: 5, y: 5, (9, 9, 9))
        scaled.setRGB(x: 6, y: 6, (9, 9, 9))
        #expect(original.rgb(x: 5, y: 5) != (9, 9, 9))
        #expect(original.rgb(x: 6, y: 6) != (9, 9, 9))
    }

    @Test("a photo copied before a write keeps its pixels")
    func photoCopy() throws {
        let photo = Photo(bitmap: try Self.card())
        var stamped = photo
        stamped.bitmap.setRGB(x: 1, y: 1, (7, 7, 7))
        #expect(photo.bitmap.rgb(x: 1, y: 1) != (7, 7, 7))
    }
}
