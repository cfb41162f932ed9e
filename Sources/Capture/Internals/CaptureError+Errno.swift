import Platform
extension CaptureError {
    /// The error a failed device call means for the user.
    init(_ errno: Errno, device: String, call: String) {
        switch errno {
        case .noEntry, .noDeviceOrAddress: self = .noSuchDevice(device, available: [])
        case .permission, .notPermitted: self = .permissionDenied(device)
        case .busy: self = .busy(device)
        case .noDevice: self = .unplugged(device)
        default: self = .deviceCall(device, call: call, reason: errno.description)
        }
    }
}
