import Foundation
import Imaging
import Testing
import TestSupport
import Watermark

/// `PhotoReport.Logo.read`: a PNG or a JPEG for the report's cover, and one clear line for
/// anything else a user may name.
@Suite struct ReportLogoTests {
    @Test("a PNG is kept as it is; a JPEG is read upright and smaller")
    func images() throws {
        let folder = try TestFiles.temporaryFolder("report-logo")
        try TestFiles.write(ReportPagesTests.logoPNG, to: folder + "/logo.png")
        guard case .png(let bytes, 120, 60) = try PhotoReport.Logo.read(folder + "/logo.png") else {
            Issue.record("not read as a PNG")
            return
        }
        #expect(bytes == ReportPagesTests.logoPNG)
        try TestFiles.write(try Photo(bitmap: try Fixtures.card(width: 2400, height: 800)).jpeg(), to: folder + "/logo.jpg")
        let jpeg = try PhotoReport.Logo.read(folder + "/logo.jpg")
        #expect(jpeg.size == (1200, 400))
    }

    @Test("missing, empty, a FIFO, a folder, not an image, SVG, too many pixels, too large a file: one line naming it and why",
          arguments: [
              ("missing", "file not found"), ("empty", "the file is empty, not a PNG or JPEG image"),
              ("fifo", "it is a FIFO (named pipe), not a regular file"), ("folder", "not a regular file"),
              ("text", "not a PNG or JPEG image"), ("svg", "(an SVG or other logo: export it as PNG)"),
              ("huge.png", "the logo is 60000×60000 pixels; a logo may have at most 4096×4096: scale it down"),
              ("huge.jpg", "the logo is 5000×5000 pixels"),
              ("large", "a logo file may be at most 67 MB"), ("truncated.png", "truncated PNG"),
          ])
    func hostile(_ name: String, _ reason: String) throws {
        let folder = try TestFiles.temporaryFolder("report-logo-hostile")
        let path = folder + "/" + name
        switch name {
        case "missing": break
        case "empty": try TestFiles.write([], to: path)
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "text": try TestFiles.write(Array("logo\n".utf8), to: path)
        case "svg": try TestFiles.write(Array("<svg xmlns='http://www.w3.org/2000/svg'><circle r='5'/></svg>".utf8), to: path)
        case "huge.png":
            // Only the header: the size is refused before anything is decoded.
            let header: [UInt8] = [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0]
            try TestFiles.write(PNGImage.signature + PNGFixture.chunk("IHDR", header), to: path)
        case "huge.jpg": try TestFiles.write(BadJPEG.resized(try Photo(bitmap: try Fixtures.card(width: 64, height: 64)).jpeg(),
                                                               width: 5000, height: 5000), to: path)
        case "large":
            // A sparse file: its size is refused from stat, before it is read.
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: UInt64(LogoCache.maxFileSize + 1))
            try handle.close()
        default: try TestFiles.write(Array(ReportPagesTests.logoPNG.prefix(60)), to: path)
        }
        do {
            _ = try PhotoReport.Logo.read(path)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.description.hasPrefix(path + ": cannot use this logo: "), "\(error)")
            #expect(error.description.contains(reason), "\(error)")
            #expect(!error.description.contains("\n"))
        }
    }
}
