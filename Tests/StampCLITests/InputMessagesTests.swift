import Foundation
import Imaging
import Testing
import TestSupport

/// What `apply` says of photos it cannot read: what is wrong, and only advice that will work.
@Suite struct InputMessagesTests {
    static func run(_ name: String, _ bytes: [UInt8], _ extra: [String] = []) throws -> (code: Int32, err: [String], folder: String) {
        let folder = try TestFiles.temporaryFolder("msg")
        try TestFiles.write(bytes, to: folder + "/in/" + name, creatingFolders: true)
        let result = CLI.run(["apply", folder + "/in/" + name, "-o", folder + "/out", "--no-catalog"] + extra)
        return (result.code, result.err, folder)
    }

    @Test("FF D8 and then no marker: a broken JPEG, said so")
    func brokenStart() throws {
        let result = try Self.run("a.jpg", [0xFF, 0xD8, 0x00, 0x10] + Array("JFIF and then nothing".utf8))
        #expect(result.code == 65)
        #expect(result.err.first == "stampcam: \(result.folder)/in/a.jpg: corrupt JPEG: the start-of-image marker (FF D8) is followed by 0x00, not by another marker")
    }

    @Test("a JPEG whose height is in a DNL marker: an unsupported feature, not corruption")
    func dnl() throws {
        let good = try Fixtures.sampled(.s420, width: 64, height: 48).jpeg()
        let zeroHeight = BadJPEG.resized(good, width: 64, height: 0)
        let result = try Self.run("a.jpg", Array(zeroHeight.dropLast(2)) + [0xFF, 0xDC, 0x00, 0x04, 0x00, 48, 0xFF, 0xD9])
        #expect(result.code == 65)
        #expect(result.err.first == "stampcam: \(result.folder)/in/a.jpg: unsupported JPEG feature: its height is given by a DNL marker (the frame header says 0 lines), which libjpeg cannot decode")
    }

    @Test("a --salvage run does not advise --salvage; a JPEG cut in its header is not advised it either")
    func salvageAdvice() throws {
        let good = try Fixtures.site.jpeg()
        let header = try Self.run("a.jpg", Array(good.prefix(30)), ["--salvage"])
        #expect(header.code == 65)
        #expect(header.err.first == "stampcam: \(header.folder)/in/a.jpg: truncated JPEG: the file ends after 30 bytes, before the image does")
        let png = try InputMissingEnd.png()
        let refused = try Self.run("a.png", png)
        #expect(refused.code == 65)
        #expect(refused.err.first == "stampcam: \(refused.folder)/in/a.png: truncated PNG: the file ends after \(png.count) bytes, without its end chunk (IEND); every pixel is there; --salvage stamps it")
        let salvaged = try Self.run("a.png", png, ["--salvage"])
        #expect(salvaged.code == 0, "\(salvaged.err)")
        #expect(salvaged.err.contains("stampcam: \(salvaged.folder)/in/a.png: warning: the file ends without its PNG end chunk (IEND) (every pixel was there)"))
        #expect(FileManager.default.fileExists(atPath: salvaged.folder + "/out/a.jpg"))
    }

    @Test("report, which has no --salvage, does not advise it for a photo cut short; apply does")
    func salvageOnlyWhereItExists() throws {
        let folder = try TestFiles.temporaryFolder("rep")
        let good = try Fixtures.site.jpeg()
        try TestFiles.write(Array(good.prefix(good.count / 2)), to: folder + "/half.jpg")
        let report = CLI.run(["report", folder + "/half.jpg", "-o", folder + "/r.pdf"])
        let line = try #require(report.err.first { $0.contains("half.jpg") })
        #expect(line.contains("truncated JPEG") && !line.contains("--salvage"), "\(line)")
        let apply = try Self.run("half.jpg", Array(good.prefix(good.count / 2)))
        #expect(apply.err.first?.hasSuffix("; --salvage stamps what decodes") == true, "\(apply.err)")
    }

    @Test("a corrupt PNG says what is wrong (a bad CRC), not what Cairo said")
    func corruptPNG() throws {
        let path = try TestFiles.temporaryFolder("png") + "/card.png"
        #expect(try Fixtures.card(width: 64, height: 48).writePNG(to: path))
        var bytes = try TestFiles.bytes(path)
        bytes[29] ^= 0xFF  // the IHDR chunk's CRC
        let result = try Self.run("a.png", bytes)
        #expect(result.err.first == "stampcam: \(result.folder)/in/a.png: corrupt PNG file: bad CRC in the IHDR chunk (the chunk is damaged)")
    }

    @Test("libheif's message is one clean line (no escaped newline at its end), as the binary prints it")
    func heifMessage() throws {
        let folder = try TestFiles.temporaryFolder("heicmsg")
        let heic = try Photo.heic(stored: try Fixtures.oriented(.up, width: 64, height: 48).storedPixels())
        try TestFiles.write(Array(heic.dropLast(10)), to: folder + "/a.heic")
        let result = try CLI.shell("\(CLI.quoted(CLI.binary)) apply --no-catalog \(CLI.quoted(folder + "/a.heic")) -o \(CLI.quoted(folder + "/out")) 2>&1")
        // The photo's line (a first run also says it made a signing identity).
        let line = try #require(result.out.first { $0.contains("a.heic") })
        #expect(line.contains(": corrupt HEIC file: ") && !line.contains("\\x0A") && !line.hasSuffix(" "), "\(line)")
    }
}

/// A PNG whose pixels are all there but whose end chunk (IEND) is missing.
enum InputMissingEnd {
    static func png() throws -> [UInt8] {
        let path = try TestFiles.temporaryFolder("png") + "/card.png"
        #expect(try Fixtures.card(width: 64, height: 48).writePNG(to: path))
        return Array(try TestFiles.bytes(path).dropLast(12))
    }
}
