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
        self.init(error.description, code: code)
    }

    /// Runs `body`, turning a `CaptureError` into a `Failure`.
    static func capturing<Result>(_ body: () throws -> Result) throws -> Result {
        do { return try body() } catch let error as CaptureError { throw Failure(capture: error) }
    }
}
