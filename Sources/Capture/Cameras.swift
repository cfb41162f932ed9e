/// The cameras on this machine: listing, describing, and setting controls by name.
public enum Cameras {
    /// The device name of the built-in test pattern.
    public static let testDevice = "test"

    /// The capture devices (`/dev/video*` that capture video; metadata nodes skipped) with their
    /// formats, sizes, rates, controls and features, and the errors of those that could not be
    /// opened (permission denied, busy …).
    public static func list() -> (cameras: [CameraInfo], problems: [CaptureError]) {
        list(host: LinuxDeviceHost())
    }

    /// One camera described; `device` is a path, a number (`0`) or `test`.
    public static func describe(_ device: String) throws(CaptureError) -> CameraInfo {
        try describe(device, host: LinuxDeviceHost())
    }

    /// Sets controls by name (`brightness`, `Exposure, Auto`, or an id like `0x00980900`) from
    /// text values (numbers, menu labels, on/off) and returns them as they are afterwards.
    public static func setControls(_ device: String, _ assignments: [(name: String, value: String)])
        throws(CaptureError) -> [ControlInfo] {
        try setControls(device, assignments, host: LinuxDeviceHost())
    }

    /// The device to use when none is given: the first camera, else the test pattern with a note.
    public static func defaultDevice() -> (device: String, note: String?) {
        defaultDevice(host: LinuxDeviceHost())
    }

    // MARK: with an injectable host (unit tests)

    static func list(host: any VideoDeviceHost) -> (cameras: [CameraInfo], problems: [CaptureError]) {
        DeviceCatalog(host: host).list(rates: true)
    }

    static func describe(_ device: String, host: any VideoDeviceHost) throws(CaptureError) -> CameraInfo {
        if device == testDevice { return TestPatternSource.info }
        let catalog = DeviceCatalog(host: host)
        let path = DeviceCatalog.resolve(device)
        let (node, capability) = try catalog.openCamera(path)
        return catalog.describe(node, capability, stableName: host.stableNames()[path], rates: true)
    }

    static func setControls(_ device: String, _ assignments: [(name: String, value: String)],
                            host: any VideoDeviceHost) throws(CaptureError) -> [ControlInfo] {
        let path = DeviceCatalog.resolve(device)
        if device == testDevice, let first = assignments.first {
            throw .control(device, name: first.name, problem: "the test pattern has no controls")
        }
        let catalog = DeviceCatalog(host: host)
        let (node, _) = try catalog.openCamera(path)
        let panels = catalog.controlPanels(node)
        var results: [ControlInfo] = []
        for (name, value) in assignments {
            // The first node that has the control: the video node, else a flash subdevice.
            let panel = panels.first { $0.control(named: name) != nil } ?? panels[0]
            results.append(try panel.set(named: name, text: value))
        }
        return results
    }

    static func defaultDevice(host: any VideoDeviceHost) -> (device: String, note: String?) {
        let catalog = DeviceCatalog(host: host)
        for path in host.nodes(prefix: "video") {
            // A camera we may not open (permission, busy) is still the one meant: its error says what to do.
            do { _ = try catalog.openCamera(path) } catch {
                if case .notACaptureDevice = error { continue }
            }
            return (path, nil)
        }
        return (testDevice, "no camera found; using the built-in test pattern")
    }
}
