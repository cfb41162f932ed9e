import Foundation
import Imaging
import Templates
import TestSupport
@testable import Watermark

/// Measures what a reader sees, independently of how the renderer decides on backings: the stamp
/// is drawn three times — whole, without its text, and as the text's shapes alone — and each text
/// pixel (where the shapes are solid) is compared with the pixel under it (the stamp without text).
enum LegibilityProbe {
    struct Line: CustomStringConvertible {
        var rect: (x: Double, y: Double, width: Double, height: Double)
        /// Text pixels measured.
        var pixels: Int
        /// The share of them at 4.5:1 or more.
        var legible: Double
        /// The median contrast.
        var median: Double

        var description: String {
            "line at (\(Int(rect.x)), \(Int(rect.y))) \(Int(rect.width))x\(Int(rect.height)): \(pixels) px, "
                + "\(Int(legible * 100))% at 4.5:1, median \(String(format: "%.2f", median)):1"
        }
    }

    static func luminance(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Double {
        func linear(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(pixel.red) + 0.7152 * linear(pixel.green) + 0.0722 * linear(pixel.blue)
    }

    static func lines(_ photo: Photo, template: Template, fields: Fields, watermarker: Watermarker) throws -> [Line] {
        var whole = photo, bare = photo
        let report = try watermarker.stamp(&whole, template: template, fields: fields, mode: .normal)
        try watermarker.stamp(&bare, template: template, fields: fields, mode: .withoutText)
        guard let black = Bitmap(width: photo.width, height: photo.height) else { return [] }
        var shapes = Photo(bitmap: black)
        try watermarker.stamp(&shapes, template: template, fields: fields, mode: .textMask)
        return report.textRects.map { rect in
            var contrasts: [Double] = []
            let x0 = max(0, Int(rect.x)), y0 = max(0, Int(rect.y))
            let x1 = min(photo.width, Int((rect.x + rect.width).rounded(.up)))
            let y1 = min(photo.height, Int((rect.y + rect.height).rounded(.up)))
            for y in y0..<max(y0, y1) {
                for x in x0..<max(x0, x1) where shapes.bitmap.rgb(x: x, y: y).red >= 250 {
                    let text = luminance(whole.bitmap.rgb(x: x, y: y)), under = luminance(bare.bitmap.rgb(x: x, y: y))
                    contrasts.append((max(text, under) + 0.05) / (min(text, under) + 0.05))
                }
            }
            contrasts.sort()
            let legible = contrasts.isEmpty ? 0 : Double(contrasts.filter { $0 >= 4.5 }.count) / Double(contrasts.count)
            return Line(rect: rect, pixels: contrasts.count, legible: legible,
                        median: contrasts.isEmpty ? 0 : contrasts[contrasts.count / 2])
        }
    }

    /// Photos that are hard to read text on, made here: snow (near white with grain), night (near
    /// black), and stripes (black and white, the worst of both).
    static func hardPhotos(width: Int = 640, height: Int = 427) -> [(name: String, photo: Photo)] {
        func make(_ pixel: (Int, Int) -> UInt8) -> Photo {
            var bitmap = Bitmap(width: width, height: height)!
            for y in 0..<height { for x in 0..<width { let v = pixel(x, y); bitmap.setRGB(x: x, y: y, (v, v, v)) } }
            return Photo(bitmap: bitmap)
        }
        return [
            ("snow", make { x, y in UInt8(236 + (x &* 7 &+ y &* 13) % 20) }),
            ("night", make { x, y in UInt8((x &* 5 &+ y &* 3) % 18) }),
            ("stripes", make { x, y in (x / 3 + y / 5) % 2 == 0 ? 250 : 10 }),
        ]
    }
}
