/// The layout of the frames a stream delivers: what the driver returned from S_FMT.
struct FrameLayout: Equatable, Sendable {
    var format: PixelFormat
    var width: Int
    var height: Int
    /// Bytes from one row to the next (of the first plane for planar formats); 0 for JPEG.
    var bytesPerLine: Int
    var imageSize: Int
    /// Y'CbCr quantisation: full 0–255 range instead of the usual 16–235.
    var fullRange: Bool = false
    /// Y'CbCr encoding: BT.709 instead of BT.601.
    var bt709: Bool = false

    var resolution: Resolution { Resolution(width: width, height: height) }
}

/// One frame lent by a source: valid only inside the closure it is passed to.
struct Frame {
    var bytes: UnsafeRawBufferPointer
    var layout: FrameLayout
    /// CLOCK_MONOTONIC seconds at capture; 0 when unknown.
    var timestamp: Double
    var sequence: UInt32
}

/// Where a camera's frames come from: the V4L2 stream, or the built-in test pattern.
protocol FrameSource: AnyObject {
    var layout: FrameLayout { get }
    /// Starts frames flowing; does nothing when they already are.
    func start() throws(CaptureError)
    /// Stops frames flowing (the torch and controls are not touched).
    func stop()
    /// Waits up to `timeout` seconds for the next good frame and lends it to `body`; damaged and
    /// empty frames are dropped. The memory goes back to the driver when `body` returns.
    func withNextFrame<Result>(timeout: Double, _ body: (Frame) throws(CaptureError) -> Result) throws(CaptureError) -> Result
    /// Grants one restart after a fatal streaming error; called at the start of each capture.
    func allowRestart()
    /// What happened that the user should hear about (a restart), since the last call.
    func takeNotes() -> [String]
}
