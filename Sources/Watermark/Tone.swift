import Imaging
import Templates

extension Bitmap {
    /// Turns the photo grey or sepia in place, in one pass over the pixels.
    mutating func apply(_ tone: Template.Tone) {
        guard tone != .none else { return }
        let (width, height, stride) = (self.width, self.height, self.stride)
        withUnsafeMutableBytes { memory in
            for row in 0..<height {
                let pixels = (memory.baseAddress! + row * stride).assumingMemoryBound(to: UInt8.self)
                for column in 0..<width {
                    let p = pixels + column * 4
                    let blue = Int(p[0]), green = Int(p[1]), red = Int(p[2])
                    // Rec. 601 luma in fixed point.
                    let luma = (red * 77 + green * 150 + blue * 29) >> 8
                    if tone == .mono {
                        p[0] = UInt8(luma); p[1] = UInt8(luma); p[2] = UInt8(luma)
                    } else {
                        p[2] = UInt8(min(255, (luma * 275) >> 8))
                        p[1] = UInt8(min(255, (luma * 232) >> 8))
                        p[0] = UInt8(min(255, (luma * 180) >> 8))
                    }
                }
            }
        }
    }
}
