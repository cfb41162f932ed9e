import Imaging
import Testing
import TestSupport
@testable import Capture

/// Shared by the fixture tests and their corpus variants.
enum Repair {
    /// The bodies of all DHT segments before the first SOS, concatenated.
    static func huffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        let prefix: [UInt8] = jpeg.starts(with: [0xFF, 0xD8]) ? [] : [0xFF, 0xD8]
        let bytes = prefix + jpeg
        return Frames.markers(0xC4, in: bytes).flatMap { offset -> [UInt8] in
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            return Array(bytes[offset + 4..<offset + 2 + length])
        }
    }

    static func repaired(_ bytes: [UInt8]) throws -> [UInt8] {
        try bytes.withUnsafeBytes { try JPEGRepair.standalone($0) }
    }

    /// Strips the tables from `original`, repairs it, and checks it decodes to the same pixels.
    static func restoresTheStandardTables(of original: [UInt8]) throws {
        let stripped = Frames.withoutHuffmanTables(original)
        #expect(Frames.markers(0xC4, in: stripped).isEmpty)
        let repaired = try Self.repaired(stripped)
        let tables = Frames.markers(0xC4, in: repaired)
        let scan = try #require(Frames.markers(0xDA, in: repaired).first)
        #expect(tables.count == 1 && tables[0] < scan)
        // A standalone file that decodes to exactly the original's pixels.
        let before = try Photo(jpeg: original, options: LoadOptions(maxSize: 256))
        let after = try Photo(jpeg: repaired, options: LoadOptions(maxSize: 256))
        #expect(PixelCompare.meanDifference(before.bitmap, after.bitmap) == 0)
        #expect(repaired.count == stripped.count + StandardHuffmanTables.segment.count)
    }

    /// A fake MJPEG camera sending `original` without its tables: the still is the camera's own
    /// bytes made standalone, behind an EXIF segment, never re-encoded.
    static func standaloneStill(from original: [UInt8]) throws {
        let header = try Photo(jpeg: original, options: LoadOptions(maxSize: 64))
        let size = Resolution(width: header.sourceWidth, height: header.sourceHeight)
        let frameBytes = Frames.withoutHuffmanTables(original)
        let (host, _) = FakeHost.withCamera { device in
            device.formats = [(.mjpeg, [size])]
            device.frame = { _ in frameBytes }  // bytesused is the frame, not the whole buffer
        }
        var settings = CaptureSettings()
        settings.settle = .frames(2)
        let still = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        let cameraJPEG = try #require(still.cameraJPEG)
        #expect(cameraJPEG == (try Self.repaired(frameBytes)))
        // The saved file: an EXIF segment, then the camera's own bytes, decodable on their own.
        let file = try still.jpeg()
        #expect(Array(file.suffix(cameraJPEG.count - 2)) == Array(cameraJPEG.dropFirst(2)))
        let decoded = try Photo(jpeg: file, options: LoadOptions(maxSize: 256))
        #expect(decoded.metadata.model == "Fake Cam")
        let expected = try Photo(jpeg: original, options: LoadOptions(maxSize: 256))
        #expect(PixelCompare.meanDifference(decoded.bitmap, expected.bitmap) == 0)
    }
}

@Suite struct JPEGRepairTests {
    @Test func theFixtureFrameUsesTheStandardTables() throws {
        // Cameras write the standard tables; a frame with its own optimised tables would not
        // decode the same with the standard ones put back.
        #expect(Repair.huffmanTables(try Fixtures.cameraFrame()) == Repair.huffmanTables(StandardHuffmanTables.segment))
        #expect(Repair.huffmanTables(try Photo(bitmap: try Fixtures.card(width: 64, height: 48)).jpeg())
                != Repair.huffmanTables(StandardHuffmanTables.segment))
    }

    @Test func restoresTheStandardTablesOfACameraFrame() throws {
        try Repair.restoresTheStandardTables(of: try Fixtures.cameraFrame())
    }

    @Test func leavesAFrameWithTablesAlone() throws {
        let jpeg = try Frames.jpeg(width: 16, height: 16, color: (1, 2, 3))
        #expect(try Repair.repaired(jpeg) == jpeg)
        let frame = try Fixtures.cameraFrame()
        #expect(try Repair.repaired(frame) == frame)
    }

    @Test func refusesWhatIsNotAWholeJPEG() throws {
        let jpeg = Frames.withoutHuffmanTables(try Frames.jpeg(width: 16, height: 16, color: (1, 2, 3)))
        #expect(throws: JPEGRepair.Problem.notJPEG) { _ = try Repair.repaired([0x00, 0x01, 0x02, 0x03]) }
        #expect(throws: JPEGRepair.Problem.truncated) { _ = try Repair.repaired(Array(jpeg.prefix(30))) }
    }

    @Test func anMJPEGCameraGivesAStandaloneFileWithoutReEncoding() throws {
        try Repair.standaloneStill(from: try Fixtures.cameraFrame())
    }
}

/// The same with a real camera photo from ../shared/corpus, when it is there.
@Suite struct CorpusJPEGRepairTests {
    /// The first small corpus photo written with the standard tables.
    static func cameraPhoto() throws -> [UInt8] {
        let path = try #require(Corpus.photos.first { path in
            guard let bytes = try? TestFiles.bytes(path), bytes.count < 400_000 else { return false }
            return Repair.huffmanTables(bytes) == Repair.huffmanTables(StandardHuffmanTables.segment)
        })
        return try TestFiles.bytes(path)
    }

    @Test(.needsCorpus) func restoresTheStandardTablesOfACameraPhoto() throws {
        try Repair.restoresTheStandardTables(of: try Self.cameraPhoto())
    }

    @Test(.needsCorpus) func anMJPEGCameraGivesAStandaloneFileOfACameraPhoto() throws {
        try Repair.standaloneStill(from: try Self.cameraPhoto())
    }
}
