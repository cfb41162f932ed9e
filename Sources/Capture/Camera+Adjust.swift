import Values

extension Camera {
    /// The zoom factors this camera can do (the crop goes to 4 without a zoom control).
    public var zoomRange: ClosedRange<Double> { zoom.range }

    /// Whether zooming uses the camera's own zoom control (otherwise a centre crop).
    public var zoomsOptically: Bool { zoom.control != nil }

    /// The flash modes this camera can do, for cycling.
    public var flashModes: [FlashMode] { info.features.flashModes }

    /// Sets the zoom for the following frames, clamped to `zoomRange` with a note when it had to
    /// be. Returns the factor used.
    @discardableResult
    public func setZoom(_ factor: Double) -> Double {
        let wanted = factor.isFinite ? factor : 1
        let used = min(max(wanted, zoomRange.lowerBound), zoomRange.upperBound)
        if used != wanted {
            let how = zoomsOptically ? "this camera zooms" : "the digital zoom (a centre crop) goes"
            note("zoom \(CaptureMetadata.exactNumber(wanted)) is out of range: \(how) from 1 to \(CaptureMetadata.number(zoomRange.upperBound)); using \(CaptureMetadata.number(used))")
        }
        settings.zoom = used
        if let value = zoom.controlValue(used), let controls {
            do { try controls.setZoom(value) } catch { note("zoom: \(error)") }
        }
        return used
    }

    /// Changes the flash mode for the following captures; throws when the camera has no such light.
    public func setFlash(_ mode: FlashMode) throws(CaptureError) {
        try checkFlash(mode)
        if settings.flash == .torch && mode != .torch { flash?.off() }
        settings.flash = mode
    }

    func checkFlash(_ mode: FlashMode) throws(CaptureError) {
        switch mode {
        case .off, .auto: return
        case .on: if !(flash?.canFlash ?? false) && !(flash?.canTorch ?? false) { throw .noFlash(info.path, mode: mode) }
        case .torch: if !(flash?.canTorch ?? false) { throw .noFlash(info.path, mode: mode) }
        }
    }

    /// Focuses: one autofocus run, or focus on a point through the UVC region of interest where
    /// the kernel and camera have it. A note says what could not be done.
    public func setFocus(_ request: FocusRequest) {
        settings.focus = request
        guard let controls else {
            note("\(info.path): this camera cannot focus; the focus asked for is left out")
            return
        }
        if case .point(let x, let y) = request {
            if controls.hasFocusRegion, focusRegion(x: x, y: y, controls: controls) {
                focusDone = "focus region \(CaptureMetadata.number(x)),\(CaptureMetadata.number(y))"
                _ = controls.startAutofocus()
                return
            }
            note("\(info.path): this camera cannot focus on a point; " + (info.features.autofocus ? "using autofocus" : "the focus asked for is left out"))
        }
        if controls.startAutofocus() {
            focusDone = "autofocus"
        } else if case .auto = request {
            note("\(info.path): this camera has no autofocus; the focus asked for is left out")
        }
    }

    private func focusRegion(x: Double, y: Double, controls: ControlPanel) -> Bool {
        let width = Double(frameSize.width), height = Double(frameSize.height)
        let side = max(16, min(width, height) / 10)
        let left = max(0, min(x * width - side / 2, width - side))
        let top = max(0, min(y * height - side / 2, height - side))
        return controls.setFocusRegion(left: Int32(left), top: Int32(top), side: UInt32(side))
    }
}
