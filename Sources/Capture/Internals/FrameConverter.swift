import Imaging

/// Turns raw frames (YUYV, UYVY, NV12, YUV420, RGB24, BGR24, BGRX, GREY) into `Bitmap` pixels in
/// Swift, reading the driver's stride. Doing it here rather than in libv4l2 means one pass straight
/// into the BGRX layout the stamp is drawn on, any region and subsampling (for previews and crops),
/// and the formats libv4l2 cannot produce.
struct FrameConverter {
    private let layout: FrameLayout
    /// `layout.format`, resolved once: matching `PixelFormat`'s static members costs a lazy-global
    /// check each time, which was a fifth of a frame's conversion when done for every pixel.
    private let packing: Packing
    private let bytes: UnsafeRawBufferPointer
    private let stride: Int
    private let matrix: YCbCrMatrix

    /// Nil when the frame is shorter than its layout says (a truncated buffer).
    init?(_ frame: Frame) {
        guard let bytesPerPixel = Self.packedBytesPerPixel(frame.layout.format),
              let packing = Packing(frame.layout.format) else { return nil }
        self.packing = packing
        layout = frame.layout
        bytes = frame.bytes
        let minimumStride = layout.width * bytesPerPixel
        stride = layout.bytesPerLine >= minimumStride ? layout.bytesPerLine : minimumStride
        matrix = YCbCrMatrix(bt709: layout.bt709, fullRange: layout.fullRange)
        guard layout.width > 0, layout.height > 0, bytes.count >= requiredBytes else { return nil }
    }

    /// Bytes per pixel of the first plane.
    static func packedBytesPerPixel(_ format: PixelFormat) -> Int? {
        switch format {
        case .yuyv, .uyvy: return 2
        case .nv12, .yuv420, .grey: return 1
        case .rgb24, .bgr24: return 3
        case .bgrx: return 4
        default: return nil
        }
    }

    private enum Packing {
        case yuyv, uyvy, nv12, yuv420, rgb24, bgr24, bgrx, grey

        init?(_ format: PixelFormat) {
            let all: [(PixelFormat, Packing)] = [(.yuyv, .yuyv), (.uyvy, .uyvy), (.nv12, .nv12), (.yuv420, .yuv420),
                                                  (.rgb24, .rgb24), (.bgr24, .bgr24), (.bgrx, .bgrx), (.grey, .grey)]
            guard let found = all.first(where: { $0.0 == format }) else { return nil }
            self = found.1
        }
    }

    private var requiredBytes: Int {
        let plane = stride * layout.height
        switch packing {
        case .nv12: return plane + stride * ((layout.height + 1) / 2)
        case .yuv420: return plane + 2 * (stride / 2) * ((layout.height + 1) / 2)
        default: return plane
        }
    }

    /// The pixels in `region`, every `step`-th one in each direction.
    func bitmap(region: PixelRegion, step: Int) -> Bitmap? {
        let step = max(1, step)
        let width = max(1, region.width / step), height = max(1, region.height / step)
        guard var bitmap = Bitmap(width: width, height: height) else { return nil }
        let stride = bitmap.stride
        bitmap.withUnsafeMutableBytes { memory in
            for row in 0..<height {
                let out = (memory.baseAddress! + row * stride).assumingMemoryBound(to: UInt32.self)
                let y = region.y + row * step
                var column = 0
                // Packed 4:2:2 at full resolution (a still from a webcam): two pixels share one
                // chroma pair, so its part of the sum is worked out once for both.
                if step == 1, region.x % 2 == 0, packing == .yuyv || packing == .uyvy {
                    let (first, second, cb, cr) = packing == .yuyv ? (0, 2, 1, 3) : (1, 3, 0, 2)
                    var pair = y * self.stride + region.x * 2
                    while column + 1 < width {
                        let chroma = matrix.chroma(cb: byte(pair + cb), cr: byte(pair + cr))
                        out[column] = Self.bgrx(matrix.rgb(y: byte(pair + first), chroma: chroma))
                        out[column + 1] = Self.bgrx(matrix.rgb(y: byte(pair + second), chroma: chroma))
                        pair += 4
                        column += 2
                    }
                }
                while column < width {
                    out[column] = Self.bgrx(rgb(x: region.x + column * step, y: y))
                    column += 1
                }
            }
        }
        return bitmap
    }

    /// A pixel as `Bitmap` stores it: B, G, R, 255 in memory (little-endian).
    @inline(__always)
    private static func bgrx(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> UInt32 {
        UInt32(pixel.blue) | UInt32(pixel.green) << 8 | UInt32(pixel.red) << 16 | 0xFF00_0000
    }

    /// Mean brightness (0–255) over a grid of about 64×36 samples.
    func meanLuma() -> Double {
        let stepX = max(1, layout.width / 64), stepY = max(1, layout.height / 36)
        var total = 0, count = 0
        for y in Swift.stride(from: stepY / 2, to: layout.height, by: stepY) {
            for x in Swift.stride(from: stepX / 2, to: layout.width, by: stepX) {
                let pixel = rgb(x: x, y: y)
                total += (Int(pixel.red) * 77 + Int(pixel.green) * 150 + Int(pixel.blue) * 29) >> 8
                count += 1
            }
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }

    @inline(__always)
    private func byte(_ offset: Int) -> Int { Int(bytes[offset]) }

    @inline(__always)
    private func rgb(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let row = y * stride
        switch packing {
        case .yuyv:
            let pair = row + (x & ~1) * 2
            return matrix.rgb(y: byte(pair + (x & 1) * 2), cb: byte(pair + 1), cr: byte(pair + 3))
        case .uyvy:
            let pair = row + (x & ~1) * 2
            return matrix.rgb(y: byte(pair + 1 + (x & 1) * 2), cb: byte(pair), cr: byte(pair + 2))
        case .nv12:
            let chroma = stride * layout.height + (y / 2) * stride + (x & ~1)
            return matrix.rgb(y: byte(row + x), cb: byte(chroma), cr: byte(chroma + 1))
        case .yuv420:
            let chromaStride = stride / 2
            let planeSize = chromaStride * ((layout.height + 1) / 2)
            let offset = stride * layout.height + (y / 2) * chromaStride + x / 2
            return matrix.rgb(y: byte(row + x), cb: byte(offset), cr: byte(offset + planeSize))
        case .rgb24:
            return (bytes[row + x * 3], bytes[row + x * 3 + 1], bytes[row + x * 3 + 2])
        case .bgr24:
            return (bytes[row + x * 3 + 2], bytes[row + x * 3 + 1], bytes[row + x * 3])
        case .bgrx:
            return (bytes[row + x * 4 + 2], bytes[row + x * 4 + 1], bytes[row + x * 4])
        case .grey:
            let value = bytes[row + x]
            return (value, value, value)
        }
    }
}

/// A rectangle of pixels in a frame.
struct PixelRegion: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    static func whole(_ layout: FrameLayout) -> PixelRegion {
        PixelRegion(x: 0, y: 0, width: layout.width, height: layout.height)
    }

    /// The centred part of `width` × `height` that a digital zoom of `factor` shows (even offsets,
    /// so 4:2:x chroma pairs stay aligned).
    static func centre(width: Int, height: Int, zoom factor: Double) -> PixelRegion {
        guard factor > 1 else { return PixelRegion(x: 0, y: 0, width: width, height: height) }
        let croppedWidth = max(2, Int((Double(width) / factor).rounded()))
        let croppedHeight = max(2, Int((Double(height) / factor).rounded()))
        return PixelRegion(x: (width - croppedWidth) / 2 & ~1, y: (height - croppedHeight) / 2 & ~1,
                           width: croppedWidth, height: croppedHeight)
    }
}

/// Y'CbCr to R'G'B' in 16.16 fixed point.
struct YCbCrMatrix {
    private let yScale, yOffset, crToRed, cbToGreen, crToGreen, cbToBlue: Int

    init(bt709: Bool, fullRange: Bool) {
        // Coefficients from the BT.601 / BT.709 definitions, scaled for 16-235 luma and 16-240
        // chroma unless the driver says it sends full-range values.
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        let chromaScale = fullRange ? 1.0 : 255.0 / 224.0
        func fixed(_ value: Double) -> Int { Int((value * 65536).rounded()) }
        yScale = fixed(fullRange ? 1 : 255.0 / 219.0)
        yOffset = fullRange ? 0 : 16
        crToRed = fixed(2 * (1 - kr) * chromaScale)
        cbToBlue = fixed(2 * (1 - kb) * chromaScale)
        cbToGreen = fixed(2 * (1 - kb) * kb / kg * chromaScale)
        crToGreen = fixed(2 * (1 - kr) * kr / kg * chromaScale)
    }

    @inline(__always)
    func rgb(y: Int, cb: Int, cr: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        rgb(y: y, chroma: chroma(cb: cb, cr: cr))
    }

    /// What a chroma pair adds to red, green and blue (for the pixels that share it).
    @inline(__always)
    func chroma(cb: Int, cr: Int) -> (red: Int, green: Int, blue: Int) {
        let u = cb - 128, v = cr - 128
        return (crToRed * v, -cbToGreen * u - crToGreen * v, cbToBlue * u)
    }

    @inline(__always)
    func rgb(y: Int, chroma: (red: Int, green: Int, blue: Int)) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let luma = (y - yOffset) * yScale + 32768
        return (Self.clamp(luma + chroma.red), Self.clamp(luma + chroma.green), Self.clamp(luma + chroma.blue))
    }

    @inline(__always)
    private static func clamp(_ fixed: Int) -> UInt8 { UInt8(clamping: fixed >> 16) }
}
