import Imaging

#if canImport(Glibc)
import Glibc
#endif

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

    /// "2026:11:29 14:22:33" in the capture's local time.
    public var exifDateTime: String {
        // The local wall-clock time is UTC shifted by the offset; gmtime needs no zone database.
        var seconds = time_t(secondsSinceEpoch + utcOffsetMinutes * 60)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(Self.pad(Int(parts.tm_year) + 1900, 4)):\(Self.pad(Int(parts.tm_mon) + 1)):\(Self.pad(Int(parts.tm_mday))) "
            + "\(Self.pad(Int(parts.tm_hour))):\(Self.pad(Int(parts.tm_min))):\(Self.pad(Int(parts.tm_sec)))"
    }

    /// "+08:00"
    public var exifOffset: String {
        let sign = utcOffsetMinutes < 0 ? "-" : "+"
        return "\(sign)\(Self.pad(abs(utcOffsetMinutes) / 60)):\(Self.pad(abs(utcOffsetMinutes) % 60))"
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
        record.dateTime = exifDateTime
        record.offsetTime = exifOffset
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

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 100).rounded() / 100)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
