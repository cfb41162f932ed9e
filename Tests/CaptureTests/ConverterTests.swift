import Imaging
import Testing
@testable import Capture

@Suite struct ConverterTests {
    /// Converts a 4x2 frame in `format` and returns its (0, 0) pixel.
    static func pixel(_ format: PixelFormat, _ bytes: [UInt8], bytesPerLine: Int, fullRange: Bool = false)
        -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let layout = FrameLayout(format: format, width: 4, height: 2, bytesPerLine: bytesPerLine, imageSize: bytes.count,
                                 fullRange: fullRange)
        return bytes.withUnsafeBytes { raw in
            FrameConverter(Frame(bytes: raw, layout: layout, timestamp: 0, sequence: 1))?
                .bitmap(region: .whole(layout), step: 1)?.rgb(x: 0, y: 0)
        }
    }

    static func close(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)?, _ expected: (Int, Int, Int)) -> Bool {
        guard let pixel else { return false }
        return abs(Int(pixel.red) - expected.0) <= 3 && abs(Int(pixel.green) - expected.1) <= 3
            && abs(Int(pixel.blue) - expected.2) <= 3
    }

    // BT.601 limited range: red is Y 81, Cb 90, Cr 240.
    @Test func yuyv() {
        let row: [UInt8] = [81, 90, 81, 240, 81, 90, 81, 240]
        #expect(Self.close(Self.pixel(.yuyv, row + row, bytesPerLine: 8), (255, 0, 0)))
    }

    @Test func uyvy() {
        let row: [UInt8] = [90, 81, 240, 81, 90, 81, 240, 81]
        #expect(Self.close(Self.pixel(.uyvy, row + row, bytesPerLine: 8), (255, 0, 0)))
    }

    @Test func nv12() {
        let luma = [UInt8](repeating: 81, count: 8)
        #expect(Self.close(Self.pixel(.nv12, luma + [90, 240, 90, 240], bytesPerLine: 4), (255, 0, 0)))
    }

    @Test func yuv420() {
        let luma = [UInt8](repeating: 81, count: 8)
        #expect(Self.close(Self.pixel(.yuv420, luma + [90, 90] + [240, 240], bytesPerLine: 4), (255, 0, 0)))
    }

    @Test func rgbAndBGRAndGrey() {
        let rgb = [UInt8]([10, 20, 30] + [UInt8](repeating: 0, count: 21))
        #expect(Self.close(Self.pixel(.rgb24, rgb, bytesPerLine: 12), (10, 20, 30)))
        #expect(Self.close(Self.pixel(.bgr24, rgb, bytesPerLine: 12), (30, 20, 10)))
        #expect(Self.close(Self.pixel(.grey, [77] + [UInt8](repeating: 0, count: 7), bytesPerLine: 4), (77, 77, 77)))
    }

    @Test func fullRangeWhenTheDriverSaysSo() {
        let row: [UInt8] = [255, 128, 255, 128, 255, 128, 255, 128]
        #expect(Self.close(Self.pixel(.yuyv, row + row, bytesPerLine: 8, fullRange: true), (255, 255, 255)))
        // 16 is black in limited range, dark grey in full range.
        let dark: [UInt8] = [16, 128, 16, 128, 16, 128, 16, 128]
        #expect(Self.close(Self.pixel(.yuyv, dark + dark, bytesPerLine: 8), (0, 0, 0)))
        #expect(Self.close(Self.pixel(.yuyv, dark + dark, bytesPerLine: 8, fullRange: true), (16, 16, 16)))
    }

    @Test("packed 4:2:2 at full size (two pixels a chroma pair) gives what the pixel-by-pixel path gives",
          arguments: [PixelFormat.yuyv, .uyvy])
    func pairsMatchSinglePixels(format: PixelFormat) throws {
        var seed: UInt32 = 7
        let bytes = (0..<(20 * 3)).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let layout = FrameLayout(format: format, width: 10, height: 3, bytesPerLine: 20, imageSize: bytes.count, fullRange: false)
        try bytes.withUnsafeBytes { raw in
            let converter = try #require(FrameConverter(Frame(bytes: raw, layout: layout, timestamp: 0, sequence: 1)))
            let whole = try #require(converter.bitmap(region: .whole(layout), step: 1))
            // From an odd column the pairs do not line up: every pixel goes the single way.
            let shifted = try #require(converter.bitmap(region: PixelRegion(x: 1, y: 0, width: 9, height: 3), step: 1))
            var differing = 0
            for y in 0..<3 {
                for x in 0..<9 where whole.rgb(x: x + 1, y: y) != shifted.rgb(x: x, y: y) { differing += 1 }
            }
            #expect(differing == 0)
            #expect(whole.rgb(x: 0, y: 0) != whole.rgb(x: 1, y: 0), "neighbours differ, so a swap would show")
        }
    }

    @Test func aShortFrameIsRefused() {
        #expect(Self.pixel(.yuyv, [1, 2, 3], bytesPerLine: 8) == nil)
    }

    @Test func zoomCropsTheCentreOnEvenOffsets() {
        #expect(PixelRegion.centre(width: 640, height: 360, zoom: 2) == PixelRegion(x: 160, y: 90, width: 320, height: 180))
        #expect(PixelRegion.centre(width: 640, height: 360, zoom: 1) == PixelRegion(x: 0, y: 0, width: 640, height: 360))
        #expect(PixelRegion.centre(width: 100, height: 50, zoom: 3).x % 2 == 0)
    }
}
