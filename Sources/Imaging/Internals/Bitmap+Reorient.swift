extension Bitmap {
    /// This image turned upright per `orientation`: each pixel moved, none blended, so a quarter
    /// turn or a mirror is exact and costs one pass over memory.
    func reoriented(_ orientation: Orientation) throws(ImageError) -> Bitmap {
        if orientation == .up { return self }
        let (uprightWidth, uprightHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        guard var target = Bitmap(width: uprightWidth, height: uprightHeight, zeroed: false) else {
            throw .outOfMemory(width: uprightWidth, height: uprightHeight)
        }
        let placement = Placement(orientation, width: width, height: height, targetStride: target.stride)
        let sourceStride = stride, columns = width, rows = height
        withUnsafeBytes { source in
            target.withUnsafeMutableBytes { output in
                let base = output.baseAddress!
                var rowStart = placement.start
                for y in 0..<rows {
                    let input = source.baseAddress! + y * sourceStride
                    var offset = rowStart
                    for x in 0..<columns {
                        base.storeBytes(of: input.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self),
                                        toByteOffset: offset, as: UInt32.self)
                        offset += placement.stepX
                    }
                    rowStart += placement.stepY
                }
            }
        }
        return target
    }

    /// Where the stored pixels of a `width` × `height` image go in its upright copy: stored pixel
    /// (x, y) lands at byte `start + x · stepX + y · stepY`.
    struct Placement {
        let start: Int
        /// Bytes moved in the target by one pixel right, or one row down, in the source.
        let stepX: Int
        let stepY: Int

        init(_ orientation: Orientation, width: Int, height: Int, targetStride: Int) {
            // Upright (u, v) = (a·x + b·y + c, d·x + e·y + f) for stored pixel (x, y), as in
            // `Orientation.transform` with pixel indices (the far edge is size − 1, not size).
            let t = orientation.transform(width: Double(width - 1), height: Double(height - 1))
            let (a, b, c) = (Int(t.xx), Int(t.xy), Int(t.x0))
            let (d, e, f) = (Int(t.yx), Int(t.yy), Int(t.y0))
            start = f * targetStride + c * 4
            stepX = d * targetStride + a * 4
            stepY = e * targetStride + b * 4
        }
    }
}
