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

    @Test("a damaged PNG is refused saying what is wrong: no header, cut short, a bad CRC, damaged pixel data, a bad header")
    func damaged() {
        let good = PNGFixture.make(width: 9, height: 7, form: .rgba(bits: 8), color: Self.color)
        #expect(throws: ImageError.corruptFile(.png, "no image header (IHDR chunk)")) { try Self.decode(Array(good.prefix(20))) }
        #expect(throws: ImageError.truncatedFile(.png, bytes: good.count / 2, pixelsComplete: false)) {
            try Self.decode(Array(good.prefix(good.count / 2)))
        }
        var header = good
        header[30] ^= 0xFF  // the IHDR chunk's checksum
        #expect(throws: ImageError.corruptFile(.png, "bad CRC in the IHDR chunk (the chunk is damaged)")) { try Self.decode(header) }
        // Inside IDAT, and its CRC made right again: the damage is in the compressed pixels.
        var pixels = good
        let idat = Self.chunkStart("IDAT", in: good)
        pixels[idat + 8 + 1] ^= 0xFF  // the zlib header's second byte
        pixels = Self.withCRC(pixels, chunkAt: idat)
        #expect(throws: ImageError.corruptFile(.png, "IDAT: incorrect header check")) { try Self.decode(pixels) }
        // A colour type PNG has not: IHDR's own check, CRC right.
        var colour = good
        colour[8 + 8 + 9] = 5
        colour = Self.withCRC(colour, chunkAt: 8)
        do {
            _ = try Self.decode(colour)
            Issue.record("a bad colour type decoded")
        } catch {
            #expect("\(error)".hasPrefix("corrupt PNG file: ") && "\(error)".contains("color type"), "\(error)")
        }
    }

    @Test("a PNG that lacks only its end chunk (IEND): refused saying every pixel is there, loaded whole with salvage and a note")
    func missingEnd() throws {
        let good = PNGFixture.make(width: 9, height: 7, form: .rgba(bits: 8), color: Self.color)
        let cut = Array(good.dropLast(12))  // IEND: length, type and CRC, no data
        #expect(throws: ImageError.truncatedFile(.png, bytes: cut.count, pixelsComplete: true)) { try Self.decode(cut) }
        let salvaged = try cut.withUnsafeBytes { try Photo(png: $0, options: LoadOptions(salvage: true)) }
        #expect(salvaged.metadata.warnings == ["the file ends without its PNG end chunk (IEND) (every pixel was there)"])
        #expect(PixelCompare.meanDifference(salvaged.bitmap, try Self.decode(good)) == 0)
        // Cut inside the pixels, salvage cannot help.
        #expect(throws: ImageError.truncatedFile(.png, bytes: good.count - 40, pixelsComplete: false)) {
            try Array(good.dropLast(40)).withUnsafeBytes { try Photo(png: $0, options: LoadOptions(salvage: true)) }
        }
    }

    @Test("a damaged chunk the picture does without (an eXIf with a bad CRC) is left out with a warning naming it, never silently")
    func damagedAncillary() throws {
        let good = PNGFixture.make(width: 9, height: 7, form: .rgb(bits: 8), color: Self.color)
        var exif = PNGFixture.chunk("eXIf", Array("MM\0\u{2A}\0\0\0\u{8}\0\0\0\0\0\0".utf8))
        exif[exif.count - 1] ^= 0xFF
        let bytes = Array(good[..<33]) + exif + Array(good[33...])
        let photo = try bytes.withUnsafeBytes { try Photo(png: $0) }
        #expect(photo.metadata.exif == nil)
        #expect(photo.metadata.warnings == ["libpng read past a problem: bad CRC in the eXIf chunk (the chunk is damaged)"])
    }

    /// Where the first chunk of `type` starts (its length field).
    static func chunkStart(_ type: String, in png: [UInt8]) -> Int {
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual(type.utf8) { return offset }
            offset += 12 + length
        }
        return png.count
    }

    /// `png` with the CRC of the chunk at `offset` written for its bytes as they are now.
    static func withCRC(_ png: [UInt8], chunkAt offset: Int) -> [UInt8] {
        let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
        let chunk = PNGFixture.chunk(type, Array(png[offset + 8..<offset + 8 + length]))
        return Array(png[..<offset]) + chunk + Array(png[(offset + 12 + length)...])
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
