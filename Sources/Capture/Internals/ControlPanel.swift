import Platform
import Values
/// The controls of one node (a video node or a flash subdevice): looked up by id or by the names
/// people type, set with errors a user can act on.
final class ControlPanel {
    let node: V4L2Node
    private(set) var controls: [ControlInfo]

    init(node: V4L2Node) {
        self.node = node
        controls = node.controls()
    }

    var path: String { node.path }

    func control(_ id: UInt32) -> ControlInfo? { controls.first { $0.id == id } }

    /// The control a user means by `name`: its `--set` key, its driver name (any case) or its id
    /// in hex (0x00f0f041) or decimal.
    func control(named name: String) -> ControlInfo? {
        let lowered = name.lowercased()
        if let found = controls.first(where: { $0.key == lowered || $0.name.lowercased() == lowered }) { return found }
        let id = lowered.hasPrefix("0x") ? UInt32(lowered.dropFirst(2), radix: 16) : UInt32(lowered)
        return id.flatMap(control)
    }

    /// The current value, read from the device.
    func value(_ id: UInt32) -> Int64? {
        guard let info = control(id) else { return nil }
        return try? node.value(of: id, kind: info.kind)
    }

    /// Sets a control by id; `name` is for messages.
    func set(_ id: UInt32, _ value: Int64) throws(CaptureError) {
        let info = control(id)
        let name = info?.key ?? hexID(id)
        do {
            try node.set(id, to: value, wide: info?.kind == .integer64)
        } catch {
            throw Self.problem(error, device: path, name: name, value: value, info: info)
        }
        if let index = controls.firstIndex(where: { $0.id == id }), info?.kind != .button {
            controls[index].value = value
        }
    }

    /// Sets a control from `--set NAME=VALUE` text and returns it as it is now.
    func set(named name: String, text: String) throws(CaptureError) -> ControlInfo {
        guard let info = control(named: name) else {
            let known = controls.filter { !$0.readOnly }.map(\.key).joined(separator: ", ")
            throw .control(path, name: name, problem: "no such control (this camera has: \(known.isEmpty ? "none" : known))")
        }
        if info.readOnly { throw .control(path, name: info.key, problem: "read-only") }
        let value = try Self.parse(text, for: info, device: path)
        try set(info.id, value)
        return control(info.id) ?? info
    }

    /// A value in the control's own terms: a menu label or index, on/off, or a number in range.
    static func parse(_ text: String, for info: ControlInfo, device: String) throws(CaptureError) -> Int64 {
        let lowered = text.lowercased()
        switch info.kind {
        case .button:
            return 1
        case .boolean:
            if ["1", "on", "true", "yes"].contains(lowered) { return 1 }
            if ["0", "off", "false", "no"].contains(lowered) { return 0 }
            throw .control(device, name: info.key, problem: "'\(text)' is not on or off")
        case .menu, .integerMenu:
            if let item = info.menu.first(where: { $0.label.lowercased() == lowered || ControlInfo.key(of: $0.label) == lowered }) {
                return item.index
            }
            if let index = Int64(text), info.menu.contains(where: { $0.index == index }) { return index }
            let labels = info.menu.map { "\($0.index)=\($0.label)" }.joined(separator: ", ")
            throw .control(device, name: info.key, problem: "'\(text)' is not one of \(labels)")
        case .integer, .integer64, .bitmask:
            let number = lowered.hasPrefix("0x") ? Int64(lowered.dropFirst(2), radix: 16) : Int64(text)
            guard let number else { throw .control(device, name: info.key, problem: "'\(text)' is not a number") }
            guard (info.minimum...max(info.minimum, info.maximum)).contains(number) || info.kind == .bitmask else {
                throw .control(device, name: info.key, problem: "\(number) is out of range \(info.minimum) to \(info.maximum)")
            }
            return number
        default:
            throw .control(device, name: info.key, problem: "a \(info.kind.name) control cannot be set from the command line")
        }
    }

    private static func problem(_ error: Errno, device: String, name: String, value: Int64, info: ControlInfo?) -> CaptureError {
        switch error {
        case .noDevice: return .unplugged(device)
        case .permission, .notPermitted: return .control(device, name: name, problem: "read-only")
        case .busy: return .control(device, name: name, problem: "cannot be changed now (the driver is busy with it)")
        case .range, .invalid:
            let range = info.map { " (range \($0.minimum) to \($0.maximum))" } ?? ""
            return .control(device, name: name, problem: "the driver refused \(value)\(range)")
        default: return .control(device, name: name, problem: error.description)
        }
    }
}

extension ControlInfo {
    /// `key`'s spelling rule for any label ("Auto Mode" → "auto_mode").
    static func key(of label: String) -> String {
        ControlInfo(id: 0, name: label, kind: .integer).key
    }
}

/// "0x009c0901" for an id.
func hexID(_ id: UInt32) -> String { "0x" + Hex.padded(id, digits: 8) }
