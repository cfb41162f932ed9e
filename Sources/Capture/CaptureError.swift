import Values

/// Why a camera could not be used or a photo could not be taken. Each message names the device and
/// says what happened (and what to do about the device itself); front ends add advice in their own
/// terms (an option to pass, a button to tap) and the CLI maps the cases to exit codes.
public enum CaptureError: Error, Equatable, CustomStringConvertible {
    /// The node does not exist; `available` lists the cameras that do.
    case noSuchDevice(String, available: [String])
    case permissionDenied(String)
    /// Another program is using the camera.
    case busy(String)
    /// The node exists but captures no video (a metadata node, an output or radio device …).
    case notACaptureDevice(String)
    /// The camera went away while in use (ENODEV, POLLHUP).
    case unplugged(String)
    /// The driver reported a fatal streaming error (EIO) again after one restart of the stream.
    case streamingFailed(String)
    /// No frame arrived within `seconds`.
    case timeout(String, seconds: Double)
    /// The camera offers no format stampcam can use, or not the one asked for.
    case unsupportedFormat(String, requested: String?, offered: [String])
    /// The camera does not offer this frame size; `offered` lists those it does.
    case unsupportedResolution(String, requested: Resolution, offered: [String])
    /// `--flash on|torch` on a camera without that kind of light.
    case noFlash(String, mode: FlashMode)
    /// The flash LED reported faults.
    case flashFault(String, faults: [String])
    /// A control could not be set: unknown, read-only, or a value it does not take.
    case control(String, name: String, problem: String)
    /// Frames kept arriving damaged (error flags, empty, or not decodable).
    case badFrames(String, detail: String)
    /// Any other failure of a device call, with the call and the system's reason.
    case deviceCall(String, call: String, reason: String)
    /// Not enough memory for a frame.
    case outOfMemory(String)

    public var description: String {
        switch self {
        case .noSuchDevice(let device, let available):
            let others = available.isEmpty
                ? "no camera is connected"
                : "cameras here: " + available.joined(separator: ", ")
            return "\(device): no such camera (\(others))"
        case .permissionDenied(let device):
            return "\(device): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER) and log in again"
        case .busy(let device):
            return "\(device): the camera is busy: another program is using it; close that program and try again"
        case .notACaptureDevice(let device):
            return "\(device): not a video capture device (see 'stampcam devices' for the cameras)"
        case .unplugged(let device):
            return "\(device): the camera was disconnected during capture; plug it in again and retry"
        case .streamingFailed(let device):
            return "\(device): the camera stopped streaming with an I/O error, again after a restart; unplug it or reload its driver"
        case .timeout(let device, let seconds):
            return "\(device): no frame from the camera within \(Self.seconds(seconds)) s; is the lens covered by a privacy shutter, or the camera in use elsewhere?"
        case .unsupportedFormat(let device, let requested, let offered):
            let list = offered.isEmpty ? "none stampcam can use" : offered.joined(separator: ", ")
            if let requested {
                return "\(device): the camera does not offer the format \(requested) (it offers \(list))"
            }
            return "\(device): the camera offers no format stampcam can use (it offers \(list))"
        case .unsupportedResolution(let device, let requested, let offered):
            return "\(device): the camera does not offer \(requested) (it offers \(offered.joined(separator: ", ")))"
        case .noFlash(let device, let mode):
            return mode == .torch ? "\(device): this camera has no torch light" : "\(device): this camera has no flash"
        case .flashFault(let device, let faults):
            return "\(device): the flash reports a fault: \(faults.joined(separator: ", "))"
        case .control(let device, let name, let problem):
            return "\(device): control '\(name)': \(problem)"
        case .badFrames(let device, let detail):
            return "\(device): the camera sends damaged frames: \(detail)"
        case .deviceCall(let device, let call, let reason):
            return "\(device): \(call) failed: \(reason)"
        case .outOfMemory(let device):
            return "\(device): not enough memory for a frame"
        }
    }

    private static func seconds(_ value: Double) -> String {
        CaptureMetadata.number(value)
    }
}
