import Imaging
import Testing
import TestSupport

/// A file that lacks only its end marker still holds every pixel: it is stamped (with a warning).
/// One cut anywhere before that — in a scan, or between the scans of a progressive file — is not.
@Suite struct MissingEndTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try TestFiles.bytes(TestFiles.packageRoot + "/Tests/ImagingTests/Fixtures/\(name).jpg")
    }

    /// Offsets of the SOS markers (FF DA) in the file.
    static func scanStarts(_ bytes: [UInt8]) -> [Int] {
        (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    }

    @Test("without its last two bytes (FF D9), a baseline or progressive file decodes whole, with a warning",
          arguments: ["baseline", "progressive"])
    func missingEnd(name: String) throws {
        let whole = try Self.fixture(name)
        #expect(Array(whole.suffix(2)) == [0xFF, 0xD9])
        let complete = try Photo(jpeg: whole, options: LoadOptions(maxSize: 0))
        for cut in [2, 1] {  // the whole marker, or only its second byte
            let photo = try Photo(jpeg: Array(whole.dropLast(cut)), options: LoadOptions(maxSize: 0))
            #expect(photo.metadata.warnings.contains { $0.contains("end marker") })
            #expect(PixelCompare.meanDifference(photo.bitmap, complete.bitmap) == 0)
        }
    }

    @Test("a cut inside the scan data is still a truncated file", arguments: ["baseline", "progressive"])
    func cutInScan(name: String) throws {
        let whole = try Self.fixture(name)
        #expect(throws: ImageError.truncated) {
            try Photo(jpeg: Array(whole.prefix(whole.count * 9 / 10)), options: LoadOptions(maxSize: 0))
        }
    }

    @Test("a progressive file cut between two scans is truncated: its later scans are missing")
    func cutBetweenScans() throws {
        let whole = try Self.fixture("progressive")
        let scans = Self.scanStarts(whole)
        try #require(scans.count > 3)
        for scan in scans.dropFirst(2) {
            #expect(throws: ImageError.truncated) {
                try Photo(jpeg: Array(whole.prefix(scan)), options: LoadOptions(maxSize: 0))
            }
        }
    }
}
