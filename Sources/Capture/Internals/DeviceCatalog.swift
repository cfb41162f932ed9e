import CV4L2

/// Opens device nodes with errors a user can act on, and describes cameras: formats, controls
/// (the video node's and its flash subdevice's) and the features they add up to.
struct DeviceCatalog {
    let host: any VideoDeviceHost

    /// `0`, `video0` → `/dev/video0`; anything else as given.
    static func resolve(_ device: String) -> String {
        if let number = Int(device), number >= 0 { return "/dev/video\(number)" }
        if device.hasPrefix("video"), Int(device.dropFirst(5)) != nil { return "/dev/" + device }
        return device
    }

    /// Opens a video node and checks that it captures video.
    func openCamera(_ path: String) throws(CaptureError) -> (node: V4L2Node, capability: V4L2Node.Capability) {
        let io: any VideoDeviceIO
        switch host.open(path, kind: .video) {
        case .success(let opened): io = opened
        case .failure(let error):
            switch error {
            case .noEntry, .noDeviceOrAddress, .noDevice:
                throw .noSuchDevice(path, available: availableNames(excluding: path))
            case .notTTY, .invalid, .isFolder:
                // libv4l2's QUERYCAP on something that is no V4L2 device; a folder cannot even be opened so.
                throw .notACaptureDevice(path)
            default:
                throw CaptureError(error, device: path, call: "open")
            }
        }
        let node = V4L2Node(io: io)
        let capability: V4L2Node.Capability
        do { capability = try node.capability() } catch {
            if error == .noDevice { throw .unplugged(path) }
            throw .notACaptureDevice(path)
        }
        guard capability.capturesVideo, capability.streams else { throw .notACaptureDevice(path) }
        return (node, capability)
    }

    /// Every video node that captures video, described; nodes that fail come back as errors
    /// (permission denied, busy) so a listing can show them. Metadata and output nodes are skipped.
    func list(rates: Bool) -> (cameras: [CameraInfo], problems: [CaptureError]) {
        var cameras: [CameraInfo] = [], problems: [CaptureError] = []
        let stableNames = host.stableNames()
        for path in host.nodes(prefix: "video") {
            do {
                let (node, capability) = try openCamera(path)
                cameras.append(describe(node, capability, stableName: stableNames[path], rates: rates))
            } catch {
                if case .notACaptureDevice = error { continue }
                problems.append(error)
            }
        }
        return (cameras, problems)
    }

    /// "/dev/video0 (HD Webcam)" for each camera but `path`, for a "no such device" message.
    func availableNames(excluding path: String) -> [String] {
        host.nodes(prefix: "video").filter { $0 != path }.compactMap { candidate in
            guard case .success(let io) = host.open(candidate, kind: .video),
                  let capability = try? V4L2Node(io: io).capability(), capability.capturesVideo else { return nil }
            return "\(candidate) (\(capability.card))"
        }
    }

    func describe(_ node: V4L2Node, _ capability: V4L2Node.Capability, stableName: String?, rates: Bool) -> CameraInfo {
        let panels = controlPanels(node)
        var info = CameraInfo(path: node.path, stableName: stableName, card: capability.card, driver: capability.driver,
                              bus: capability.bus, formats: node.formats(rates: rates),
                              controls: panels.flatMap(\.controls))
        info.features = Self.features(panels)
        return info
    }

    /// The video node's controls, then those of each flash subdevice in its media graph.
    func controlPanels(_ node: V4L2Node) -> [ControlPanel] {
        var panels = [ControlPanel(node: node)]
        for path in MediaTopology.flashNodes(for: node.path, host: host) {
            if case .success(let io) = host.open(path, kind: .subdevice) {
                panels.append(ControlPanel(node: V4L2Node(io: io)))
            }
        }
        return panels
    }

    static func features(_ panels: [ControlPanel]) -> CameraFeatures {
        var features = CameraFeatures()
        if let flash = panels.lazy.compactMap({ FlashController(panel: $0) }).first {
            features.flash = flash.canFlash
            features.torch = flash.canTorch
            features.flashNode = flash.path
        }
        let controls = panels.flatMap(\.controls)
        func has(_ id: UInt32) -> ControlInfo? { controls.first { $0.id == id && !$0.readOnly } }
        if let zoom = has(sc_CID_ZOOM_ABSOLUTE), zoom.maximum > zoom.minimum {
            features.zoomControl = zoom.minimum...zoom.maximum
        }
        features.autofocus = has(sc_CID_FOCUS_AUTO) != nil || has(sc_CID_AUTO_FOCUS_START) != nil
        features.manualFocus = has(sc_CID_FOCUS_ABSOLUTE) != nil
        features.focusRegion = has(sc_CID_UVC_REGION_OF_INTEREST_RECT) != nil
        return features
    }
}
