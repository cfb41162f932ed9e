import Platform
import Imaging

/// An open camera — a V4L2 device or the built-in test pattern — that gives preview frames and
/// stills. Owns the device: `close()` (or deinit) stops the stream and switches any light off.
///
/// ```swift
/// let camera = try Camera.open("/dev/video0", settings: settings)
/// let preview = try camera.previewFrame(maxSize: 160)   // as often as the UI wants
/// let still = try camera.captureStill()                 // settle, flash, grab, EXIF
/// camera.close()
/// ```
public final class Camera {
    /// The camera as `stampcam devices` describes it.
    public let info: CameraInfo
    public internal(set) var settings: CaptureSettings
    /// The pixel format and size the driver delivers (before zoom crop and rotation).
    public var format: PixelFormat { source.layout.format }
    public var frameSize: Resolution { source.layout.resolution }

    let source: any FrameSource
    let host: any VideoDeviceHost
    let controls: ControlPanel?
    let flash: FlashController?
    let zoom: ZoomMapping
    var decoder: FrameDecoder { FrameDecoder(device: info.path) }
    /// What was done for focus, for the photo's metadata.
    var focusDone: String?
    private var notes: [String] = []
    private var closed = false

    /// Opens `device` (a path such as `/dev/video0`, a number, or `test`), negotiates the format
    /// and size, and applies zoom and focus. Frames start flowing on the first preview or still.
    public static func open(_ device: String, settings: CaptureSettings = CaptureSettings()) throws(CaptureError) -> Camera {
        try open(device, settings: settings, host: LinuxDeviceHost())
    }

    /// `signals` is where a lit light registers its cleanup (a test passes its own).
    static func open(_ device: String, settings: CaptureSettings, host: any VideoDeviceHost,
                     signals: Signals = .shared) throws(CaptureError) -> Camera {
        if device == Cameras.testDevice {
            let info = TestPatternSource.info
            let choice = try FormatNegotiation(device: device).candidates(info.formats, settings: settings)[0]
            let source = try TestPatternSource(size: choice.resolution, host: host)
            return try Camera(info: info, source: source, host: host, controls: nil, flash: nil, settings: settings, notes: [])
        }
        let catalog = DeviceCatalog(host: host)
        let path = DeviceCatalog.resolve(device)
        let (node, capability) = try catalog.openCamera(path)
        let panels = catalog.controlPanels(node)
        var info = CameraInfo(path: path, stableName: host.stableNames()[path], card: capability.card,
                              driver: capability.driver, bus: capability.bus, formats: node.formats(rates: false),
                              controls: panels.flatMap(\.controls))
        info.features = DeviceCatalog.features(panels)
        let negotiation = FormatNegotiation(device: path)
        let (layout, notes) = try negotiation.negotiate(try negotiation.candidates(info.formats, settings: settings), node: node)
        // The fastest rate at that size: settling and preview need frames quickly.
        if let interval = node.intervals(layout.format, layout.resolution).first {
            node.setFrameInterval(numerator: interval.numerator, denominator: interval.denominator)
        }
        let source = V4L2Stream(node: node, layout: layout, host: host)
        let flash = panels.lazy.compactMap { FlashController(panel: $0, signals: signals) }.first
        return try Camera(info: info, source: source, host: host, controls: panels[0], flash: flash, settings: settings,
                          notes: notes)
    }

    private init(info: CameraInfo, source: any FrameSource, host: any VideoDeviceHost, controls: ControlPanel?,
                 flash: FlashController?, settings: CaptureSettings, notes: [String]) throws(CaptureError) {
        self.info = info
        self.source = source
        self.host = host
        self.controls = controls
        self.flash = flash
        self.settings = settings
        self.notes = notes
        zoom = ZoomMapping(control: info.features.zoomControl)
        if settings.flash == .on || settings.flash == .torch { try checkFlash(settings.flash) }
        setZoom(settings.zoom)
        if let focus = settings.focus { setFocus(focus) }
    }

    deinit { close() }

    /// Stops the stream and switches the light off. The camera cannot be used afterwards.
    public func close() {
        guard !closed else { return }
        closed = true
        flash?.off()
        source.stop()
    }

    /// Notes for the user since the last call: a clamped zoom, a format the driver chose, a
    /// restarted stream, focus the camera cannot do.
    public func takeNotes() -> [String] {
        defer { notes = [] }
        return notes + source.takeNotes()
    }

    func note(_ text: String) { notes.append(text) }

    // MARK: preview

    /// The next frame, zoomed and rotated like a still, fitted within `maxSize` pixels on its
    /// long side: for a live preview a few times a second. The torch stays lit in torch mode.
    public func previewFrame(maxSize: Int) throws(CaptureError) -> Bitmap {
        source.allowRestart()
        if settings.flash == .torch, let flash, !flash.isLit { try flash.torch(true) }
        let decoder = self.decoder
        let factor = zoom.cropFactor(settings.zoom)
        let bitmap = try source.withNextFrame(timeout: settings.frameTimeout) { (frame) throws(CaptureError) in
            try decoder.bitmap(frame, zoom: factor, maxSize: max(1, maxSize))
        }
        return try rotate(bitmap)
    }

    func rotate(_ bitmap: Bitmap) throws(CaptureError) -> Bitmap {
        do { return try bitmap.rotated(clockwise: settings.rotation.rawValue) } catch { throw .outOfMemory(info.path) }
    }
}
