import Values

/// What a camera is and offers, as `stampcam devices` shows it.
public struct CameraInfo: Sendable {
    /// The node to open: `/dev/video0`, or `test` for the built-in test pattern.
    public var path: String
    /// The stable `/dev/v4l/by-id/...` name, when udev made one.
    public var stableName: String?
    /// The card name the driver reports, e.g. "HD Pro Webcam C920".
    public var card: String
    public var driver: String
    /// Where it is attached, e.g. "usb-0000:00:14.0-1".
    public var bus: String
    public var formats: [FormatInfo]
    public var controls: [ControlInfo]
    public var features: CameraFeatures

    public var isTestPattern: Bool { path == Cameras.testDevice }

    public init(path: String, stableName: String? = nil, card: String, driver: String, bus: String,
                formats: [FormatInfo] = [], controls: [ControlInfo] = [], features: CameraFeatures = CameraFeatures()) {
        self.path = path
        self.stableName = stableName
        self.card = card
        self.driver = driver
        self.bus = bus
        self.formats = formats
        self.controls = controls
        self.features = features
    }
}

/// One pixel format a camera offers and the frame sizes and rates it offers it at.
public struct FormatInfo: Sendable {
    public var format: PixelFormat
    /// The driver's description, e.g. "Motion-JPEG".
    public var description: String
    /// Sizes in increasing order, each with its frame rates (fastest first).
    public var sizes: [FrameSize]
    /// A range of sizes instead of a list (stepwise or continuous drivers).
    public var sizeRange: SizeRange?
    /// Offered only through a library's conversion, not by the driver itself.
    public var emulated: Bool

    public init(format: PixelFormat, description: String, sizes: [FrameSize] = [], sizeRange: SizeRange? = nil,
                emulated: Bool = false) {
        self.format = format
        self.description = description
        self.sizes = sizes
        self.sizeRange = sizeRange
        self.emulated = emulated
    }

    /// Whether a frame of `resolution` can be asked for in this format.
    public func offers(_ resolution: Resolution) -> Bool {
        sizes.contains { $0.resolution == resolution } || (sizeRange?.contains(resolution) ?? false)
    }

    /// The largest size offered.
    public var largest: Resolution? {
        let listed = sizes.map(\.resolution).max { $0.pixelCount < $1.pixelCount }
        guard let range = sizeRange else { return listed }
        return listed.map { $0.pixelCount >= range.maximum.pixelCount ? $0 : range.maximum } ?? range.maximum
    }
}

/// A frame size and the frame rates offered at it.
public struct FrameSize: Sendable, Equatable {
    public var resolution: Resolution
    /// Frames per second, fastest first; empty when the driver does not say.
    public var framesPerSecond: [Double]

    public init(resolution: Resolution, framesPerSecond: [Double] = []) {
        self.resolution = resolution
        self.framesPerSecond = framesPerSecond
    }
}

/// Sizes from `minimum` to `maximum` in steps.
public struct SizeRange: Sendable, Equatable {
    public var minimum: Resolution
    public var maximum: Resolution
    public var stepWidth: Int
    public var stepHeight: Int

    public init(minimum: Resolution, maximum: Resolution, stepWidth: Int, stepHeight: Int) {
        self.minimum = minimum
        self.maximum = maximum
        self.stepWidth = max(1, stepWidth)
        self.stepHeight = max(1, stepHeight)
    }

    public func contains(_ size: Resolution) -> Bool {
        (minimum.width...maximum.width).contains(size.width) && (minimum.height...maximum.height).contains(size.height)
            && (size.width - minimum.width) % stepWidth == 0 && (size.height - minimum.height) % stepHeight == 0
    }
}

/// The camera features a shooting session can offer: only those the camera has.
public struct CameraFeatures: Sendable, Equatable {
    /// A flash LED that can strobe (flash class `LED_MODE` offers "Flash").
    public var flash = false
    /// An LED that can stay lit (`LED_MODE` offers "Torch").
    public var torch = false
    /// The node the flash controls live on: the video node itself or a `/dev/v4l-subdevN`.
    public var flashNode: String?
    /// The zoom control's range, when the camera zooms itself; otherwise zoom is a centre crop.
    public var zoomControl: ClosedRange<Int64>?
    /// Autofocus that can be switched on (`FOCUS_AUTO`) or triggered once (`AUTO_FOCUS_START`).
    public var autofocus = false
    /// Manual focus distance (`FOCUS_ABSOLUTE`).
    public var manualFocus = false
    /// UVC 1.5 region of interest (focus on a point).
    public var focusRegion = false

    public init() {}

    /// The flash modes this camera can do, for cycling through them.
    public var flashModes: [FlashMode] {
        var modes: [FlashMode] = [.off]
        if flash || torch { modes += [.on, .auto] }
        if torch { modes.append(.torch) }
        return modes
    }
}
