import Foundation
import Imaging

/// Paths and helpers the test targets share: the package root, temp folders, reading and writing files.
public enum TestFiles {
    /// The package root, found from this file's location.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A new empty folder under the system temp folder.
    public static func temporaryFolder(_ label: String = "test") throws -> String {
        let path = NSTemporaryDirectory() + "stampcam-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    public static func write(_ bytes: [UInt8], to path: String, creatingFolders: Bool = false) throws {
        let url = URL(fileURLWithPath: path)
        if creatingFolders {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        try Data(bytes).write(to: url)
    }

    /// The names in `folder`, sorted; the `.stampcam` marker of an output folder is left out (temp
    /// files and claims, also hidden, are not: a test must see those).
    public static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != ".stampcam" }.sorted()
    }
}

/// Pixel comparisons with a tolerance.
public enum PixelCompare {
    /// Mean absolute difference per channel (0…255) between two bitmaps of the same size;
    /// nil when the sizes differ.
    public static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double? {
        guard a.width == b.width, a.height == b.height else { return nil }
        return meanDifference(a, b, x: 0..<a.width, y: 0..<a.height)
    }

    /// Mean difference inside a rectangle.
    public static func meanDifference(_ a: Bitmap, _ b: Bitmap, x: Range<Int>, y: Range<Int>) -> Double {
        var total = 0
        for row in y {
            for column in x {
                let p = a.rgb(x: column, y: row), q = b.rgb(x: column, y: row)
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
            }
        }
        return Double(total) / Double(x.count * y.count * 3)
    }
}

/// Crafted bad JPEGs made from a good one.
public enum BadJPEG {
    /// Offset of the SOFn marker's precision byte.
    static func sofOffset(_ bytes: [UInt8]) -> Int? {
        var index = 2
        while index + 4 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                return index + 4
            }
            index += 2 + length
        }
        return nil
    }

    /// The same file claiming 12 bits per sample.
    public static func twelveBit(_ good: [UInt8]) -> [UInt8] {
        var bytes = good
        if let sof = sofOffset(bytes) { bytes[sof] = 12 }
        return bytes
    }

    /// The same file claiming `width` × `height` pixels in its header.
    public static func resized(_ good: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = good
        if let sof = sofOffset(bytes) {
            bytes[sof + 1] = UInt8(height >> 8); bytes[sof + 2] = UInt8(height & 0xFF)
            bytes[sof + 3] = UInt8(width >> 8); bytes[sof + 4] = UInt8(width & 0xFF)
        }
        return bytes
    }

    /// The first `fraction` of the file.
    public static func truncated(_ good: [UInt8], fraction: Double = 0.5) -> [UInt8] {
        Array(good.prefix(Int(Double(good.count) * fraction)))
    }

    /// The file with its EXIF block's IFD0 pointing out of bounds and its entries garbled.
    public static func corruptExif(_ good: [UInt8]) -> [UInt8] {
        var bytes = good
        guard let exif = firstRange(of: Array("Exif\0\0".utf8), in: bytes) else { return bytes }
        let tiff = exif + 6
        // Keep the byte-order mark and magic, garble everything after the IFD0 offset.
        for index in (tiff + 10)..<min(tiff + 400, bytes.count) where index % 3 == 0 { bytes[index] = 0xFF }
        return bytes
    }

    static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}
