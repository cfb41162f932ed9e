import Capture
import Platform
import Values

/// The camera options of `shoot`: device, size, format, settling, flash, zoom, focus, rotation.
enum CaptureOptions {
    static let device = Option.text("device", short: "d", value: "D",
                                    help: marked("option", "camera: /dev/videoN, N, or 'test' for the built-in test pattern (default: the first camera)"))
    static let resolution = Option<Resolution>("resolution", short: "r", value: "WxH",
                                               help: marked("option", "frame size, e.g. 1280x720 (default: the largest the camera offers)")) { text throws(UsageError) in
        guard let resolution = Resolution(parsing: text) else {
            throw .badValue(option: "--resolution", value: text, expected: "a size like 1280x720")
        }
        return resolution
    }
    static let format = Option<PixelFormat>("format", value: "FOURCC",
                                            help: marked("option", "pixel format, e.g. MJPG, YUYV, RGB24 (default: JPEG if offered, else raw)")) { text throws(UsageError) in
        guard let format = PixelFormat(name: text) else {
            throw .badValue(option: "--format", value: text, expected: "a pixel format like MJPG, YUYV or RGB24")
        }
        return format
    }
    static let skip = Option<Settle>("skip", value: "N|auto",
                                     help: marked("option", "frames to drop first, or 'auto': until the brightness settles (default auto)")) { text throws(UsageError) in
        if text == "auto" { return .auto }
        guard let count = Int(text), (0...1000).contains(count) else {
            throw .badValue(option: "--skip", value: text, expected: "a number of frames from 0 to 1000, or auto")
        }
        return .frames(count)
    }
    static let flash = Option<FlashMode>("flash", value: "MODE", help: marked("option", "off, on, auto (only when dark) or torch (default off)")) { text throws(UsageError) in
        guard let mode = FlashMode(rawValue: text.lowercased()) else {
            throw .badValue(option: "--flash", value: text, expected: "off, on, auto or torch")
        }
        return mode
    }
    static let zoom = Option.number("zoom", value: "X", in: 1...1000, example: "2 or 1.5",
                                    help: marked("option", "zoom factor, 1 = none: the camera's zoom, else a centre crop up to 4"))
    static let focus = Option<FocusRequest>("focus", value: "auto|X,Y",
                                            help: marked("option", "autofocus once, or focus on a point given as fractions (0.5,0.5 = centre)")) { text throws(UsageError) in
        if text.lowercased() == "auto" { return .auto }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { decimalNumber($0.filter { $0 != " " }) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else {
            throw .badValue(option: "--focus", value: text, expected: "auto, or X,Y as fractions from 0 to 1 like 0.5,0.5")
        }
        return .point(x: x, y: y)
    }
    static let rotate = Option<Rotation>("rotate", value: "DEG", help: marked("option", "turn the picture 0, 90, 180 or 270 degrees clockwise")) { text throws(UsageError) in
        guard let degrees = Int(text), let rotation = Rotation(rawValue: degrees) else {
            throw .badValue(option: "--rotate", value: text, expected: "0, 90, 180 or 270")
        }
        return rotation
    }

    static let all: [any OptionDeclaration] = [device, resolution, format, skip, flash, zoom, focus, rotate]

    /// The capture settings the options give.
    static func settings(_ options: ParsedOptions) throws(UsageError) -> CaptureSettings {
        var settings = CaptureSettings()
        settings.resolution = try options.value(resolution)
        settings.format = try options.value(format)
        settings.settle = try options.value(skip) ?? .auto
        settings.flash = try options.value(flash) ?? .off
        settings.zoom = try options.value(zoom) ?? 1
        settings.focus = try options.value(focus)
        settings.rotation = try options.value(rotate) ?? .none
        return settings
    }
}
