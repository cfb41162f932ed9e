extension Bitmap {
    /// This image turned upright per `orientation`: each pixel moved, none blended, so a quarter
    /// turn or a mirror is exact and costs one pass over memory.
    func reoriented(_ orientation: Orientation) throws(ImageError) -> Bitmap {
        if orientation == .up { return self }
        let (uprightWidth, uprightHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        guard var target = Bitmap(width: uprightWidth, height: uprightHeight, zeroed: false) else {
            throw .outOfMemory(width: uprightWidth, height: uprightHeight)
        }
        // Upright (u, v) = (a·x + b·y + c, d·x + e·y + f) for stored pixel (x, y), as in
        // `Orientation.transform` with pixel indices (the far edge is size − 1, not size).
        let t = orientation.transform(width: Double(width - 1), height: Double(height - 1))
        let (a, b, c) = (Int(t.xx), Int(t.xy), Int(t.x0))
        let (d, e, f) = (Int(t.yx), Int(t.yy), Int(t.y0))
        let targetStride = target.stride, sourceStride = stride, columns = width, rows = height
        // Stepping one pixel right or one row down in the source moves this many bytes in the target.
        let stepX = d * targetStride + a * 4, stepY = e * targetStride + b * 4
        withUnsafeBytes { source in
            target.withUnsafeMutableBytes { output in
                let base = output.baseAddress!
                var rowStart = f * targetStride + c * 4
                for y in 0..<rows {
                    let input = source.baseAddress! + y * sourceStride
                    var offset = rowStart
                    for x in 0..<columns {
                        base.storeBytes(of: input.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self),
                                        toByteOffset: offset, as: UInt32.self)
                        offset += stepX
                    }
                    rowStart += stepY
                }
            }
        }
        return target
    }
}
