import Values

/// How to take a photo: what `stampcam shoot` options become.
public struct CaptureSettings: Sendable {
    /// The frame size; nil takes the largest the camera offers.
    public var resolution: Resolution?
    /// The pixel format; nil prefers JPEG, then the raw formats in `PixelFormat.preferenceOrder`.
    public var format: PixelFormat?
    public var settle: Settle = .auto
    public var flash: FlashMode = .off
    /// 1 = no zoom. The camera's zoom control when it has one, else a centre crop (up to 4).
    public var zoom: Double = 1
    public var focus: FocusRequest?
    /// Turns the picture of a camera mounted sideways upright.
    public var rotation: Rotation = .none
    /// How long to wait for one frame before giving up.
    public var frameTimeout: Double = 5

    public init() {}
}

/// How long to let exposure settle before the photo is taken.
public enum Settle: Sendable, Equatable {
    /// Drop this many frames first.
    case frames(Int)
    /// Grab frames until the mean brightness stops changing (at most `Settle.autoFrameLimit` frames
    /// and `Settle.autoTimeLimit` seconds).
    case auto

    public static let autoFrameLimit = 60
    public static let autoTimeLimit = 6.0
}

/// Clockwise turn applied to every frame, for a camera mounted sideways or upside down.
public enum Rotation: Int, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270
}
