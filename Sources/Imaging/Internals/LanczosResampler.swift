import CPixels
#if canImport(Glibc)
import Glibc
#endif

/// Separable Lanczos-3 resampling of 32-bit BGRX pixels, in one pass over the source: each target
/// row is the weighted sum of a window of source rows (a decode in progress can hand them over one
/// by one, so a photo shrunk on load is never held whole), then filtered horizontally (the loops are
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

        /// The most source pixels one target pixel reads: the table's span before padding.
        static func span(source: Int, target: Int) -> Int {
            let support = LanczosResampler.lobes * max(Double(source) / Double(target), 1)
            return min(Int((support * 2).rounded(.up)) + 1, max(source, 1))
        }

        /// Taps mapping `source` pixels onto `target`, edge to edge with pixel centres aligned:
        /// the centre of target pixel i sits at (i + 0.5) · source / target − 0.5. Past the
        /// edges the border pixel is repeated, so borders neither fade nor ring.
        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            // Shrinking stretches the kernel over `scale` source pixels, so it also low-passes.
            let stretch = max(scale, 1)
            let support = LanczosResampler.lobes * stretch
            let span = Self.span(source: source, target: target)
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
                // The kernel's two sines step by a fixed angle from tap to tap: turned on by a
                // rotation rather than evaluated anew for every tap.
                var sines = Sines(at: Double.pi * (Double(low) - centre) / stretch, step: Double.pi / stretch)
                for j in low...high {
                    let weight = Self.lanczos((Double(j) - centre) / stretch, sines: sines)
                    raw[min(max(j, 0), source - 1)] += weight
                    total += weight
                    sines.advance()
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

        func withUnsafePointers<Result, Failure: Error>(
            _ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int16>) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            try first.withUnsafeBufferPointer { (first) throws(Failure) in
                try count.withUnsafeBufferPointer { (count) throws(Failure) in
                    try weights.withUnsafeBufferPointer { (weights) throws(Failure) in
                        try body(first.baseAddress!, count.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }

        /// Lanczos-3 at `x`, given sin(πx) and sin(πx / 3).
        static func lanczos(_ x: Double, sines: Sines) -> Double {
            if x == 0 { return 1 }
            let lobes = LanczosResampler.lobes
            guard abs(x) < lobes else { return 0 }
            let px = Double.pi * x
            return lobes * sines.whole * sines.third / (px * px)
        }

        /// sin(a) and sin(a / 3) for an angle a that grows by `step` at each `advance`.
        struct Sines {
            private(set) var whole: Double, third: Double
            private var wholeCos: Double, thirdCos: Double
            private let stepSin: Double, stepCos: Double, thirdStepSin: Double, thirdStepCos: Double

            init(at angle: Double, step: Double) {
                (whole, wholeCos, third, thirdCos) = (sin(angle), cos(angle), sin(angle / 3), cos(angle / 3))
                (stepSin, stepCos, thirdStepSin, thirdStepCos) = (sin(step), cos(step), sin(step / 3), cos(step / 3))
            }

            mutating func advance() {
                (whole, wholeCos) = (whole * stepCos + wholeCos * stepSin, wholeCos * stepCos - whole * stepSin)
                (third, thirdCos) = (third * thirdStepCos + thirdCos * thirdStepSin, thirdCos * thirdStepCos - third * thirdStepSin)
            }
        }
    }

    /// Where the resampler reads its source rows: a decoded bitmap, or a decode in progress whose
    /// rows come one at a time, in order, and are kept only while the filter's window needs them.
    enum Source {
        case bitmap(Bitmap)
        /// `next` writes the next row (`width` × 4 bytes, BGRX) into the buffer it is given; it is
        /// called exactly `height` times, so the decode it reads from can finish.
        case rows(width: Int, height: Int, next: (UnsafeMutablePointer<UInt8>) throws(ImageError) -> Void)

        var size: (width: Int, height: Int) {
            switch self {
            case .bitmap(let bitmap): return (bitmap.width, bitmap.height)
            case .rows(let width, let height, _): return (width, height)
            }
        }
    }

    /// `source` resampled to `width` × `height` and turned upright per `orientation` in the same
    /// pass (each output pixel written where it belongs); nil when the memory is not there.
    static func resample(_ source: Bitmap, width: Int, height: Int, orientation: Orientation = .up) -> Bitmap? {
        try? resample(.bitmap(source), width: width, height: height, orientation: orientation)
    }

    /// The bytes a decode resampled as it goes holds besides the result: the window of rows.
    static func windowBytes(sourceWidth: Int, sourceHeight: Int, height: Int) -> Int {
        Taps.span(source: sourceHeight, target: height) * sourceWidth * 4
    }

    /// `source` resampled to `width` × `height`, turned upright per `orientation` as it is written.
    /// Throws what reading the source throws, and `.outOfMemory` when the memory is not there.
    static func resample(_ source: Source, width: Int, height: Int, orientation: Orientation = .up) throws(ImageError) -> Bitmap {
        let upright = orientation.swapsDimensions ? (width: height, height: width) : (width: width, height: height)
        guard var target = Bitmap(width: upright.width, height: upright.height, zeroed: false) else {
            throw .outOfMemory(width: upright.width, height: upright.height)
        }
        let (sourceWidth, sourceHeight) = source.size
        let placement = Bitmap.Placement(orientation, width: width, height: height, targetStride: target.stride)
        let horizontal = Taps(source: sourceWidth, target: width)
        let vertical = Taps(source: sourceHeight, target: height)
        // Vertical first, straight from the source rows: every target row is a weighted sum of a
        // window of `vertical.width` of them, kept as one middle row of Q6 values (padded for the
        // horizontal loop's whole groups). Then the horizontal pass, two target rows at a time (they
        // share its taps).
        let channels = sourceWidth * 4, padded = channels + 4 * Int(SC_PIXELS_TAP_GROUP)
        let middle = UnsafeMutablePointer<Int16>.allocate(capacity: 2 * padded)
        middle.initialize(repeating: 0, count: 2 * padded)
        let window = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: vertical.width)
        defer {
            window.deallocate()
            middle.deallocate()
        }
        func filter(_ row: (Int) throws(ImageError) -> UnsafePointer<UInt8>) throws(ImageError) {
            try target.withUnsafeMutableBytes { (targetBytes) throws(ImageError) in
                try horizontal.withUnsafePointers { (firstTaps, countTaps, weightTaps) throws(ImageError) in
                    try vertical.withUnsafePointers { (_, _, rowWeights) throws(ImageError) in
                        let output = targetBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        for y in stride(from: 0, to: height, by: 2) {
                            let rows = min(2, height - y)
                            for r in 0..<rows {
                                let first = Int(vertical.first[y + r]), count = Int(vertical.count[y + r])
                                for k in 0..<count { window[k] = try row(first + k) }
                                sc_pixels_vertical(window, rowWeights + (y + r) * vertical.width, Int32(count),
                                                   middle + r * padded, channels)
                            }
                            let out = output + placement.start + y * placement.stepY
                            if rows == 2 {
                                sc_pixels_horizontal_rows(middle, middle + padded, out, placement.stepX, placement.stepY,
                                                          firstTaps, countTaps, weightTaps, Int32(horizontal.width), Int32(width))
                            } else {
                                sc_pixels_horizontal(middle, out, placement.stepX, firstTaps, countTaps, weightTaps,
                                                     Int32(horizontal.width), Int32(width))
                            }
                        }
                    }
                }
            }
        }
        switch source {
        case .bitmap(let bitmap):
            let stride = bitmap.stride
            try bitmap.withUnsafeBytes { (bytes) throws(ImageError) in
                let input = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                try filter { UnsafePointer(input + $0 * stride) }
            }
        case .rows(_, _, let next):
            var ring = try RowRing(rows: Taps.span(source: sourceHeight, target: height), rowBytes: channels)
            try filter { (index) throws(ImageError) in try ring.row(index, reading: next) }
            // Rows below the last window are read too, so the decode behind them can finish.
            if sourceHeight > 0 { _ = try ring.row(sourceHeight - 1, reading: next) }
        }
        return target
    }

    /// A stream's rows, `rows` of them at a time: row i lives in slot i mod `rows` until row
    /// i + `rows` is read. Enough for a filter whose windows of at most `rows` rows only move down.
    private struct RowRing: ~Copyable {
        private let base: UnsafeMutablePointer<UInt8>
        private let rows: Int
        private let rowBytes: Int
        /// Rows read so far.
        private var read = 0

        init(rows: Int, rowBytes: Int) throws(ImageError) {
            self.rows = max(1, rows)
            self.rowBytes = rowBytes
            guard let memory = malloc(self.rows * rowBytes) else { throw .outOfMemory(width: rowBytes / 4, height: rows) }
            base = memory.assumingMemoryBound(to: UInt8.self)
        }

        deinit { free(base) }

        mutating func row(_ index: Int, reading next: (UnsafeMutablePointer<UInt8>) throws(ImageError) -> Void) throws(ImageError) -> UnsafePointer<UInt8> {
            while read <= index {
                try next(base + (read % rows) * rowBytes)
                read += 1
            }
            return UnsafePointer(base + (index % rows) * rowBytes)
        }
    }
}
