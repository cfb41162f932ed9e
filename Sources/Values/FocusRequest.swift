/// Where to focus.
public enum FocusRequest: Sendable, Equatable {
    /// Run autofocus once before the photo.
    case auto
    /// Focus on a point, as fractions of the frame's width and height (0.5, 0.5 is the centre).
    case point(x: Double, y: Double)
}
