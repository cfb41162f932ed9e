import Testing
import TestSupport
import Imaging
import Templates
import Watermark

@Suite struct WatermarkerTests {
    static let fontConfig = TestFiles.packageRoot + "/fonts/fonts.conf"

    static func card() throws -> Photo {
        Photo(bitmap: try #require(TestCard.draw(width: 800, height: 450)))
    }

    static let fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), user: "Li Wei 李伟",
                               project: "Bridge <A&B>", location: "Pier 4")

    @Test("the stamp lands bottom-left and nowhere else")
    func placement() throws {
        let plain = try Self.card(), stamped = try Self.card()
        try Watermarker(fontConfig: Self.fontConfig).stamp(stamped, with: Self.fields)
        let bottomLeft = PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 20..<200, y: 330..<440)
        let topRight = PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 500..<800, y: 0..<300)
        #expect(bottomLeft > 20)
        #expect(topRight == 0)
    }

    @Test("a render is a pure function of photo and fields")
    func deterministic() throws {
        let first = try Self.card(), second = try Self.card()
        try Watermarker(fontConfig: Self.fontConfig).stamp(first, with: Self.fields)
        try Watermarker(fontConfig: Self.fontConfig).stamp(second, with: Self.fields)
        #expect(PixelCompare.meanDifference(first.bitmap, second.bitmap) == 0)
    }

    @Test("different text draws different pixels")
    func textMatters() throws {
        let first = try Self.card(), second = try Self.card()
        var other = Self.fields
        other.user = "Someone Else"
        try Watermarker(fontConfig: Self.fontConfig).stamp(first, with: Self.fields)
        try Watermarker(fontConfig: Self.fontConfig).stamp(second, with: other)
        #expect(try #require(PixelCompare.meanDifference(first.bitmap, second.bitmap)) > 0)
    }

    @Test("no fields, no stamp")
    func empty() throws {
        let plain = try Self.card(), stamped = try Self.card()
        try Watermarker(fontConfig: Self.fontConfig).stamp(stamped, with: Fields())
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap) == 0)
    }

    @Test("a missing font configuration is an error naming it")
    func missingFontConfig() {
        #expect(throws: WatermarkError.fontConfiguration(path: "/nonexistent/fonts.conf")) {
            try Watermarker(fontConfig: "/nonexistent/fonts.conf")
        }
    }
}
