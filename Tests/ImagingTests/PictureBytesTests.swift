@testable import Imaging
import Testing

/// What the in-place path hashes as a JPEG's picture: its bytes without the metadata segments
/// before the first scan. Damaged structure never loses bytes: from where it breaks, all is kept.
@Suite struct PictureBytesTests {
    static func spans(_ bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBytes { InPlaceJPEG.pictureSpans($0) }
    }

    @Test("APPn and COM before the first scan are left out; tables, frame and every byte from SOS on are kept")
    func segments() {
        let jpeg: [UInt8] = [0xFF, 0xD8,
                             0xFF, 0xE1, 0x00, 0x04, 0xAA, 0xBB,          // APP1: 2…7
                             0xFF, 0xDB, 0x00, 0x03, 0x01,                // DQT: 8…12
                             0xFF, 0xFE, 0x00, 0x03, 0x63,                // COM: 13…17
                             0xFF, 0xC0, 0x00, 0x02,                      // SOF0: 18…21
                             0xFF, 0xDA, 0x00, 0x02, 0x12, 0x34, 0xFF, 0xE1, 0xFF, 0xD9]  // SOS on: 22…
        #expect(Self.spans(jpeg) == [0..<2, 8..<13, 18..<jpeg.count])
    }

    @Test("truncated, oversized lengths, garbage, empty: no crash, and the rest from the break is kept", arguments: [
        ([], [0..<0]), ([0xFF], [0..<1]), ([0xFF, 0xD8], [0..<2]),
        ([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00], [0..<7]),        // APP1 longer than the file
        ([0xFF, 0xD8, 0x12, 0x34, 0xFF, 0xE0, 0x00, 0x02], [0..<8]),  // no marker where one must be
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x02, 0xFF, 0xFF, 0xFF], [0..<2, 6..<9]),  // fill bytes to the end
    ] as [([UInt8], [Range<Int>])])
    func hostile(_ bytes: [UInt8], _ expected: [Range<Int>]) {
        #expect(Self.spans(bytes) == expected)
    }
}
