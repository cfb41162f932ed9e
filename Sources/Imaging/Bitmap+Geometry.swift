#if canImport(Glibc)
import Glibc
#endif

extension Bitmap {
    /// The image turned clockwise by `degrees` (0, 90, 180 or 270; other values are taken modulo
    /// 360 and rounded down to a quarter turn).
    public func rotated(clockwise degrees: Int) throws(ImageError) -> Bitmap {
        switch ((degrees % 360) + 360) % 360 / 90 {
        case 1: return try uprightScaled(orientation: .right, width: height, height: width)
        case 2: return try uprightScaled(orientation: .down, width: width, height: height)
        case 3: return try uprightScaled(orientation: .left, width: height, height: width)
        default: return self
        }
    }

    /// The rectangle at (`x`, `y`), clipped to the image; nil when nothing is left or the memory is
    /// not there.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap? {
        let left = max(0, x), top = max(0, y)
        let right = min(self.width, x + width), bottom = min(self.height, y + height)
        guard right > left, bottom > top, var result = Bitmap(width: right - left, height: bottom - top, zeroed: false) else {
            return nil
        }
        let rowBytes = result.width * 4, resultStride = result.stride, rows = result.height
        withUnsafeBytes { source in
            result.withUnsafeMutableBytes { target in
                for row in 0..<rows {
                    memcpy(target.baseAddress! + row * resultStride,
                           source.baseAddress! + (top + row) * stride + left * 4, rowBytes)
                }
            }
        }
        return result
    }
}
