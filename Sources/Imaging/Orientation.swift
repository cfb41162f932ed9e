/// EXIF orientation: how the stored pixels must be turned to be upright.
public enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Width and height swap for the four orientations that turn the image by 90°.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The affine map from stored pixel coordinates to upright coordinates, for a stored image of
    /// `width` × `height`: x' = xx·x + xy·y + x0, y' = yx·x + yy·y + y0.
    func transform(width w: Double, height h: Double)
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
}
