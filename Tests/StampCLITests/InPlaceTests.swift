import Foundation
import Testing
import TestSupport
import Imaging

/// `apply` at full size stamps JPEGs in place: the picture away from the stamp is the original's.
@Suite struct InPlaceTests {
    static func site() throws -> String {
        try Fixtures.site.write(to: try TestFiles.temporaryFolder("in"))
    }

    static func decoded(_ path: String) throws -> Bitmap {
        try Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 0)).bitmap
    }

    /// Whether rows `rows` of two bitmaps are the same pixels exactly.
    static func same(_ a: Bitmap, _ b: Bitmap, rows: Range<Int>) -> Bool {
        rows.allSatisfy { y in (0..<a.width).allSatisfy { x in a.rgb(x: x, y: y) == b.rgb(x: x, y: y) } }
    }

    @Test("at full size a JPEG is stamped in place: above the stamp every pixel is the original's; --reencode is not")
    func inPlace() throws {
        let site = try Self.site()
        let out = try TestFiles.temporaryFolder("apply")
        let result = CLI.run(["apply", site, "-o", out + "/a", "--max-size", "0"])
        #expect(result.code == 0)
        #expect(!result.err.joined().contains("note"), "\(result.err)")
        let original = try Self.decoded(site)
        let stamped = try Self.decoded(out + "/a/site.jpg")
        #expect(Self.same(original, stamped, rows: 0..<300))
        #expect(!Self.same(original, stamped, rows: 420..<470))  // the stamp

        #expect(CLI.run(["apply", site, "-o", out + "/b", "--max-size", "0", "--reencode"]).code == 0)
        let reencoded = try Self.decoded(out + "/b/site.jpg")
        #expect(!Self.same(original, reencoded, rows: 0..<300))
        // Resized, it is encoded whole, without a note.
        let resized = CLI.run(["apply", site, "-o", out + "/c", "--max-size", "320"])
        #expect(resized.code == 0 && !resized.err.joined().contains("note"))
        #expect(CLI.run(["apply", site, "-o", out + "/d", "--lossless", "--reencode"]).code == 64)
    }

    @Test("a style whose tone changes every pixel is encoded whole, and the summary says so")
    func toneFallsBack() throws {
        let site = try Self.site()
        let folder = try TestFiles.temporaryFolder("style")
        var style = try String(contentsOfFile: TestFiles.packageRoot + "/templates/classic.json", encoding: .utf8)
        style = style.replacingOccurrences(of: "\"id\": \"classic\",", with: "\"id\": \"grey\",\n  \"tone\": \"mono\",")
        try TestFiles.write(Array(style.utf8), to: folder + "/grey.json")
        let out = try TestFiles.temporaryFolder("apply")
        let result = CLI.run(["apply", site, "-o", out, "--max-size", "0", "--template", folder + "/grey.json"])
        #expect(result.code == 0)
        let err = result.err.joined(separator: "\n")
        #expect(err.contains("site.jpg: note: re-encoded whole, not stamped in place: the style's mono tone changes every pixel"), "\(err)")
        #expect(err.contains("1 at full size re-encoded whole"), "\(err)")
        let grey = try Self.decoded(out + "/site.jpg").rgb(x: 500, y: 100)
        #expect(grey.red == grey.green && grey.green == grey.blue)
    }

    @Test("valid arithmetic-coded and CMYK photos are encoded whole, said in those words, never called corrupt",
          arguments: [("arithmetic", "arithmetic-coded"), ("cmyk", "CMYK (the stamp is drawn in place on YCbCr and greyscale photos)")])
    func kindsEncodedWhole(fixture: String, words: String) throws {
        let folder = try TestFiles.temporaryFolder("kind")
        try TestFiles.write(try TestFiles.bytes(TestFiles.packageRoot + "/Tests/ImagingTests/Fixtures/\(fixture).jpg"), to: folder + "/\(fixture).jpg")
        let out = try TestFiles.temporaryFolder("apply")
        let result = CLI.run(["apply", folder + "/\(fixture).jpg", "-o", out, "--max-size", "0", "--no-sign"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.contains { $0.hasSuffix("\(fixture).jpg: note: re-encoded whole, not stamped in place: \(words)") }, "\(result.err)")
        #expect(!result.err.contains { $0.contains("corrupt") }, "\(result.err)")
    }

    @Test("in place weighs every block's coefficients and the stamp's rows, not a quarter of the photo: within the limit, in place")
    func weighsWhatItHolds() throws {
        let site = try Self.site()
        let bytes = try TestFiles.bytes(site)
        let photo = try InPlaceJPEG(jpeg: bytes, options: LoadOptions(maxSize: 0))
        let pixels = photo.width * photo.height
        // Room for 4:2:0's 3 bytes a pixel of coefficients, the file three times and a strip: enough.
        let limit = 3 * pixels + 3 * bytes.count + 2 * pixels / 5
        let tight = try InPlaceJPEG(jpeg: bytes, options: LoadOptions(maxSize: 0, memoryLimit: limit))
        _ = try tight.decode(rows: tight.strip(covering: 0..<16))
        #expect(throws: ImageError.self) { _ = try tight.decode(rows: 0..<photo.height) }
        #expect(throws: ImageError.self) { _ = try InPlaceJPEG(jpeg: bytes, options: LoadOptions(maxSize: 0, memoryLimit: 3 * bytes.count)) }
    }

    @Test("every EXIF orientation: the tag and the stored pixels kept, the stamp upright at its corner in a viewer that applies the tag",
          arguments: Orientation.allCases)
    func orientation(_ orientation: Orientation) throws {
        let fixture = Fixtures.oriented(orientation, width: 480, height: 320)
        let input = try fixture.write(to: try TestFiles.temporaryFolder("in"))
        let out = try TestFiles.temporaryFolder("apply")
        let inPlace = CLI.run(["apply", input, "-o", out + "/a", "--max-size", "0"])
        #expect(inPlace.code == 0 && !inPlace.err.joined().contains("note"), "\(inPlace.err)")
        #expect(CLI.run(["apply", input, "-o", out + "/b", "--max-size", "0", "--reencode"]).code == 0)
        let written = try InPlaceJPEG(jpeg: try TestFiles.bytes(out + "/a/" + fixture.name), options: LoadOptions(maxSize: 0))
        #expect(written.metadata.orientation == orientation)
        #expect((written.width, written.height) == (orientation.swapsDimensions ? (320, 480) : (480, 320)))
        // ImageMagick applies the tag; what it shows is the upright photo stamped whole.
        let viewed = out + "/viewed.jpg"
        let converted = try ExternalTool.run("convert", [out + "/a/" + fixture.name, "-auto-orient", "-strip",
                                                         "-quality", "100", "-sampling-factor", "1x1", viewed])
        #expect(converted.status == 0, "\(converted.err)")
        let shown = try Self.decoded(viewed)
        let upright = try Self.decoded(out + "/b/" + fixture.name)
        #expect(shown.width == 480 && shown.height == 320)
        let corner = (x: 0..<240, y: 220..<320)
        #expect(PixelCompare.meanDifference(shown, upright, x: corner.x, y: corner.y) < 6)
        #expect(PixelCompare.meanDifference(shown, upright, x: 0..<480, y: 0..<320) < 3)
        let card = try Fixtures.card(width: 480, height: 320)
        #expect(PixelCompare.meanDifference(shown, card, x: corner.x, y: corner.y) > 8)  // the stamp is there
    }
}
