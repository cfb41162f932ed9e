import CPixels
import Testing

/// The vector loops must give the reference loops' bytes exactly: a photo looks the same on every CPU.
struct PixelLoopTests {
    struct Noise {
        var seed: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int(seed >> 33) % (range.count)
        }
    }

    @Test("the vertical loop equals its reference, for any row count and length (tails included)",
          arguments: [(1, 7), (2, 32), (5, 97), (13, 1000), (26, 4099)])
    func verticalExact(rows: Int, length: Int) {
        var noise = Noise(seed: UInt64(rows * 1000 + length))
        let data = (0..<rows).map { _ in (0..<length).map { _ in UInt8(noise.next(0...255)) } }
        // Lanczos-like weights: some negative, summing to about 1 << 14.
        let weights = (0..<rows).map { _ in Int16(noise.next(-3000...9000)) }
        var fast = [Int16](repeating: 0, count: length), reference = fast
        let pointers = data.map { $0.withUnsafeBufferPointer { UnsafePointer($0.baseAddress) } }
        // The rows live as long as `data`; the pointers are only used within this scope.
        withExtendedLifetime(data) {
            sc_pixels_vertical(pointers, weights, Int32(rows), &fast, length)
            sc_pixels_vertical_reference(pointers, weights, Int32(rows), &reference, length)
        }
        #expect(zip(fast, reference).filter { $0 != $1 }.isEmpty, "\(zip(fast, reference).filter { $0 != $1 }.count) values differ")
        #expect(Set(fast).count > min(length, 1000) / 4, "the sums should vary")
    }

    @Test("the horizontal loop equals its reference, taps of every count, overshoot clamped",
          arguments: [(1, 50), (3, 50), (9, 301), (26, 1030)])
    func horizontalExact(span: Int, pixels: Int) {
        var noise = Noise(seed: UInt64(span * 7 + pixels))
        let group = Int(SC_PIXELS_TAP_GROUP)
        let width = (span + group - 1) / group * group
        let sourcePixels = pixels * 2 + span
        var middle = (0..<sourcePixels * 4).map { _ in Int16(noise.next(-2000...18000)) }
        middle += [Int16](repeating: 0, count: 4 * group)
        var first: [Int32] = [], count: [Int32] = [], weights = [Int16](repeating: 0, count: pixels * width)
        for x in 0..<pixels {
            let taps = noise.next(1...span)
            first.append(Int32(noise.next(0...(sourcePixels - taps))))
            count.append(Int32(taps))
            for k in 0..<taps { weights[x * width + k] = Int16(noise.next(-3000...12000)) }
        }
        // Two pixels pushed past the ends, to reach the clamp.
        middle[Int(first[0]) * 4] = 18000
        weights[0] = 1 << 14
        middle[Int(first[1]) * 4] = -2000
        weights[width] = 1 << 14
        var fast = [UInt8](repeating: 0, count: pixels * 4), reference = fast
        sc_pixels_horizontal(middle, &fast, 4, first, count, weights, Int32(width), Int32(pixels))
        sc_pixels_horizontal_reference(middle, &reference, 4, first, count, weights, Int32(width), Int32(pixels))
        #expect(zip(fast, reference).filter { $0 != $1 }.isEmpty, "\(zip(fast, reference).filter { $0 != $1 }.count) values differ")
        #expect(fast.contains(0) && fast.contains(255), "the test should reach the clamp at both ends")
        #expect(Set(fast).count > 16, "the sums should vary")

        // Two rows through the same taps: each as its own reference, written a row apart (also upwards).
        let next = middle.reversed().map { $0 / 2 + 3000 }
        var second = [UInt8](repeating: 0, count: pixels * 4)
        sc_pixels_horizontal_reference(next, &second, 4, first, count, weights, Int32(width), Int32(pixels))
        for rowStep in [pixels * 4, -pixels * 4] {
            var rows = [UInt8](repeating: 0, count: pixels * 8)
            rows.withUnsafeMutableBufferPointer { buffer in
                let top = buffer.baseAddress! + (rowStep > 0 ? 0 : pixels * 4)
                sc_pixels_horizontal_rows(middle, next, top, 4, rowStep, first, count, weights, Int32(width), Int32(pixels))
            }
            let (upper, lower) = (Array(rows[..<(pixels * 4)]), Array(rows[(pixels * 4)...]))
            #expect((rowStep > 0 ? upper : lower) == reference, "the first row, row step \(rowStep)")
            #expect((rowStep > 0 ? lower : upper) == second, "the second row, row step \(rowStep)")
        }
        #expect(second != reference, "the two rows should differ")
    }
}
