import Imaging

#if canImport(Glibc)
import Glibc
#endif

/// The built-in camera: colour bars, a square that moves one step per frame and the frame number,
/// delivered as BGRX frames like a camera that offers that format. Needs no hardware.
final class TestPatternSource: FrameSource {
    /// The sizes it offers, like a camera's discrete sizes.
    static let sizes = [Resolution(width: 640, height: 360), Resolution(width: 1280, height: 720),
                        Resolution(width: 1920, height: 1080)]
    static let framesPerSecond = 30.0

    /// How it shows up in the camera list.
    static var info: CameraInfo {
        let sizes = Self.sizes.map { FrameSize(resolution: $0, framesPerSecond: [framesPerSecond]) }
        return CameraInfo(path: Cameras.testDevice, card: "stampcam test pattern", driver: "stampcam",
                          bus: "built-in", formats: [FormatInfo(format: .bgrx, description: "32-bit BGRX", sizes: sizes)])
    }

    let layout: FrameLayout
    private let host: any VideoDeviceHost
    private let card: Bitmap
    private var frame: Bitmap
    private var sequence: UInt32 = 0

    init(size: Resolution, host: any VideoDeviceHost) throws(CaptureError) {
        guard let card = TestCard.draw(width: size.width, height: size.height),
              let frame = Bitmap(width: size.width, height: size.height) else {
            throw .outOfMemory(Cameras.testDevice)
        }
        self.card = card
        self.frame = frame
        self.host = host
        layout = FrameLayout(format: .bgrx, width: size.width, height: size.height, bytesPerLine: frame.stride,
                             imageSize: frame.byteCount, fullRange: true)
    }

    func start() throws(CaptureError) {}
    func stop() {}
    func allowRestart() {}
    func takeNotes() -> [String] { [] }

    func withNextFrame<Result>(timeout: Double, _ body: (Frame) throws(CaptureError) -> Result) throws(CaptureError) -> Result {
        sequence &+= 1
        draw(sequence)
        return try frame.asFrame(timestamp: host.now(), sequence: sequence, body)
    }

    /// The card, the moving square and the counter, drawn into `frame`.
    private func draw(_ number: UInt32) {
        frame = card
        let unit = max(2, frame.height / 60)
        // A square that crosses the lower third, so motion (and a frozen stream) is easy to see.
        let side = unit * 6
        let travel = max(1, frame.width - side)
        let x = Int(number) * unit % (2 * travel)
        Self.fill(&frame, x: x < travel ? x : 2 * travel - x, y: frame.height * 3 / 4 - side / 2, width: side,
                  height: side, color: (255, 255, 255))
        SegmentDigits.draw(String(number), on: &frame, x: unit * 2, y: unit * 2, digitHeight: unit * 6)
    }

    /// Fills a rectangle, clipped to the bitmap.
    static func fill(_ bitmap: inout Bitmap, x: Int, y: Int, width: Int, height: Int,
                     color: (red: UInt8, green: UInt8, blue: UInt8)) {
        for row in max(0, y)..<min(bitmap.height, y + height) {
            for column in max(0, x)..<min(bitmap.width, x + width) {
                bitmap.setRGB(x: column, y: row, color)
            }
        }
    }
}

/// Digits drawn as seven segments of filled rectangles: a frame counter needs no font.
enum SegmentDigits {
    /// Segments a–g (top, top right, bottom right, bottom, bottom left, top left, middle) per digit.
    private static let segments: [[Bool]] = [
        "1111110", "0110000", "1101101", "1111001", "0110011", "1011011", "1011111", "1110000", "1111111", "1111011",
    ].map { $0.map { $0 == "1" } }

    /// Draws white digits on a black box at (x, y).
    static func draw(_ text: String, on bitmap: inout Bitmap, x: Int, y: Int, digitHeight: Int) {
        let thickness = max(1, digitHeight / 8)
        let width = digitHeight / 2
        let advance = width + thickness * 2
        let digits = text.compactMap { $0.wholeNumberValue }
        TestPatternSource.fill(&bitmap, x: x - thickness, y: y - thickness, width: advance * digits.count + thickness,
                               height: digitHeight + thickness * 2, color: (0, 0, 0))
        for (position, digit) in digits.enumerated() {
            let left = x + position * advance
            let half = digitHeight / 2
            let bars: [(Int, Int, Int, Int)] = [
                (left, y, width, thickness), (left + width - thickness, y, thickness, half),
                (left + width - thickness, y + half, thickness, half), (left, y + digitHeight - thickness, width, thickness),
                (left, y + half, thickness, half), (left, y, thickness, half), (left, y + half - thickness / 2, width, thickness),
            ]
            for (segment, bar) in bars.enumerated() where segments[digit][segment] {
                TestPatternSource.fill(&bitmap, x: bar.0, y: bar.1, width: bar.2, height: bar.3, color: (255, 255, 255))
            }
        }
    }
}
