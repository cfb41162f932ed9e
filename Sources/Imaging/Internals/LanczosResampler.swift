#if canImport(Glibc)
import Glibc
#endif

/// Separable Lanczos-3 resampling of 32-bit BGRX pixels, in one pass over the source: each source
/// row is filtered horizontally once into a small ring of float rows, and each target row is
/// filtered vertically from that ring. Neither Cairo (pixman's GOOD filter is a softer box/tent
/// blend) nor libjpeg offers a Lanczos kernel; this is the filter libvips' `thumbnail` and
/// ImageMagick's `-resize` use, so fine detail survives the shrink without aliasing.
struct LanczosResampler {
    /// The filter's half-width in source pixels at scale 1: Lanczos with a = 3 lobes.
    static let lobes = 3.0

    /// For one axis: the source range and normalised weights of each target pixel.
    struct Taps {
        /// First source index of each target pixel; its taps run contiguously from there.
        let first: [Int32]
        let count: [Int32]
        /// `width` weights per target pixel, zero-padded past `count`.
        let weights: [Float]
        let width: Int

        /// Taps mapping `source` pixels onto `target`, edge to edge with pixel centres aligned:
        /// the centre of target pixel i sits at (i + 0.5) · source / target − 0.5. Past the
        /// edges the border pixel is repeated, so borders neither fade nor ring.
        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            // Shrinking stretches the kernel over `scale` source pixels, so it also low-passes.
            let stretch = max(scale, 1)
            let support = LanczosResampler.lobes * stretch
            let width = min(Int((support * 2).rounded(.up)) + 1, max(source, 1))
            var first = [Int32](repeating: 0, count: target)
            var count = [Int32](repeating: 0, count: target)
            var weights = [Float](repeating: 0, count: target * width)
            var raw = [Double](repeating: 0, count: source)
            for i in 0..<target {
                let centre = (Double(i) + 0.5) * scale - 0.5
                let low = Int((centre - support).rounded(.up)), high = Int((centre + support).rounded(.down))
                // Clamped indices fold onto the border pixels: the taps stay one contiguous range.
                let start = min(max(low, 0), source - 1), end = max(min(high, source - 1), 0)
                for j in start...end { raw[j] = 0 }
                var total = 0.0
                for j in low...high {
                    let weight = Self.lanczos((Double(j) - centre) / stretch)
                    raw[min(max(j, 0), source - 1)] += weight
                    total += weight
                }
                // A range can exceed the table width only for a source narrower than the kernel;
                // then `width` is the whole source and the range fits.
                let taps = min(end - start + 1, width)
                let from = min(start, source - taps)
                first[i] = Int32(from)
                count[i] = Int32(taps)
                for k in 0..<taps { weights[i * width + k] = Float(raw[from + k] / total) }
            }
            self.first = first
            self.count = count
            self.weights = weights
            self.width = width
        }

        static func lanczos(_ x: Double) -> Double {
            if x == 0 { return 1 }
            let lobes = LanczosResampler.lobes
            guard abs(x) < lobes else { return 0 }
            let px = Double.pi * x
            return lobes * sin(px) * sin(px / lobes) / (px * px)
        }
    }

    /// `source` resampled to `width` × `height`; nil when the memory is not there.
    static func resample(_ source: Bitmap, width: Int, height: Int) -> Bitmap? {
        guard var target = Bitmap(width: width, height: height, zeroed: false) else { return nil }
        let horizontal = Taps(source: source.width, target: width)
        let vertical = Taps(source: source.height, target: height)
        let sourceStride = source.stride, targetStride = target.stride
        // Vertical first, on rows widened to floats once each: every target row reads a window of
        // `vertical.width` source rows, kept in a ring. Then one horizontal pass per target row.
        let floatsPerRow = source.width * 4
        let ringRows = vertical.width
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * floatsPerRow)
        let column = UnsafeMutablePointer<Float>.allocate(capacity: floatsPerRow)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: width * 4)
        let window = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: ringRows)
        let windowWeights = UnsafeMutablePointer<Float>.allocate(capacity: ringRows)
        defer {
            window.deallocate()
            windowWeights.deallocate()
            ring.deallocate()
            column.deallocate()
            row.deallocate()
        }
        var widened = 0  // source rows widened so far; row r lives in ring slot r % ringRows
        source.withUnsafeBytes { sourceBytes in
            target.withUnsafeMutableBytes { targetBytes in
                let input = sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let output = targetBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<height {
                    let first = Int(vertical.first[y]), count = Int(vertical.count[y])
                    while widened < first + count {
                        widen(input + widened * sourceStride, into: ring + (widened % ringRows) * floatsPerRow, pixels: source.width)
                        widened += 1
                    }
                    for k in 0..<count {
                        window[k] = UnsafePointer(ring + ((first + k) % ringRows) * floatsPerRow)
                        windowWeights[k] = vertical.weights[y * vertical.width + k]
                    }
                    blend(window, weights: windowWeights, rows: count, into: column, count: floatsPerRow)
                    filterRow(column, into: row, taps: horizontal, pixels: width)
                    narrow(row, into: output + y * targetStride, count: width * 4)
                }
            }
        }
        return target
    }

    /// Bytes to floats, four channels a pixel.
    @inline(__always)
    private static func widen(_ row: UnsafePointer<UInt8>, into floats: UnsafeMutablePointer<Float>, pixels: Int) {
        let raw = UnsafeRawPointer(row), out = UnsafeMutableRawPointer(floats)
        for x in 0..<pixels {
            let bytes = raw.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self)
            out.storeBytes(of: SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes)), toByteOffset: x * 16, as: SIMD4<Float>.self)
        }
    }

    /// One row through the horizontal taps. Two sums take alternate taps, so the additions do
    /// not wait on one another.
    @inline(__always)
    private static func filterRow(_ row: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>,
                                  taps: Taps, pixels: Int) {
        let raw = UnsafeRawPointer(row), out = UnsafeMutableRawPointer(target)
        taps.first.withUnsafeBufferPointer { first in
            taps.count.withUnsafeBufferPointer { count in
                taps.weights.withUnsafeBufferPointer { weights in
                    for x in 0..<pixels {
                        var even = SIMD4<Float>(repeating: 0), odd = SIMD4<Float>(repeating: 0)
                        let start = raw + Int(first[x]) * 16, w = weights.baseAddress! + x * taps.width
                        let n = Int(count[x])
                        var k = 0
                        while k + 1 < n {
                            even += start.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self) * w[k]
                            odd += start.loadUnaligned(fromByteOffset: k * 16 + 16, as: SIMD4<Float>.self) * w[k + 1]
                            k += 2
                        }
                        if k < n { even += start.loadUnaligned(fromByteOffset: k * 16, as: SIMD4<Float>.self) * w[k] }
                        out.storeBytes(of: even + odd, toByteOffset: x * 16, as: SIMD4<Float>.self)
                    }
                }
            }
        }
    }

    /// The weighted sum of `rows` float rows, sixteen floats at a time held in registers across
    /// all the rows.
    @inline(__always)
    private static func blend(_ window: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>, rows: Int,
                              into sum: UnsafeMutablePointer<Float>, count: Int) {
        let out = UnsafeMutableRawPointer(sum)
        let bytes = count * 4
        var offset = 0
        while offset + 64 <= bytes {
            var total = SIMD16<Float>(repeating: 0)
            for k in 0..<rows {
                total += UnsafeRawPointer(window[k]).loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self) * weights[k]
            }
            out.storeBytes(of: total, toByteOffset: offset, as: SIMD16<Float>.self)
            offset += 64
        }
        while offset < bytes {
            var total = SIMD4<Float>(repeating: 0)
            for k in 0..<rows {
                total += UnsafeRawPointer(window[k]).loadUnaligned(fromByteOffset: offset, as: SIMD4<Float>.self) * weights[k]
            }
            out.storeBytes(of: total, toByteOffset: offset, as: SIMD4<Float>.self)
            offset += 16
        }
    }

    /// Floats to bytes, rounded and clamped (Lanczos overshoots a little at hard edges). Adding
    /// 1.5 · 2²³ to a float in 0...255 leaves its value rounded to an integer in the low mantissa
    /// bits: a vector rounding without the slow generic float-to-integer conversion.
    @inline(__always)
    private static func narrow(_ floats: UnsafePointer<Float>, into row: UnsafeMutablePointer<UInt8>, count: Int) {
        let raw = UnsafeRawPointer(floats), out = UnsafeMutableRawPointer(row)
        let low = SIMD4<Float>(repeating: 0), high = SIMD4<Float>(repeating: 255)
        let magic = SIMD4<Float>(repeating: 12_582_912)
        for x in 0..<(count / 4) {
            let value = raw.loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self).clamped(lowerBound: low, upperBound: high)
            let bits = unsafeBitCast(value + magic, to: SIMD4<UInt32>.self)
            out.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: bits), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }
}
