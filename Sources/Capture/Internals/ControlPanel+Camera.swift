import CV4L2

/// The camera-class controls `Camera` drives: zoom, autofocus and the UVC focus region.
extension ControlPanel {
    func setZoom(_ value: Int64) throws(CaptureError) {
        try set(sc_CID_ZOOM_ABSOLUTE, value)
    }

    /// Triggers one autofocus run, or switches continuous autofocus on. False when neither exists.
    func startAutofocus() -> Bool {
        for id in [sc_CID_AUTO_FOCUS_START, sc_CID_FOCUS_AUTO] where control(id).map({ !$0.readOnly }) ?? false {
            if (try? set(id, 1)) != nil { return true }
        }
        return false
    }

    var hasFocusRegion: Bool { control(sc_CID_UVC_REGION_OF_INTEREST_RECT) != nil }

    /// Points the UVC region of interest at a square and asks the camera to focus on it.
    func setFocusRegion(left: Int32, top: Int32, side: UInt32) -> Bool {
        do {
            try node.set(sc_CID_UVC_REGION_OF_INTEREST_RECT, rectangle: (left, top, side, side))
        } catch {
            return false
        }
        // Bit 3 of the region's "auto" control: use the region for autofocus.
        if control(sc_CID_UVC_REGION_OF_INTEREST_AUTO) != nil {
            try? set(sc_CID_UVC_REGION_OF_INTEREST_AUTO, 1 << 3)
        }
        return true
    }
}
