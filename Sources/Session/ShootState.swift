import Values

/// Everything the shoot screen shows and the state machine decides on. A value: the session is a pure
/// function from (state, event) to (state, effects), so every transition is testable in microseconds.
public struct ShootState: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Live preview with the current style's stamp.
        case viewfinder
        /// The shutter was pressed; waiting for the still.
        case capturing
        /// A taken photo is shown, stamped in the current style: retake, restyle or use it.
        case reviewing
        /// The reviewed photo is being written.
        case saving
        /// Back to the live preview after a save; `path` is where the photo went.
        case saved(path: String)
        /// The capture failed (camera gone, no frame …); the message says why.
        case failed(message: String)
        /// Quitting would drop an unsaved photo: waiting for yes or no.
        case confirmingQuit
        /// The session is over.
        case finished
    }

    public var phase: Phase = .viewfinder
    /// The photo taken and not yet saved (review, saving, confirming quit). Never dropped silently.
    public var shot: ShotID?
    /// Index into the style cycle (the template catalog's order).
    public var style: Int = 0
    public var styleCount: Int
    public var flash: FlashMode
    /// The flash modes this camera has, in cycling order; `off` always included.
    public var flashModes: [FlashMode]
    public var zoom: Double = 1
    public var maxZoom: Double
    public var camera: Int = 0
    public var cameraCount: Int
    /// A line for the status bar: an error, a note, "Saved …".
    public var message: String?

    public init(styleCount: Int, style: Int = 0, flashModes: [FlashMode] = [.off], maxZoom: Double = 4,
                cameraCount: Int = 1, zoom: Double = 1) {
        self.styleCount = max(1, styleCount)
        self.style = min(max(0, style), self.styleCount - 1)
        self.flashModes = flashModes.contains(.off) ? flashModes : [.off] + flashModes
        flash = .off
        self.maxZoom = max(1, maxZoom)
        self.zoom = min(max(1, zoom), self.maxZoom)
        self.cameraCount = max(1, cameraCount)
    }

    /// Whether there is a taken photo that has not been saved (a saved shot is let go at once).
    public var hasUnsavedShot: Bool { shot != nil }

    /// Live preview is on (the camera streams) in these phases.
    public var isLive: Bool {
        switch phase {
        case .viewfinder, .saved, .failed: return true
        default: return false
        }
    }
}

/// Names one taken photo; the session hands out increasing ids.
public struct ShotID: Hashable, Sendable, CustomStringConvertible {
    public let number: Int
    public init(_ number: Int) { self.number = number }
    public var description: String { "#\(number)" }
}
