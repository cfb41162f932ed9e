/// EXIF orientation: how the stored pixels must be turned to be upright.
public enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Width and height swap for the four orientations that turn the image by 90°.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The affine map from stored pixel coordinates to upright coordinates, for a stored image of
    /// `width` × `height`: x' = xx·x + xy·y + x0, y' = yx·x + yy·y + y0.
    package func transform(width w: Double, height h: Double)
        -> (xx: Double, yx: Double, xy: Double, yy: Double, x0: Double, y0: Double)
    {
        switch self {
        case .up: return (1, 0, 0, 1, 0, 0)
        case .mirrored: return (-1, 0, 0, 1, w, 0)
        case .down: return (-1, 0, 0, -1, w, h)
        case .downMirrored: return (1, 0, 0, -1, 0, h)
        case .leftMirrored: return (0, 1, 1, 0, 0, 0)
        case .right: return (0, 1, -1, 0, h, 0)
        case .rightMirrored: return (0, -1, -1, 0, h, w)
        case .left: return (0, -1, 1, 0, 0, w)
        }
    }

    /// The rectangle of the stored image (`storedWidth` × `storedHeight`) that shows as `rect` once
    /// turned upright.
    public func storedRect(_ rect: (x: Double, y: Double, width: Double, height: Double), storedWidth: Int, storedHeight: Int)
        -> (x: Double, y: Double, width: Double, height: Double) {
        let t = transform(width: Double(storedWidth), height: Double(storedHeight))
        // The turn is a signed permutation: its inverse is its transpose.
        let corners = [(rect.x, rect.y), (rect.x + rect.width, rect.y + rect.height)].map { x, y in
            (t.xx * (x - t.x0) + t.yx * (y - t.y0), t.xy * (x - t.x0) + t.yy * (y - t.y0))
        }
        let (a, b) = (corners[0], corners[1])
        return (min(a.0, b.0), min(a.1, b.1), abs(a.0 - b.0), abs(a.1 - b.1))
    }
}
