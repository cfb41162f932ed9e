import Imaging
import Testing
import TestSupport

/// The one PNG reader (photos, logos, golden images) on every form a PNG comes in, and on damaged ones.
@Suite struct PNGReaderTests {
    /// A different colour and opacity at every pixel of a 9 × 7 image (odd sizes leave Adam7's
    /// passes partly empty).
    static func color(_ x: Int, _ y: Int) -> PNGFixture.Color {
        (UInt8(x * 25), UInt8(y * 30 + 10), UInt8(200 - x * 10), UInt8(255 - (x + y) * 15))
    }

    /// What the pixel shows over black: each channel times its opacity.
    static func overBlack(_ color: PNGFixture.Color, form: PNGFixture.Form) -> (red: Int, green: Int, blue: Int) {
        func times(_ channel: UInt8, _ alpha: UInt8) -> Int { (Int(channel) * Int(alpha) + 127) / 255 }
        switch form {
        case .rgb: return (Int(color.red), Int(color.green), Int(color.blue))
        case .greyAlpha:
            let grey = times(color.red, color.alpha)
            return (grey, grey, grey)
        case .palette, .rgba: return (times(color.red, color.alpha), times(color.green, color.alpha), times(color.blue, color.alpha))
        }
    }

    static func decode(_ bytes: [UInt8]) throws(ImageError) -> Bitmap {
        try bytes.withUnsafeBytes { buffer in Result { () throws(ImageError) in try Photo(png: buffer).bitmap } }.get()
    }

    @Test("each form decodes to the colours it holds, transparency over black",
          arguments: [PNGFixture.Form.palette, .greyAlpha(bits: 8), .greyAlpha(bits: 16), .rgb(bits: 8), .rgb(bits: 16),
                      .rgba(bits: 8), .rgba(bits: 16)], [false, true])
    func forms(form: PNGFixture.Form, interlaced: Bool) throws {
        let bitmap = try Self.decode(PNGFixture.make(width: 9, height: 7, form: form, interlaced: interlaced, color: Self.color))
        #expect(bitmap.width == 9 && bitmap.height == 7)
        var wrong: [String] = []
        for y in 0..<7 {
            for x in 0..<9 {
                let expected = Self.overBlack(Self.color(x, y), form: form), got = bitmap.rgb(x: x, y: y)
                if abs(Int(got.red) - expected.red) > 1 || abs(Int(got.green) - expected.green) > 1 || abs(Int(got.blue) - expected.blue) > 1 {
                    wrong.append("(\(x), \(y)): \(got) instead of \(expected)")
                }
            }
        }
        #expect(wrong.count == 0, "\(form)\(interlaced ? ", interlaced" : ""): \(wrong.prefix(4))")
    }

    @Test("a damaged PNG is refused with the reason: no header, cut short, a damaged header, damaged pixel data")
    func damaged() {
        let good = PNGFixture.make(width: 9, height: 7, form: .rgba(bits: 8), color: Self.color)
        #expect(throws: ImageError.corruptFile(.png, "no image header")) { try Self.decode(Array(good.prefix(20))) }
        #expect(throws: ImageError.corruptFile(.png, "the PNG data ends too early (a truncated file?)")) {
            try Self.decode(Array(good.prefix(good.count / 2)))
        }
        var header = good
        header[30] ^= 0xFF  // the IHDR chunk's checksum
        var pixels = good
        pixels[good.count - 30] ^= 0xFF  // inside IDAT: its checksum no longer matches
        for (name, bytes) in [("header", header), ("pixels", pixels)] {
            do {
                _ = try Self.decode(bytes)
                Issue.record("damaged \(name) decoded")
            } catch {
                #expect(error == .corruptFile(.png, "libpng could not decode it (damaged data, or not enough memory)"), "damaged \(name)")
            }
        }
    }

    @Test("golden images are read by the same reader")
    func goldenFile() throws {
        let folder = try TestFiles.temporaryFolder("png-golden")
        try TestFiles.write(PNGFixture.make(width: 9, height: 7, form: .palette, interlaced: true, color: Self.color), to: folder + "/a.png")
        let bitmap = try #require(Bitmap(pngFile: folder + "/a.png"))
        #expect(bitmap.rgb(x: 4, y: 3) == (try Self.decode(try TestFiles.bytes(folder + "/a.png"))).rgb(x: 4, y: 3))
        #expect(Bitmap(pngFile: folder + "/missing.png") == nil)
    }
}
