#if canImport(Glibc)
import Glibc
#endif
import Capture
import Values

/// `stampcam devices --json`: every camera with all its formats, sizes, rates and controls.
enum DeviceJSON {
    static func text(_ cameras: [CameraInfo], controlsOnly: Bool) -> String {
        let data = controlsOnly
            ? try? JSONOutput.encoded(cameras.map { ControlsOnly(path: $0.path, controls: $0.controls.map(Control.init)) }, pretty: true)
            : try? JSONOutput.encoded(cameras.map(Camera.init), pretty: true)
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    struct ControlsOnly: Encodable {
        let path: String
        let controls: [Control]
    }

    struct Camera: Encodable {
        let path, card, driver, bus: String
        let stableName: String?
        let formats: [Format]
        let controls: [Control]
        let features: Features

        init(_ camera: CameraInfo) {
            path = camera.path
            card = camera.card
            driver = camera.driver
            bus = camera.bus
            stableName = camera.stableName
            formats = camera.formats.map(Format.init)
            controls = camera.controls.map(Control.init)
            features = Features(camera.features)
        }
    }

    struct Features: Encodable {
        let flash, torch, autofocus, manualFocus, focusRegion: Bool
        let flashModes: [String]
        let flashNode: String?
        let zoom: Zoom

        /// `{"control": [min, max]}` for a camera's own zoom, `{"crop": 4}` for the digital one.
        struct Zoom: Encodable {
            let control: [Int64]?
            let crop: Int?
        }

        init(_ features: CameraFeatures) {
            flash = features.flash
            torch = features.torch
            autofocus = features.autofocus
            manualFocus = features.manualFocus
            focusRegion = features.focusRegion
            flashModes = features.flashModes.map(\.rawValue)
            flashNode = features.flashNode
            zoom = features.zoomControl.map { Zoom(control: [$0.lowerBound, $0.upperBound], crop: nil) } ?? Zoom(control: nil, crop: 4)
        }
    }

    struct Format: Encodable {
        let fourcc, name, description: String
        let usable: Bool
        let sizes: [Size]
        let sizeRange: SizeRange?

        struct Size: Encodable {
            let width, height: Int
            let fps: [Double]
        }

        struct SizeRange: Encodable {
            let min, max: String
            let stepWidth, stepHeight: Int
        }

        init(_ info: FormatInfo) {
            fourcc = info.format.code
            name = info.format.commonName
            description = info.description
            usable = info.format.isUsable && !info.emulated
            sizes = info.sizes.map { Size(width: $0.resolution.width, height: $0.resolution.height, fps: $0.framesPerSecond) }
            sizeRange = info.sizeRange.map {
                SizeRange(min: $0.minimum.description, max: $0.maximum.description, stepWidth: $0.stepWidth, stepHeight: $0.stepHeight)
            }
        }
    }

    struct Control: Encodable {
        let id, name, key, type, node: String
        let min, max, step: Int64
        let `default`: Int64
        let readOnly, inactive: Bool
        let value: Int64?
        let menu: [MenuItem]?

        struct MenuItem: Encodable {
            let index: Int64
            let label: String
        }

        init(_ control: ControlInfo) {
            id = "0x" + Hex.padded(control.id, digits: 8)
            name = control.name
            key = control.key
            type = control.kind.name
            node = control.node
            min = control.minimum
            max = control.maximum
            step = control.step
            self.default = control.defaultValue
            readOnly = control.readOnly
            inactive = control.inactive
            value = control.value
            menu = control.menu.isEmpty ? nil : control.menu.map { MenuItem(index: $0.index, label: $0.label) }
        }
    }
}
