import Capture
import Foundation

/// The camera options of `shoot`: device, size, format, settling, flash, zoom, focus, rotation.
struct CaptureOptions {
    static let table: [OptionSpec] = [
        OptionSpec("device", short: "d", value: "D", help: "camera: /dev/videoN, N, or 'test' for the built-in test pattern (default: the first camera)"),
        OptionSpec("resolution", short: "r", value: "WxH", help: "frame size, e.g. 1280x720 (default: the largest the camera offers)"),
        OptionSpec("format", value: "FOURCC", help: "pixel format, e.g. MJPG, YUYV, RGB24 (default: JPEG if offered, else raw)"),
        OptionSpec("skip", value: "N|auto", help: "frames to drop first, or 'auto': until the brightness settles (default auto)"),
        OptionSpec("flash", value: "MODE", help: "off, on, auto (only when dark) or torch (default off)"),
        OptionSpec("zoom", value: "X", help: "zoom factor, 1 = none: the camera's zoom, else a centre crop up to 4"),
        OptionSpec("focus", value: "auto|X,Y", help: "autofocus once, or focus on a point given as fractions (0.5,0.5 = centre)"),
        OptionSpec("rotate", value: "DEG", help: "turn the picture 0, 90, 180 or 270 degrees clockwise"),
    ]

    var device: String?
    var settings = CaptureSettings()

    init(_ options: ParsedOptions) throws(UsageError) {
        device = options.value("device")
        if let text = options.value("resolution") {
            guard let resolution = Resolution(parsing: text) else {
                throw .badValue(option: "--resolution", value: text, expected: "a size like 1280x720")
            }
            settings.resolution = resolution
        }
        if let text = options.value("format") {
            guard let format = PixelFormat(name: text) else {
                throw .badValue(option: "--format", value: text, expected: "a pixel format like MJPG, YUYV or RGB24")
            }
            settings.format = format
        }
        if let text = options.value("skip"), text != "auto" {
            guard let count = Int(text), (0...1000).contains(count) else {
                throw .badValue(option: "--skip", value: text, expected: "a number of frames from 0 to 1000, or auto")
            }
            settings.settle = .frames(count)
        }
        if let text = options.value("flash") {
            guard let mode = FlashMode(rawValue: text.lowercased()) else {
                throw .badValue(option: "--flash", value: text, expected: "off, on, auto or torch")
            }
            settings.flash = mode
        }
        if let text = options.value("zoom") {
            guard let zoom = Double(text), zoom.isFinite, zoom > 0 else {
                throw .badValue(option: "--zoom", value: text, expected: "a zoom factor like 2 or 1.5")
            }
            settings.zoom = zoom
        }
        if let text = options.value("focus") {
            settings.focus = try Self.focus(text)
        }
        if let text = options.value("rotate") {
            guard let degrees = Int(text), let rotation = Rotation(rawValue: degrees) else {
                throw .badValue(option: "--rotate", value: text, expected: "0, 90, 180 or 270")
            }
            settings.rotation = rotation
        }
    }

    private static func focus(_ text: String) throws(UsageError) -> FocusRequest {
        if text.lowercased() == "auto" { return .auto }
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else {
            throw .badValue(option: "--focus", value: text, expected: "auto, or X,Y as fractions from 0 to 1 like 0.5,0.5")
        }
        return .point(x: x, y: y)
    }
}
