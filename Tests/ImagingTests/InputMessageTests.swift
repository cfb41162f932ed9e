import Testing
import TestSupport
@testable import Imaging

/// A photo that cannot be read is refused saying what is wrong with it, in terms of its own format.
@Suite struct InputMessageTests {
    static let good: [UInt8] = (try? Fixtures.sampled(.s420, width: 64, height: 48).jpeg()) ?? []

    @Test("a file that starts with FF D8 but breaks early is a broken JPEG, not 'not a JPEG'")
    func brokenStart() throws {
        #expect(throws: ImageError.truncatedFile(.jpeg, bytes: 2, pixelsComplete: false)) { try Photo(jpeg: [0xFF, 0xD8]) }
        #expect(throws: ImageError.truncatedFile(.jpeg, bytes: 3, pixelsComplete: false)) { try Photo(jpeg: [0xFF, 0xD8, 0xFF]) }
        #expect(throws: ImageError.corrupt("the start-of-image marker (FF D8) is followed by 0x00, not by another marker")) {
            try Photo(jpeg: [0xFF, 0xD8, 0x00, 0x10] + Array("JFIF and then nothing".utf8))
        }
        // Cut inside the header: the bytes it has, and no picture data salvage could use.
        #expect(throws: ImageError.truncatedFile(.jpeg, bytes: 20, pixelsComplete: false)) {
            try Photo(jpeg: Array(Self.good.prefix(20)), options: LoadOptions(salvage: true))
        }
        #expect("\(ImageError.truncatedFile(.jpeg, bytes: 20, pixelsComplete: false))" == "truncated JPEG: the file ends after 20 bytes, before the image does")
        // The check made from a file's first bytes says the same.
        let head: [UInt8] = [0xFF, 0xD8, 0x41, 0x41]
        #expect(throws: ImageError.corrupt("the start-of-image marker (FF D8) is followed by 0x41, not by another marker")) {
            try head.withUnsafeBytes { try LoadOptions().check(head: $0, size: 4000) }
        }
    }

    /// A valid JPEG whose frame header says 0 lines, the height following in a DNL marker after
    /// its (only) scan, as the standard allows.
    static func withDNL(_ good: [UInt8], height: Int) -> [UInt8] {
        let zeroHeight = BadJPEG.resized(good, width: 64, height: 0)
        let dnl: [UInt8] = [0xFF, 0xDC, 0x00, 0x04, UInt8(height >> 8), UInt8(height & 0xFF)]
        return Array(zeroHeight.dropLast(2)) + dnl + [0xFF, 0xD9]
    }

    @Test("a JPEG whose height comes from a DNL marker is an unsupported feature, not corruption")
    func dnl() throws {
        #expect(Array(Self.good.suffix(2)) == [0xFF, 0xD9])
        do {
            _ = try Photo(jpeg: Self.withDNL(Self.good, height: 48))
            Issue.record("a DNL file decoded")
        } catch {
            #expect(error == .unsupportedFeature(.jpeg, "its height is given by a DNL marker (the frame header says 0 lines), which libjpeg cannot decode"))
            #expect("\(error)".hasPrefix("unsupported JPEG feature: "))
        }
    }

    @Test("libheif's words on one line: no newline at the end or inside")
    func heifOneLine() {
        #expect(HEIFFile.oneLine("Invalid input: Unexpected end of file: Extent in iloc box references data outside of file bounds (points to file position 462)\n")
                == "Invalid input: Unexpected end of file: Extent in iloc box references data outside of file bounds (points to file position 462)")
        #expect(HEIFFile.oneLine("first\n  second \r\n") == "first; second")
    }
}
