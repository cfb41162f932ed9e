import Values

/// What can happen to a shoot session: keys the user presses and results the camera and disk report.
public enum ShootEvent: Equatable, Sendable {
    // From the user.
    case shutter, retake, use, quit
    /// The answer to "quit without saving?".
    case confirm(Bool)
    case nextStyle, previousStyle
    case cycleFlash, switchCamera, zoomIn, zoomOut, focus
    /// A style by its index in the cycle (a pick list, a tap on a name).
    case chooseStyle(Int)
    /// A zoom factor (a slider), clamped to the camera's range.
    case setZoom(Double)
    /// A flash mode; one the camera does not have is ignored.
    case setFlash(FlashMode)
    /// Focus on a point of the picture, as fractions of its width and height (a tap).
    case focusAt(x: Double, y: Double)
    // From the camera and the disk.
    case captured(ShotID)
    case captureFailed(String)
    case saved(ShotID, path: String)
    case saveFailed(ShotID, String)

    /// Every user event, for exhaustive tests.
    public static let userEvents: [ShootEvent] = [
        .shutter, .retake, .use, .quit, .confirm(true), .confirm(false), .nextStyle, .previousStyle,
        .cycleFlash, .switchCamera, .zoomIn, .zoomOut, .focus, .chooseStyle(1), .setZoom(2), .setFlash(.torch),
        .focusAt(x: 0.25, y: 0.75),
    ]
}

/// What the session asks the outside world to do after an event.
public enum ShootEffect: Equatable, Sendable {
    /// Take a still with the current camera settings; report `.captured(id)` or `.captureFailed`.
    case capture(ShotID)
    /// Draw the taken photo in the current style (review).
    case renderShot(ShotID, style: Int)
    /// Write the shot stamped in `style`; report `.saved` or `.saveFailed`.
    case save(ShotID, style: Int)
    case setFlash(FlashMode)
    case setZoom(Double)
    case switchCamera(Int)
    case triggerFocus(FocusRequest)
    /// The shot is no longer wanted (retake): its pixels may be freed.
    case discard(ShotID)
    case exit
}
