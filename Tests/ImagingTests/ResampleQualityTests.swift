import Foundation
import Testing
@testable import Imaging

/// Shrinking must keep detail the smaller picture can hold and drop, not fold back, what it cannot:
/// measured on a zone plate and against a plain double-precision Lanczos-3.
@Suite struct ResampleQualityTests {
    static let side = 768, amplitude = 100.0

    /// A zone plate: rings whose frequency grows with the distance r from the centre, r / side
    /// cycles a pixel, so the source's own Nyquist limit (0.5) is reached at the edge midpoints.
    static func zonePlate(side: Int = side) -> Bitmap {
        var bitmap = Bitmap(width: side, height: side)!
        let centre = Double(side) / 2
        bitmap.withUnsafeMutableBytes { bytes in
            for y in 0..<side {
                for x in 0..<side {
                    let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                    let value = UInt8(clamping: Int((128 + amplitude * cos(Double.pi * (dx * dx + dy * dy) / Double(side))).rounded()))
                    let offset = y * side * 4 + x * 4
                    bytes[offset] = value
                    bytes[offset + 1] = value
                    bytes[offset + 2] = value
                    bytes[offset + 3] = 255
                }
            }
        }
        return bitmap
    }

    /// Root-mean-square distance from flat grey where the rings were finer than the shrunk image's
    /// Nyquist limit (with a margin for the filter's transition band) but still real in the source:
    /// whatever shows there is aliasing.
    static func aliasing(_ shrunk: Bitmap, factor: Int, side: Int = side) -> Double {
        let cutoff = 0.5 / Double(factor)
        return deviation(shrunk, factor: factor, side: side, band: 1.4 * cutoff..<0.45)
    }

    /// How much of the rings' contrast survives where they are at most 0.6 of the shrunk image's
    /// Nyquist limit: a soft filter loses it there, a sharp one keeps nearly all.
    static func passband(_ shrunk: Bitmap, factor: Int, side: Int = side) -> Double {
        let cutoff = 0.5 / Double(factor)
        // A sine of amplitude A has an RMS of A/√2.
        return deviation(shrunk, factor: factor, side: side, band: 0.3 * cutoff..<0.6 * cutoff) / (amplitude / 2.squareRoot())
    }

    /// RMS distance from flat grey over the pixels whose source ring frequency (cycles per source
    /// pixel) is strictly inside `band`.
    static func deviation(_ shrunk: Bitmap, factor: Int, side: Int, band: Range<Double>) -> Double {
        var sum = 0.0, count = 0
        for y in 0..<shrunk.height {
            for x in 0..<shrunk.width {
                let dx = (Double(x) + 0.5) * Double(factor) - Double(side) / 2
                let dy = (Double(y) + 0.5) * Double(factor) - Double(side) / 2
                let frequency = (dx * dx + dy * dy).squareRoot() / Double(side)
                guard frequency > band.lowerBound, frequency < band.upperBound else { continue }
                let deviation = Double(shrunk.rgb(x: x, y: y).green) - 128
                sum += deviation * deviation
                count += 1
            }
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    /// Every `factor`-th pixel: the textbook aliasing resampler, to show the measure can fail.
    static func pointSampled(_ bitmap: Bitmap, factor: Int) -> Bitmap {
        var result = Bitmap(width: bitmap.width / factor, height: bitmap.height / factor)!
        for y in 0..<result.height {
            for x in 0..<result.width { result.setRGB(x: x, y: y, bitmap.rgb(x: x * factor + factor / 2, y: y * factor + factor / 2)) }
        }
        return result
    }

    /// The mean of each `factor` × `factor` block: the box filter, which keeps too much above the
    /// new Nyquist limit and folds it back.
    static func boxShrunk(_ bitmap: Bitmap, factor: Int) -> Bitmap {
        var result = Bitmap(width: bitmap.width / factor, height: bitmap.height / factor)!
        for y in 0..<result.height {
            for x in 0..<result.width {
                var sum = (0, 0, 0)
                for dy in 0..<factor {
                    for dx in 0..<factor {
                        let p = bitmap.rgb(x: x * factor + dx, y: y * factor + dy)
                        sum = (sum.0 + Int(p.red), sum.1 + Int(p.green), sum.2 + Int(p.blue))
                    }
                }
                let n = factor * factor
                result.setRGB(x: x, y: y, (UInt8((sum.0 + n / 2) / n), UInt8((sum.1 + n / 2) / n), UInt8((sum.2 + n / 2) / n)))
            }
        }
        return result
    }

    @Test("a zone plate shrunk 4x shows no aliasing and keeps its contrast below the new Nyquist limit")
    func zonePlateShrunk() throws {
        let plate = Self.zonePlate()
        let shrunk = try plate.resampled(width: Self.side / 4, height: Self.side / 4)
        let aliasing = Self.aliasing(shrunk, factor: 4)
        #expect(aliasing < 3, "aliasing energy \(aliasing) (RMS grey levels) above the bound of 3")
        let kept = Self.passband(shrunk, factor: 4)
        #expect(kept > 0.9, "only \(kept) of the contrast below the new Nyquist limit survived")
    }

    @Test("the measures can fail: point sampling and a box filter alias, and Cairo's preview filter is softer")
    func measuresCanFail() throws {
        let plate = Self.zonePlate()
        #expect(Self.aliasing(Self.pointSampled(plate, factor: 4), factor: 4) > 30)
        // A box-only shrink measures 11.6 here (numpy, same measure): far above the bound of 3.
        #expect(Self.aliasing(Self.boxShrunk(plate, factor: 4), factor: 4) > 10)
        let preview = try plate.scaled(width: Self.side / 4, height: Self.side / 4)
        let resampled = try plate.resampled(width: Self.side / 4, height: Self.side / 4)
        #expect(Self.passband(preview, factor: 4) < Self.passband(resampled, factor: 4))
    }

    @Test("a zone plate JPEG loaded to a quarter of its size shows no aliasing (DCT scale plus Lanczos)")
    func zonePlateDecoded() throws {
        let side = 2048
        let jpeg = try Photo(bitmap: Self.zonePlate(side: side)).jpeg(quality: 95, subsampling: .s444)
        let photo = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: side / 4))
        #expect(photo.width == side / 4)
        // JPEG Q95's own noise in the finest rings shows on this measure too: libvips' thumbnail
        // (Lanczos-3) scores 5.8 on the same file, a full-size decode plus Lanczos-3 5.8, while a
        // 1/4 DCT-only decode or a box shrink scores 11.6 (measured with pyvips and numpy).
        let aliasing = Self.aliasing(photo.bitmap, factor: 4, side: side)
        #expect(aliasing < 7, "aliasing energy \(aliasing) after decoding at \(photo.decodeEighths)/8")
        let full = try Photo(jpeg: jpeg, options: LoadOptions(maxSize: 0))
        let boxed = Self.aliasing(Self.boxShrunk(full.bitmap, factor: 4), factor: 4, side: side)
        #expect(boxed > 10, "a box shrink of the same decode should alias: \(boxed)")
        let kept = Self.passband(photo.bitmap, factor: 4, side: side)
        #expect(kept > 0.85, "only \(kept) of the contrast survived decoding at \(photo.decodeEighths)/8")
    }

    @Test("the fast resampler matches a plain double-precision Lanczos-3 within rounding",
          arguments: [(400, 300, 137, 101), (400, 300, 263, 199), (97, 61, 40, 61), (64, 48, 64, 20)])
    func matchesReference(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        var source = Bitmap(width: sourceWidth, height: sourceHeight)!
        var seed: UInt64 = 42
        for y in 0..<sourceHeight {
            for x in 0..<sourceWidth {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let noise = Int(seed >> 59)  // photo-like: smooth gradients, a hard edge, some noise
                let edge = x > sourceWidth / 3 ? 90 : 0
                source.setRGB(x: x, y: y, (UInt8(clamping: x * 255 / sourceWidth - edge / 2 + noise + 40),
                                           UInt8(clamping: y * 255 / sourceHeight + noise),
                                           UInt8(clamping: edge + (x ^ y) % 7 * 20)))
            }
        }
        let fast = try source.resampled(width: width, height: height)
        let reference = Self.referenceLanczos(source, width: width, height: height)
        var worst = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = fast.rgb(x: x, y: y), b = reference[y * width + x]
                worst = max(worst, abs(Int(a.red) - b.0), abs(Int(a.green) - b.1), abs(Int(a.blue) - b.2))
            }
        }
        #expect(worst <= 1, "\(sourceWidth)x\(sourceHeight) → \(width)x\(height): off by up to \(worst)")
    }

    /// Lanczos-3 straight from its definition: for each target pixel, every source pixel under the
    /// kernel in both directions at once, edges repeated, weights normalised.
    static func referenceLanczos(_ source: Bitmap, width: Int, height: Int) -> [(Int, Int, Int)] {
        func kernel(_ x: Double) -> Double {
            if x == 0 { return 1 }
            if abs(x) >= 3 { return 0 }
            return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
        }
        func taps(_ i: Int, source: Int, target: Int) -> [(Int, Double)] {
            let scale = Double(source) / Double(target), stretch = max(scale, 1)
            let centre = (Double(i) + 0.5) * scale - 0.5
            let low = Int((centre - 3 * stretch).rounded(.up)), high = Int((centre + 3 * stretch).rounded(.down))
            return (low...high).map { (min(max($0, 0), source - 1), kernel((Double($0) - centre) / stretch)) }
        }
        var result: [(Int, Int, Int)] = []
        for y in 0..<height {
            let rows = taps(y, source: source.height, target: height)
            for x in 0..<width {
                let columns = taps(x, source: source.width, target: width)
                var sum = (0.0, 0.0, 0.0), total = 0.0
                for (sy, wy) in rows {
                    for (sx, wx) in columns {
                        let pixel = source.rgb(x: sx, y: sy), w = wx * wy
                        sum.0 += w * Double(pixel.red)
                        sum.1 += w * Double(pixel.green)
                        sum.2 += w * Double(pixel.blue)
                        total += w
                    }
                }
                func channel(_ v: Double) -> Int { min(max(Int((v / total).rounded()), 0), 255) }
                result.append((channel(sum.0), channel(sum.1), channel(sum.2)))
            }
        }
        return result
    }
}
