import Capture
import Foundation

/// `stampcam devices --json`: every camera with all its formats, sizes, rates and controls.
enum DeviceJSON {
    static func text(_ cameras: [CameraInfo], controlsOnly: Bool) -> String {
        let objects: [Any] = cameras.map { controlsOnly ? ["path": $0.path, "controls": $0.controls.map(control)] : camera($0) }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return "[]"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func camera(_ camera: CameraInfo) -> [String: Any] {
        let features = camera.features
        var featureObject: [String: Any] = [
            "flash": features.flash, "torch": features.torch, "autofocus": features.autofocus,
            "manualFocus": features.manualFocus, "focusRegion": features.focusRegion,
            "flashModes": features.flashModes.map(\.rawValue),
            "zoom": features.zoomControl.map { ["control": [$0.lowerBound, $0.upperBound]] } ?? ["crop": 4],
        ]
        if let node = features.flashNode { featureObject["flashNode"] = node }
        var object: [String: Any] = [
            "path": camera.path, "card": camera.card, "driver": camera.driver, "bus": camera.bus,
            "formats": camera.formats.map(format), "controls": camera.controls.map(control), "features": featureObject,
        ]
        if let stable = camera.stableName { object["stableName"] = stable }
        return object
    }

    private static func format(_ info: FormatInfo) -> [String: Any] {
        var object: [String: Any] = [
            "fourcc": info.format.code, "name": info.format.commonName, "description": info.description,
            "usable": info.format.isUsable && !info.emulated,
            "sizes": info.sizes.map { ["width": $0.resolution.width, "height": $0.resolution.height, "fps": $0.framesPerSecond] },
        ]
        if let range = info.sizeRange {
            object["sizeRange"] = ["min": range.minimum.description, "max": range.maximum.description,
                                   "stepWidth": range.stepWidth, "stepHeight": range.stepHeight]
        }
        return object
    }

    private static func control(_ control: ControlInfo) -> [String: Any] {
        var object: [String: Any] = [
            "id": String(format: "0x%08x", control.id), "name": control.name, "key": control.key, "type": control.kind.name,
            "min": control.minimum, "max": control.maximum, "step": control.step, "default": control.defaultValue,
            "readOnly": control.readOnly, "inactive": control.inactive, "node": control.node,
        ]
        if let value = control.value { object["value"] = value }
        if !control.menu.isEmpty { object["menu"] = control.menu.map { ["index": $0.index, "label": $0.label] } }
        return object
    }
}
