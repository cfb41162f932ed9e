import Imaging
@testable import Capture

/// Frame bytes for fake cameras.
enum Frames {
    /// A uniform YUYV frame (with `padding` bytes at the end of each row).
    static func yuyv(width: Int, height: Int, y: UInt8, cb: UInt8 = 128, cr: UInt8 = 128, padding: Int = 0) -> [UInt8] {
        let row = (0..<width / 2).flatMap { _ in [y, cb, y, cr] } + [UInt8](repeating: 0xEE, count: padding)
        return Array((0..<height).map { _ in row }.joined())
    }

    /// A JPEG of `width` × `height` in one colour, encoded by Imaging (with its Huffman tables).
    static func jpeg(width: Int, height: Int, color: (red: UInt8, green: UInt8, blue: UInt8)) throws -> [UInt8] {
        var bitmap = Bitmap(width: width, height: height)!
        for y in 0..<height { for x in 0..<width { bitmap.setRGB(x: x, y: y, color) } }
        return try Photo(bitmap: bitmap).jpeg(quality: 90)
    }

    /// The JPEG without its DHT segments, like an MJPEG frame from a UVC camera.
    static func withoutHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 4 <= jpeg.count {
            let marker = jpeg[offset + 1]
            if marker == 0xDA { return result + jpeg[offset...] }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if marker != 0xC4 { result += jpeg[offset..<offset + 2 + length] }
            offset += 2 + length
        }
        return result
    }

    /// Offsets of a marker's segments before the first SOS.
    static func markers(_ marker: UInt8, in jpeg: [UInt8]) -> [Int] {
        var found: [Int] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if jpeg[offset + 1] == marker { found.append(offset) }
            if jpeg[offset + 1] == 0xDA { break }
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return found
    }
}
