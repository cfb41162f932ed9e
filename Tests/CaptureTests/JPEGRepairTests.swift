import Imaging
import Testing
import TestSupport
@testable import Capture

@Suite struct JPEGRepairTests {
    /// A real camera photo, used in place from the shared corpus.
    static func cameraPhoto() throws -> [UInt8] {
        let path = try #require(TestFiles.corpusPhotos.first { path in
            guard let bytes = try? TestFiles.bytes(path), bytes.count < 400_000 else { return false }
            // Cameras write the standard tables; a photo with its own optimised tables would not
            // decode the same with the standard ones put back.
            return Self.huffmanTables(bytes) == Self.huffmanTables(StandardHuffmanTables.segment)
        })
        return try TestFiles.bytes(path)
    }

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

    @Test func restoresTheStandardTablesOfACameraPhoto() throws {
        let original = try Self.cameraPhoto()
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

    @Test func leavesAFrameWithTablesAlone() throws {
        let jpeg = try Frames.jpeg(width: 16, height: 16, color: (1, 2, 3))
        #expect(try Self.repaired(jpeg) == jpeg)
    }

    @Test func refusesWhatIsNotAWholeJPEG() throws {
        let jpeg = Frames.withoutHuffmanTables(try Frames.jpeg(width: 16, height: 16, color: (1, 2, 3)))
        #expect(throws: JPEGRepair.Problem.notJPEG) { _ = try Self.repaired([0x00, 0x01, 0x02, 0x03]) }
        #expect(throws: JPEGRepair.Problem.truncated) { _ = try Self.repaired(Array(jpeg.prefix(30))) }
    }

    @Test func anMJPEGCameraGivesAStandaloneFileWithoutReEncoding() throws {
        let original = try Self.cameraPhoto()
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
