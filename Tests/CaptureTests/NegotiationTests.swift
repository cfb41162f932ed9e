import Imaging
import Testing
@testable import Capture

@Suite struct NegotiationTests {
    static let small = Resolution(width: 64, height: 32)
    static let large = Resolution(width: 128, height: 64)

    /// A webcam with MJPEG up to 128x64 and YUYV up to 64x32, like most UVC cameras.
    static func webcam(_ configure: (FakeDevice) -> Void = { _ in }) throws -> (FakeHost, FakeDevice) {
        let jpeg = Frames.withoutHuffmanTables(try Frames.jpeg(width: 128, height: 64, color: (200, 30, 30)))
        return FakeHost.withCamera { device in
            device.formats = [(.yuyv, [small]), (.mjpeg, [small, large])]
            device.frame = { _ in device.layout.format.isJPEG ? jpeg : Frames.yuyv(width: 64, height: 32, y: 120) }
            configure(device)
        }
    }

    @Test func prefersJPEGAtTheLargestSize() throws {
        let (host, device) = try Self.webcam()
        let camera = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host)
        #expect(camera.format == .mjpeg)
        #expect(camera.frameSize == Self.large)
        #expect(device.logged("S_FMT") == ["S_FMT MJPG 128x64"])
        #expect(device.logged("S_PARM") == ["S_PARM 1/30"])  // the fastest rate, for quick settling
    }

    @Test func takesTheRequestedSizeAndFormat() throws {
        let (host, device) = try Self.webcam()
        var settings = CaptureSettings()
        settings.format = .yuyv
        settings.resolution = Self.small
        let camera = try Camera.open("0", settings: settings, host: host)
        #expect(camera.format == .yuyv)
        #expect(device.logged("S_FMT") == ["S_FMT YUYV 64x32"])
    }

    @Test func usesWhatTheDriverReturnsWhenItIsAnotherFormat() throws {
        // vivid-like: asked for MJPG, the driver sets YUYV.
        let (host, device) = try Self.webcam { $0.substitutes = [.mjpeg: .yuyv] }
        var settings = CaptureSettings()
        settings.format = .mjpeg
        settings.resolution = Self.small
        settings.settle = .frames(1)
        let camera = try Camera.open("/dev/video0", settings: settings, host: host)
        #expect(camera.format == .yuyv)
        #expect(camera.takeNotes() == ["/dev/video0: asked for MJPG, the driver gives YUYV"])
        let still = try camera.captureStill()
        #expect(still.metadata.format == .yuyv)
        #expect(still.cameraJPEG == nil)
        #expect(still.photo.width == 64 && still.photo.height == 32)
        _ = device
    }

    @Test func skipsACandidateTheDriverWouldTurnIntoSomethingUnusable() throws {
        let (host, device) = try Self.webcam { $0.substitutes = [.mjpeg: PixelFormat(code: "H264")!] }
        device.formats.append((PixelFormat(code: "H264")!, [Self.large]))
        let camera = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host)
        // TRY_FMT showed MJPG would come back as H264, so YUYV was set instead.
        #expect(camera.format == .yuyv)
    }

    @Test func aFormatTheCameraDoesNotOfferIsAnError() throws {
        let (host, _) = try Self.webcam()
        var settings = CaptureSettings()
        settings.format = .rgb24
        #expect(throws: CaptureError.unsupportedFormat("/dev/video0", requested: "RGB24", offered: ["MJPG", "YUYV"])) {
            _ = try Camera.open("/dev/video0", settings: settings, host: host)
        }
    }

    @Test func aSizeTheCameraDoesNotOfferIsAnErrorListingTheSizes() throws {
        let (host, _) = try Self.webcam()
        var settings = CaptureSettings()
        settings.resolution = Resolution(width: 1000, height: 1000)
        #expect(throws: CaptureError.unsupportedResolution("/dev/video0", requested: Resolution(width: 1000, height: 1000),
                                                            offered: ["64x32", "128x64"])) {
            _ = try Camera.open("/dev/video0", settings: settings, host: host)
        }
    }

    @Test func aCameraWithOnlyUnusableFormatsSaysWhatItOffers() throws {
        let (host, _) = FakeHost.withCamera { $0.formats = [(PixelFormat(code: "H264")!, [Self.small])] }
        #expect(throws: CaptureError.unsupportedFormat("/dev/video0", requested: nil, offered: ["H264"])) {
            _ = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host)
        }
    }

    @Test func readsRowsWithTheDriversStride() throws {
        // Each row ends in 24 bytes of padding (0xEE): read as pixels, they would show up as a
        // coloured stripe on the right.
        let (host, _) = FakeHost.withCamera { device in
            device.rowPadding = 24
            device.frame = { _ in Frames.yuyv(width: 64, height: 32, y: 235, padding: 24) }
        }
        var settings = CaptureSettings()
        settings.settle = .frames(0)
        let still = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        for x in [0, 31, 63] {
            let pixel = still.photo.bitmap.rgb(x: x, y: 16)
            #expect(pixel.red == 255 && pixel.green == 255 && pixel.blue == 255, "x=\(x): \(pixel)")
        }
    }
}
