import Imaging

/// Turns a lent frame into pixels: JPEG frames through libjpeg (made standalone first, shrunk
/// on load for previews), raw frames through `FrameConverter`. A zoom crops the centre.
struct FrameDecoder {
    let device: String

    /// The frame's pixels, the centre 1/`zoom` of it, fitted within `maxSize` when given.
    func bitmap(_ frame: Frame, zoom: Double, maxSize: Int? = nil) throws(CaptureError) -> Bitmap {
        if frame.layout.format.isJPEG {
            return try jpegBitmap(frame, zoom: zoom, maxSize: maxSize)
        }
        let converter = try converter(frame)
        let region = PixelRegion.centre(width: frame.layout.width, height: frame.layout.height, zoom: zoom)
        let longSide = max(region.width, region.height)
        let step = maxSize.map { max(1, (longSide + $0 - 1) / max(1, $0)) } ?? 1
        guard let bitmap = converter.bitmap(region: region, step: step) else { throw .outOfMemory(device) }
        return bitmap
    }

    /// Mean brightness 0–255, from a sparse grid of samples (a tiny decode for JPEG frames).
    func brightness(_ frame: Frame) throws(CaptureError) -> Double {
        if frame.layout.format.isJPEG {
            let small = try jpegBitmap(frame, zoom: 1, maxSize: 64)
            return small.asFrame { FrameConverter($0)?.meanLuma() } ?? 0
        }
        let converter = try converter(frame)
        return converter.meanLuma()
    }

    private func converter(_ frame: Frame) throws(CaptureError) -> FrameConverter {
        guard let converter = FrameConverter(frame) else {
            throw .badFrames(device, detail: "a \(frame.layout.format.commonName) frame is shorter than its size says")
        }
        return converter
    }

    /// The frame as a standalone JPEG file (Huffman tables restored).
    func jpeg(_ frame: Frame) throws(CaptureError) -> [UInt8] {
        do { return try JPEGRepair.standalone(frame.bytes) } catch {
            throw .badFrames(device, detail: error == .notJPEG ? "a frame is not JPEG data" : "a JPEG frame is cut short")
        }
    }

    private func jpegBitmap(_ frame: Frame, zoom: Double, maxSize: Int?) throws(CaptureError) -> Bitmap {
        let bytes = try jpeg(frame)
        let photo: Photo
        do {
            let decodeSize = maxSize.map { Int(Double($0) * max(1, zoom)) } ?? 0
            // A preview may show a frame with a glitch; a still must be whole.
            photo = try Photo(jpeg: bytes, options: LoadOptions(maxSize: decodeSize, salvage: maxSize != nil))
        } catch {
            throw .badFrames(device, detail: "a JPEG frame cannot be decoded: \(error)")
        }
        guard zoom > 1 else { return photo.bitmap }
        let region = PixelRegion.centre(width: photo.width, height: photo.height, zoom: zoom)
        guard let cropped = photo.bitmap.cropped(x: region.x, y: region.y, width: region.width, height: region.height) else {
            throw .outOfMemory(device)
        }
        return cropped
    }
}

extension Bitmap {
    /// The bitmap lent as a BGRX frame (to measure decoded JPEG frames like raw ones, and for the
    /// test pattern), valid inside `body` only.
    func asFrame<Result, Failure: Error>(timestamp: Double = 0, sequence: UInt32 = 0,
                                         _ body: (Frame) throws(Failure) -> Result) throws(Failure) -> Result {
        let layout = FrameLayout(format: .bgrx, width: width, height: height, bytesPerLine: stride,
                                 imageSize: byteCount, fullRange: true)
        return try withUnsafeBytes { (bytes) throws(Failure) in
            try body(Frame(bytes: bytes, layout: layout, timestamp: timestamp, sequence: sequence))
        }
    }
}
