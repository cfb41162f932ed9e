import CPixels
#if canImport(Glibc)
import Glibc
#endif

/// Separable Lanczos-3 resampling of 32-bit BGRX pixels, in one pass over the source: each target
/// row is the weighted sum of a window of source rows, then filtered horizontally (the loops are
/// C, CPixels: 14-bit fixed point, two taps per `pmaddwd`). Neither Cairo (pixman's GOOD filter is a softer box/tent
/// blend) nor libjpeg offers a Lanczos kernel; this is the filter libvips' `thumbnail` and
/// ImageMagick's `-resize` use, so fine detail survives the shrink without aliasing.
struct LanczosResampler {
    /// The filter's half-width in source pixels at scale 1: Lanczos with a = 3 lobes.
    static let lobes = 3.0

    /// For one axis: the source range and weights (Q14, see CPixels) of each target pixel.
    struct Taps {
        /// First source index of each target pixel; its taps run contiguously from there.
        let first: [Int32]
        let count: [Int32]
        /// `width` weights per target pixel, zero-padded past `count`; each pixel's sum is exactly
        /// 1 << 14, so a flat area stays flat.
        let weights: [Int16]
        /// At least the widest tap range, rounded up to whole groups of `SC_PIXELS_TAP_GROUP`.
        let width: Int

        /// Taps mapping `source` pixels onto `target`, edge to edge with pixel centres aligned:
        /// the centre of target pixel i sits at (i + 0.5) · source / target − 0.5. Past the
        /// edges the border pixel is repeated, so borders neither fade nor ring.
        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            // Shrinking stretches the kernel over `scale` source pixels, so it also low-passes.
            let stretch = max(scale, 1)
            let support = LanczosResampler.lobes * stretch
            let span = min(Int((support * 2).rounded(.up)) + 1, max(source, 1))
            let group = Int(SC_PIXELS_TAP_GROUP)
            let width = (span + group - 1) / group * group
            let one = 1 << Int(SC_PIXELS_WEIGHT_BITS)
            var first = [Int32](repeating: 0, count: target)
            var count = [Int32](repeating: 0, count: target)
            var weights = [Int16](repeating: 0, count: target * width)
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
                // A range can exceed the table's span only for a source narrower than the kernel;
                // then `span` is the whole source and the range fits.
                let taps = min(end - start + 1, span)
                let from = min(start, source - taps)
                first[i] = Int32(from)
                count[i] = Int32(taps)
                // Rounded to Q14; what rounding lost goes to the largest tap, so the sum is exact.
                var sum = 0, largest = 0
                for k in 0..<taps {
                    let weight = Int((raw[from + k] / total * Double(one)).rounded())
                    weights[i * width + k] = Int16(weight)
                    sum += weight
                    if weight > Int(weights[i * width + largest]) { largest = k }
                }
                weights[i * width + largest] += Int16(one - sum)
            }
            self.first = first
            self.count = count
            self.weights = weights
            self.width = width
        }

        func withUnsafePointers<Result>(
            _ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int16>) -> Result
        ) -> Result {
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { count in
                    weights.withUnsafeBufferPointer { weights in body(first.baseAddress!, count.baseAddress!, weights.baseAddress!) }
                }
            }
        }

        static func lanczos(_ x: Double) -> Double {
            if x == 0 { return 1 }
            let lobes = LanczosResampler.lobes
            guard abs(x) < lobes else { return 0 }
            let px = Double.pi * x
            return lobes * sin(px) * sin(px / lobes) / (px * px)
        }
    }

    /// `source` resampled to `width` × `height` and turned upright per `orientation` in the same
    /// pass (each output pixel written where it belongs); nil when the memory is not there.
    static func resample(_ source: Bitmap, width: Int, height: Int, orientation: Orientation = .up) -> Bitmap? {
        let upright = orientation.swapsDimensions ? (width: height, height: width) : (width: width, height: height)
        guard var target = Bitmap(width: upright.width, height: upright.height, zeroed: false) else { return nil }
        let placement = Bitmap.Placement(orientation, width: width, height: height, targetStride: target.stride)
        let horizontal = Taps(source: source.width, target: width)
        let vertical = Taps(source: source.height, target: height)
        let sourceStride = source.stride
        // Vertical first, straight from the source rows: every target row is a weighted sum of a
        // window of `vertical.width` of them, kept as one middle row of Q6 values (padded for the
        // horizontal loop's whole groups). Then one horizontal pass per target row.
        let channels = source.width * 4
        let middle = UnsafeMutablePointer<Int16>.allocate(capacity: channels + 4 * Int(SC_PIXELS_TAP_GROUP))
        middle.initialize(repeating: 0, count: channels + 4 * Int(SC_PIXELS_TAP_GROUP))
        let window = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: vertical.width)
        defer {
            window.deallocate()
            middle.deallocate()
        }
        source.withUnsafeBytes { sourceBytes in
            target.withUnsafeMutableBytes { targetBytes in
                horizontal.withUnsafePointers { firstTaps, countTaps, weightTaps in
                    vertical.withUnsafePointers { _, _, rowWeights in
                        let input = sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        let output = targetBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        for y in 0..<height {
                            let first = Int(vertical.first[y]), count = Int(vertical.count[y])
                            for k in 0..<count { window[k] = UnsafePointer(input + (first + k) * sourceStride) }
                            sc_pixels_vertical(window, rowWeights + y * vertical.width, Int32(count), middle, channels)
                            sc_pixels_horizontal(middle, output + placement.start + y * placement.stepY, placement.stepX,
                                                 firstTaps, countTaps, weightTaps, Int32(horizontal.width), Int32(width))
                        }
                    }
                }
            }
        }
        return target
    }
}
