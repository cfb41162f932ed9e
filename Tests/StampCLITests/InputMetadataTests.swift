import Catalog
import Foundation
import Testing
import TestSupport
import Values
@testable import Imaging

/// What a HEIC's or PNG's own metadata becomes in the JPEG `apply` writes: the EXIF read and used
/// as a JPEG's is (orientation, time, GPS), the ICC profile carried, and the EXIF valid for a JPEG.
@Suite struct InputMetadataTests {
    /// A camera's EXIF block (TIFF header on, no "Exif\0\0") written by exiftool, then stripped of
    /// what a HEIC's EXIF often lacks for a JPEG: the resolution, YCbCrPositioning, FlashpixVersion,
    /// ColorSpace, ComponentsConfiguration and pixel size, with an ExifVersion (2.21) older than
    /// its OffsetTimeOriginal (2.31), and a GPS IFD without GPSVersionID.
    static func cameraExif(orientation: Int) throws -> [UInt8] {
        let folder = try TestFiles.temporaryFolder("camexif")
        let path = folder + "/a.jpg"
        try TestFiles.write(try Fixtures.sampled(.s420, width: 64, height: 48).jpeg(), to: path)
        _ = try ExifTool.output(["-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 12", "-Orientation#=\(orientation)",
                                 "-DateTimeOriginal=2021:06:14 09:41:27", "-OffsetTimeOriginal=+02:00",
                                 "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", path])
        _ = try ExifTool.output(["-q", "-overwrite_original", "-XResolution=", "-YResolution=", "-ResolutionUnit=", "-YCbCrPositioning=",
                                 "-FlashpixVersion=", "-ColorSpace=", "-ComponentsConfiguration=", "-ExifImageWidth=", "-ExifImageHeight=",
                                 "-GPSVersionID=", "-ExifVersion=0221", path])
        let tiff = [UInt8](try ExifTool.output(["-b", "-EXIF", path]))
        try #require(tiff.starts(with: Array("MM".utf8)) || tiff.starts(with: Array("II".utf8)))
        return tiff
    }

    /// The card upright at 320x200, stored turned a quarter (EXIF orientation 6).
    static func storedCard() throws -> Bitmap {
        try Fixtures.stored(try Fixtures.card(width: 320, height: 200), orientation: .right)
    }

    /// A PNG of `stored` with `chunks` after its header (where eXIf and iCCP go).
    static func png(_ stored: Bitmap, chunks: [[UInt8]]) throws -> [UInt8] {
        let path = try TestFiles.temporaryFolder("png") + "/plain.png"
        try #require(stored.writePNG(to: path))
        let plain = try TestFiles.bytes(path)
        let headerEnd = 8 + 25  // the signature and the IHDR chunk
        return Array(plain[..<headerEnd]) + chunks.flatMap { $0 } + Array(plain[headerEnd...])
    }

    static func iccpChunk(_ profile: [UInt8]) -> [UInt8] {
        PNGFixture.chunk("iCCP", Array("test profile".utf8) + [0, 0] + PNGFixture.zlibStored(profile))
    }

    @Test("PNG in with eXIf and iCCP: turned upright by its orientation, time and GPS used, EXIF and ICC profile carried and valid")
    func pngMetadata() throws {
        let base = try TestFiles.temporaryFolder("pngmeta")
        let profile = ICCProfileMaker.profile(description: "stampcam PNG test")
        let bytes = try Self.png(try Self.storedCard(), chunks: [PNGFixture.chunk("eXIf", try Self.cameraExif(orientation: 6)),
                                                                 Self.iccpChunk(profile)])
        try TestFiles.write(bytes, to: base + "/in/shot.png", creatingFolders: true)
        let result = CLI.run(["apply", base + "/in/shot.png", "-o", base + "/out", "--max-size", "0", "-t", "geo", "--catalog", base + "/c.sqlite"])
        #expect(result.code == 0, "\(result.err)")
        #expect(!result.err.contains { $0.contains("warning") }, "\(result.err)")
        let out = base + "/out/shot.jpg"
        let stamped = try Photo(jpeg: try TestFiles.bytes(out), options: LoadOptions(maxSize: 0))
        #expect(stamped.width == 320 && stamped.height == 200)
        #expect(stamped.metadata.orientation == .up)
        let card = try Fixtures.card(width: 320, height: 200)
        #expect(PixelCompare.meanDifference(card, stamped.bitmap, x: 0..<320, y: 0..<80) < 6)
        #expect(stamped.metadata.dateTimeOriginal == "2021:06:14 09:41:27" && stamped.metadata.make == "Apple")
        #expect(stamped.metadata.iccProfile == profile)
        let row = try #require(try Catalog(reading: base + "/c.sqlite").entries().entries.first)
        #expect(abs((row.latitude ?? 0) - 48.85) < 1e-6 && abs((row.longitude ?? 0) - 2.2945) < 1e-6, "\(row)")
        #expect(row.time == Timestamp(iso8601: "2021-06-14T09:41:27+02:00"), "\(row)")
        #expect(try ExifTool.validationWarnings(out) == [])
    }

    @Test("HEIC in: its EXIF is made valid for the JPEG written (required tags added, ExifVersion new enough for its tags)")
    func heicExifValid() throws {
        let base = try TestFiles.temporaryFolder("heicexif")
        let stored = try Self.storedCard()
        let heic = try Photo.heic(stored: stored, orientation: .right, exif: Array("Exif\0\0".utf8) + (try Self.cameraExif(orientation: 6)))
        try TestFiles.write(heic, to: base + "/in/IMG_0001.HEIC", creatingFolders: true)
        let result = CLI.run(["apply", base + "/in/IMG_0001.HEIC", "-o", base + "/out", "--max-size", "0", "--no-catalog"])
        #expect(result.code == 0, "\(result.err)")
        let out = base + "/out/IMG_0001.jpg"
        #expect(try ExifTool.validationWarnings(out) == [])
        let stamped = try Photo(jpeg: try TestFiles.bytes(out), options: LoadOptions(maxSize: 0))
        #expect(stamped.metadata.offsetTimeOriginal == "+02:00" && stamped.metadata.make == "Apple")
        let text = try ExifTool.text(["-s", "-s", "-s", "-ExifVersion", "-ExifImageWidth", "-ExifImageHeight", out])
        #expect(text.split(separator: "\n") == ["0231", "320", "200"], "\(text)")
    }
}
