import Imaging
import Values

/// What is known about a capture: when, with what, and with which settings. Goes into the
/// photo's EXIF (`exifRecord`) so a stamp and any viewer can read it back.
public struct CaptureMetadata: Sendable, Equatable {
    /// The device path (`/dev/video0`, `test`).
    public var device: String
    /// The camera's name as the driver reports it.
    public var camera: String
    /// The pixel format frames arrived in.
    public var format: PixelFormat
    /// The frame size the driver delivered.
    public var frameSize: Resolution
    /// The photo's size after zoom crop and rotation.
    public var resolution: Resolution
    /// Seconds since 1970 (UTC) when the frame was taken, and the local zone's offset then.
    public var secondsSinceEpoch: Int
    public var utcOffsetMinutes: Int
    /// Frames let through before the photo, and how that number was chosen.
    public var settledFrames: Int
    public var settle: Settle
    public var flash: FlashMode
    public var flashFired: Bool
    /// The zoom used and whether the camera's own zoom did it (otherwise a centre crop).
    public var zoom: Double
    public var zoomByCamera: Bool
    /// What was done for focus ("autofocus", "focus region 0.50,0.50"), nil when nothing.
    public var focus: String?
    public var rotation: Rotation

    /// The capture's time on the local clock, with its zone.
    public var time: Timestamp {
        Timestamp(secondsSinceEpoch: secondsSinceEpoch, utcOffsetMinutes: utcOffsetMinutes)
    }

    /// One line of the settings, e.g. "stampcam: /dev/video0 YUYV 1280x720, settle auto (6 frames), flash off, zoom 1".
    public var summary: String {
        var parts = ["\(device) \(format.commonName) \(frameSize)"]
        if resolution != frameSize { parts.append("photo \(resolution)") }
        switch settle {
        case .auto: parts.append("settle auto (\(settledFrames) frames)")
        case .frames(let count): parts.append("skip \(count)")
        }
        parts.append("flash \(flash.rawValue)\(flashFired ? " (fired)" : "")")
        parts.append("zoom \(Self.number(zoom))\(zoom > 1 ? (zoomByCamera ? " (camera)" : " (crop)") : "")")
        if let focus { parts.append(focus) }
        if rotation != .none { parts.append("rotate \(rotation.rawValue)") }
        return "stampcam: " + parts.joined(separator: ", ")
    }

    /// The EXIF tags for this capture.
    public var exifRecord: ExifRecord {
        var record = ExifRecord()
        record.model = camera
        record.software = "stampcam"
        record.dateTime = time.exifText
        record.offsetTime = time.exifOffset
        record.pixelWidth = resolution.width
        record.pixelHeight = resolution.height
        record.userComment = summary
        if zoom > 1 && !zoomByCamera { record.digitalZoomRatio = zoom }
        let mode: Int = switch flash {
        case .off: 2
        case .on, .torch: 1
        case .auto: 3
        }
        record.flash = (flashFired ? 1 : 0) | mode << 3
        return record
    }

    /// `2`, `4.0000001`: a value as given, every digit it needs (`number` would round that to 4,
    /// the very limit it is said to be beyond).
    static func exactNumber(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15, value == value.rounded() else { return String(value) }
        return String(Int(value))
    }

    /// `2`, `1.5`, `0.33`: at most two decimals (and no trap on a value too large for an Int).
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        return value == value.rounded() ? String(Int(value)) : String((value * 100).rounded() / 100)
    }
}
