import Foundation
import Testing
import TestSupport
@testable import Imaging

/// HEIC and PNG in, folders without photos, `-o FILE.jpg`, and no empty folders after failed runs.
@Suite struct InputFormatTests {
    /// An iPhone-like HEIC: 640x480 upright, stored turned a quarter with irot, its EXIF saying
    /// Orientation 6 too (which must not turn it a second time).
    static func heic() throws -> [UInt8] {
        let photo = Fixtures.oriented(.right, width: 640, height: 480)
        let exif = try #require(photo.exif?.payload())
        return try Photo.heic(stored: try photo.storedPixels(), orientation: .right, exif: exif, quality: 92)
    }

    @Test("HEIC in: turned upright once, EXIF kept, written as NAME.jpg; a HEIC named .jpg is read by its content")
    func heicIn() throws {
        let input = try TestFiles.temporaryFolder("heic")
        let bytes = try Self.heic()
        try TestFiles.write(bytes, to: input + "/IMG_0001.HEIC")
        try TestFiles.write(bytes, to: input + "/IMG_0002.jpg")
        let out = try TestFiles.temporaryFolder("heicout") + "/out"
        let result = CLI.run(["apply", input, "-o", out, "--max-size", "0"])
        #expect(result.code == 0, "\(result.err)")
        #expect(TestFiles.files(in: out) == ["IMG_0001.jpg", "IMG_0002.jpg"])
        #expect(result.err.contains("stampcam: \(input)/IMG_0002.jpg: warning: this is a HEIC file, named like a JPEG one; read as HEIC"))
        let stamped = try Photo(jpeg: try TestFiles.bytes(out + "/IMG_0001.jpg"), options: LoadOptions(maxSize: 0))
        #expect(stamped.width == 640 && stamped.height == 480)
        #expect(stamped.metadata.orientation == .up)
        #expect(stamped.metadata.dateTimeOriginal == Fixtures.dateTime)
        // Upright: above the stamp it is the card (HEVC loss and the JPEG's on top).
        let card = try Fixtures.card(width: 640, height: 480)
        #expect(PixelCompare.meanDifference(card, stamped.bitmap, x: 0..<640, y: 0..<250) < 8)
    }

    @Test("libheif is opened when a HEIC is read, not at start")
    func heifOpenedWhenNeeded() throws {
        let input = try TestFiles.temporaryFolder("lazyheif")
        try TestFiles.write(try Self.heic(), to: input + "/IMG_0001.HEIC")
        func loadsLibheif(_ arguments: String) throws -> Bool {
            let result = try CLI.shell("LD_DEBUG=libs \(CLI.quoted(CLI.binary)) \(arguments) 2>&1 >/dev/null")
            return result.out.contains { $0.contains("calling init:") && $0.contains("/libheif.so") }
        }
        #expect(try !loadsLibheif("--version"))
        #expect(try !loadsLibheif("apply --no-catalog \(CLI.quoted(try Fixtures.site.write(to: input + "/jpeg"))) -o \(CLI.quoted(input + "/out1"))"))
        #expect(try loadsLibheif("apply --no-catalog \(CLI.quoted(input + "/IMG_0001.HEIC")) -o \(CLI.quoted(input + "/out2"))"))
        #expect(FileManager.default.fileExists(atPath: input + "/out2/IMG_0001.jpg"))
    }

    @Test("a broken HEIC or PNG is named as one, in libheif's or libpng's own words (read before their context goes)")
    func brokenHEICAndPNG() throws {
        let input = try TestFiles.temporaryFolder("broken")
        try TestFiles.write(Array(try Self.heic().prefix(40)), to: input + "/cut.heic")
        try TestFiles.write(Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + [UInt8](repeating: 0x41, count: 40), to: input + "/cut.png")
        let result = CLI.run(["apply", input, "-o", input + "/out", "--no-catalog"])
        #expect(result.code == 65)
        let heic = try #require(result.err.first { $0.contains("cut.heic") })
        let png = try #require(result.err.first { $0.contains("cut.png") })
        #expect(heic.contains(": corrupt HEIC file: ") && heic.allSatisfy { $0.isASCII }, "\(heic)")
        #expect(png.contains(": corrupt PNG file: "), "\(png)")
    }

    @Test("PNG in: stamped and written as a JPEG")
    func pngIn() throws {
        let input = try TestFiles.temporaryFolder("png")
        let card = try Fixtures.card(width: 320, height: 200)
        #expect(card.writePNG(to: input + "/shot.png"))
        let out = input + "/out"
        let result = CLI.run(["apply", input + "/shot.png", "-o", out])
        #expect(result.code == 0, "\(result.err)")
        let stamped = try Photo(jpeg: try TestFiles.bytes(out + "/shot.jpg"), options: LoadOptions(maxSize: 0))
        #expect(stamped.width == 320 && stamped.height == 200)
        #expect(PixelCompare.meanDifference(card, stamped.bitmap, x: 0..<320, y: 0..<80) < 6)
    }

    @Test("a folder without photos: exit 66 naming it and what was looked for; no output folder is made")
    func noPhotos() throws {
        let input = try TestFiles.temporaryFolder("nophotos")
        try TestFiles.write(Array("notes".utf8), to: input + "/readme.txt")
        let out = try TestFiles.temporaryFolder("nophotosout") + "/out"
        let result = CLI.run(["apply", input, "-o", out])
        #expect(result.code == 66)
        #expect(result.err.first == "stampcam: no photos found in \(input) (looked for .jpg .jpeg .heic .png)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("failed runs leave no output folder: a missing photo, a bad style")
    func noEmptyFolder() throws {
        let base = try TestFiles.temporaryFolder("noempty")
        let missing = CLI.run(["apply", base + "/missing.jpg", "-o", base + "/a"])
        #expect(missing.code == 66)
        let photo = try Fixtures.site.write(to: base)
        let style = CLI.run(["apply", photo, "-o", base + "/b", "-t", "nonexistent"])
        #expect(style.code == 64)
        let broken = try TestFiles.temporaryFolder("broken")
        try TestFiles.write([0xFF, 0xD8, 0xFF, 0x00, 0x01], to: broken + "/bad.jpg")
        let bad = CLI.run(["apply", broken + "/bad.jpg", "-o", base + "/c"])
        #expect(bad.code == 65)
        #expect(TestFiles.files(in: base) == ["site.jpg"])
    }

    @Test("-o FILE.jpg with one photo writes that file (unmarked folder); with several it is an error")
    func outputFile() throws {
        let base = try TestFiles.temporaryFolder("ofile")
        let photo = try Fixtures.site.write(to: base + "/in")
        let one = CLI.run(["apply", photo, "-o", base + "/stamped.jpg"])
        #expect(one.code == 0, "\(one.err)")
        #expect(one.out == [base + "/stamped.jpg"])
        #expect(!FileManager.default.fileExists(atPath: base + "/.stampcam"))
        _ = try Photo(jpeg: try TestFiles.bytes(base + "/stamped.jpg"))
        let several = CLI.run(["apply", photo, photo, "-o", base + "/two.jpg"])
        #expect(several.code == 64)
        #expect(several.err.first?.contains("it names one file; give a folder (-o DIR)") == true)
        let folder = CLI.run(["apply", base + "/in", "-o", base + "/f.jpg"])
        #expect(folder.code == 64)
    }
}
