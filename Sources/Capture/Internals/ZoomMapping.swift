/// How a zoom factor (1 = none) becomes the camera's zoom control value, or a centre crop when
/// the camera has no zoom.
struct ZoomMapping {
    /// The zoom control's range; nil when the camera has none.
    let control: ClosedRange<Int64>?

    static let maximumCrop = 4.0

    /// The largest factor: the control's maximum over its minimum (UVC units are relative to the
    /// widest setting), or 4 when that ratio is unknown or there is no control.
    var maximumFactor: Double {
        guard let control, control.lowerBound > 0 else { return Self.maximumCrop }
        return max(1, Double(control.upperBound) / Double(control.lowerBound))
    }

    var range: ClosedRange<Double> { 1...maximumFactor }

    /// The control value for `factor` (already clamped to `range`).
    func controlValue(_ factor: Double) -> Int64? {
        guard let control else { return nil }
        if control.lowerBound > 0 {
            return min(control.upperBound, Int64((Double(control.lowerBound) * factor).rounded()))
        }
        // No natural unit: spread 1…4 over the control's range.
        let span = Double(control.upperBound - control.lowerBound)
        return control.lowerBound + Int64(((factor - 1) / (Self.maximumCrop - 1) * span).rounded())
    }

    /// The crop a factor means for the pixels: none when the camera zooms itself.
    func cropFactor(_ factor: Double) -> Double {
        control == nil ? min(max(factor, 1), Self.maximumCrop) : 1
    }
}
