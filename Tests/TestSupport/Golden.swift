import Foundation
import Imaging

/// Golden-image comparison with a per-channel tolerance. `RECORD_GOLDENS=1` (re)writes the goldens;
/// a failure writes the actual image and an amplified difference under `.build/golden-failures/`.
public enum Golden {
    /// A pixel counts as different when one of its channels is off by more than this.
    public static let channelTolerance = 24
    /// The share of different pixels that still passes (anti-aliasing on another FreeType build).
    public static let allowedShare = 0.002

    public static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// Nil when `actual` matches the golden at `path`, else what is wrong.
    public static func mismatch(_ actual: Bitmap, golden path: String) -> String? {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        if recording {
            return actual.writePNG(to: path) ? nil : "cannot write \(path)"
        }
        guard let expected = Bitmap(pngFile: path) else {
            return "no golden at \(path); record it with RECORD_GOLDENS=1 swift test"
        }
        guard expected.width == actual.width, expected.height == actual.height else {
            writeFailure(actual, diff: nil, name: name)
            return "size \(actual.width)x\(actual.height) differs from the golden's \(expected.width)x\(expected.height)"
        }
        guard var diff = Bitmap(width: actual.width, height: actual.height) else { return "out of memory" }
        var different = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual.rgb(x: x, y: y), e = expected.rgb(x: x, y: y)
                let channels = [abs(Int(a.red) - Int(e.red)), abs(Int(a.green) - Int(e.green)), abs(Int(a.blue) - Int(e.blue))]
                if channels.max()! > channelTolerance { different += 1 }
                diff.setRGB(x: x, y: y, (UInt8(min(255, channels[0] * 4)), UInt8(min(255, channels[1] * 4)),
                                         UInt8(min(255, channels[2] * 4))))
            }
        }
        let share = Double(different) / Double(actual.width * actual.height)
        guard share > allowedShare else { return nil }
        writeFailure(actual, diff: diff, name: name)
        return "\(name): \(different) pixels (\(Int(share * 1000) / 10)%) differ by more than \(channelTolerance); "
            + "see .build/golden-failures/\(name)-actual.png and -diff.png, or re-record with RECORD_GOLDENS=1"
    }

    private static func writeFailure(_ actual: Bitmap, diff: Bitmap?, name: String) {
        let folder = TestFiles.packageRoot + "/.build/golden-failures"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        actual.writePNG(to: "\(folder)/\(name)-actual.png")
        diff?.writePNG(to: "\(folder)/\(name)-diff.png")
    }
}
