import Capture

/// How `stampcam devices` shows a camera as text.
enum DeviceText {
    static func camera(_ camera: CameraInfo) -> [String] {
        var lines = ["\(camera.path)  \(camera.card)" + (camera.isTestPattern ? "  (built in)" : "  (driver \(camera.driver), \(camera.bus))")]
        if let stable = camera.stableName { lines.append("  id        \(stable)") }
        lines.append("  features  " + features(camera.features))
        let usable = camera.formats.filter { $0.format.isUsable && !$0.emulated }
        for (index, format) in usable.enumerated() {
            lines.append((index == 0 ? "  formats   " : "            ") + self.format(format))
        }
        let others = camera.formats.filter { !($0.format.isUsable && !$0.emulated) }
        if !others.isEmpty {
            let codes = others.map(\.format.code)
            let shown = codes.prefix(12).joined(separator: " ") + (codes.count > 12 ? " …" : "")
            lines.append("            (\(others.count) more that stampcam does not capture from: \(shown))")
        }
        if usable.isEmpty && others.isEmpty { lines.append("  formats   none") }
        for (index, control) in camera.controls.enumerated() {
            lines.append((index == 0 ? "  controls  " : "            ") + self.control(control))
        }
        return lines
    }

    static func features(_ features: CameraFeatures) -> String {
        var parts = [
            "flash " + (features.flash ? "yes" : "no"),
            "torch " + (features.torch ? "yes" : "no"),
            "zoom " + (features.zoomControl.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "crop (digital, up to 4x)"),
            "focus " + ([features.autofocus ? "auto" : nil, features.manualFocus ? "manual" : nil,
                         features.focusRegion ? "region" : nil].compactMap { $0 }.joined(separator: "+").nonEmpty ?? "no"),
        ]
        if let node = features.flashNode { parts.append("flash LED on \(node)") }
        return parts.joined(separator: ", ")
    }

    /// "YUYV   YUYV 4:2:2   320x180 (60 fps), 640x360 (40 fps)"
    static func format(_ info: FormatInfo) -> String {
        var sizes = info.sizes.map { size in
            size.resolution.description + (size.framesPerSecond.first.map { " (\(fps($0)) fps)" } ?? "")
        }
        if let range = info.sizeRange { sizes.append("\(range.minimum) to \(range.maximum)") }
        return info.format.commonName.padding(7) + info.description.padding(20) + sizes.joined(separator: ", ")
    }

    /// "brightness  int 0 to 255, step 1, default 128: 128"
    static func control(_ control: ControlInfo) -> String {
        var text = control.key.padding(28) + control.kind.name
        switch control.kind {
        case .integer, .integer64:
            text += " \(control.minimum) to \(control.maximum)" + (control.step > 1 ? ", step \(control.step)" : "")
                + ", default \(control.defaultValue)"
        case .boolean:
            text += ", default " + (control.defaultValue != 0 ? "on" : "off")
        case .menu, .integerMenu:
            text += " " + control.menu.map { "\($0.index)=\($0.label)" }.joined(separator: ", ")
        default:
            break
        }
        if let value = control.valueText { text += ": " + value }
        var flags: [String] = []
        if control.readOnly { flags.append("read-only") }
        if control.inactive { flags.append("inactive") }
        if !flags.isEmpty { text += " (" + flags.joined(separator: ", ") + ")" }
        return text
    }

    private static func fps(_ value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? String((value * 100).rounded() / 100)
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
