import Capture

extension Failure {
    /// A capture error as one line and its exit code: 64 for what the user asked that the camera
    /// cannot do, 65 for damaged frames, 74 for I/O errors while streaming, 69 for a camera that
    /// is missing, busy, forbidden, unplugged or silent.
    init(capture error: CaptureError) {
        let code: ExitCode
        switch error {
        case .unsupportedFormat, .unsupportedResolution, .control: code = .usage
        case .badFrames: code = .dataError
        case .streamingFailed, .deviceCall: code = .ioError
        case .noSuchDevice, .permissionDenied, .busy, .notACaptureDevice, .unplugged, .timeout, .noFlash,
             .flashFault, .outOfMemory:
            code = .unavailable
        }
        self.init(error.description + Self.advice(error), code: code)
    }

    /// What to do about it, in command-line terms (the browser says "tap Flash off" instead).
    static func advice(_ error: CaptureError) -> String {
        switch error {
        case .noSuchDevice(_, let available) where available.isEmpty: return "; '--device test' uses the built-in test pattern"
        case .noFlash(_, let mode): return mode == .torch ? "; use --flash off" : "; use --flash off (or auto, which does nothing without one)"
        case .flashFault: return "; let it cool down or use --flash off"
        case .unsupportedFormat: return "; choose one with --format"
        case .unsupportedResolution: return "; choose one with --resolution"
        default: return ""
        }
    }
}
