import CV4L2
import Imaging
@testable import Platform
import Testing

#if canImport(Glibc)
import Glibc
import Values
#endif
@testable import Capture

@Suite struct FlashTests {
    /// A camera whose flash LED is a subdevice found through the media controller.
    static func cameraWithFlashLED(torchOnly: Bool = false, brightness: UInt8 = 120,
                                   faults: Int64 = 0) -> (FakeHost, camera: FakeDevice, led: FakeDevice) {
        let (host, camera) = FakeHost.withCamera { device in
            device.frame = { _ in Frames.yuyv(width: 64, height: 32, y: brightness) }
        }
        let led = FakeDevice(path: "/dev/v4l-subdev0", clock: host.clock)
        var menu: [(index: Int64, label: String)] = [(0, "Off"), (1, "Flash"), (2, "Torch")]
        if torchOnly { menu.remove(at: 1) }
        led.controls = [
            .init(id: sc_CID_FLASH_LED_MODE, name: "LED Mode", type: sc_CTRL_TYPE_MENU, minimum: 0, maximum: 2, menu: menu),
            .init(id: sc_CID_FLASH_STROBE_SOURCE, name: "Strobe Source", type: sc_CTRL_TYPE_MENU, minimum: 0, maximum: 1,
                  menu: [(0, "Software"), (1, "External")]),
            .init(id: sc_CID_FLASH_STROBE, name: "Strobe", type: sc_CTRL_TYPE_BUTTON),
            .init(id: sc_CID_FLASH_STROBE_STOP, name: "Stop Strobe", type: sc_CTRL_TYPE_BUTTON),
            .init(id: sc_CID_FLASH_TIMEOUT, name: "Strobe Timeout", minimum: 1000, maximum: 800_000, step: 1000),
            .init(id: sc_CID_FLASH_FAULT, name: "Faults", type: sc_CTRL_TYPE_BITMASK, maximum: 0x3FF, value: faults,
                  flags: UInt32(sc_CTRL_FLAG_READ_ONLY)),
            .init(id: sc_CID_FLASH_READY, name: "Ready to Strobe", type: sc_CTRL_TYPE_BOOLEAN, maximum: 1, value: 1,
                  flags: UInt32(sc_CTRL_FLAG_READ_ONLY)),
        ]
        let videoNumber = DeviceNumber(major: 81, minor: 0), ledNumber = DeviceNumber(major: 81, minor: 5)
        host.devices[led.path] = led
        host.devices["/dev/media0"] = FakeMedia(video: videoNumber, flash: ledNumber)
        host.numbers = ["/dev/video0": videoNumber, led.path: ledNumber]
        return (host, camera, led)
    }

    static func settings(_ flash: FlashMode, skip: Int = 2) -> CaptureSettings {
        var settings = CaptureSettings()
        settings.flash = flash
        settings.settle = .frames(skip)
        return settings
    }

    /// The LED's control writes, in order.
    static func writes(_ led: FakeDevice) -> [String] { led.logged("SET") }

    @Test func findsTheFlashLEDThroughTheMediaController() throws {
        let (host, _, _) = Self.cameraWithFlashLED()
        let info = try Cameras.describe("/dev/video0", host: host)
        #expect(info.features.flash && info.features.torch)
        #expect(info.features.flashNode == "/dev/v4l-subdev0")
        #expect(info.features.flashModes == [.off, .on, .auto, .torch])
        #expect(info.controls.contains { $0.key == "led_mode" && $0.node == "/dev/v4l-subdev0" })
    }

    @Test func strobesInOrderAndTakesTheFirstFrameExposedAfterIt() throws {
        let (host, camera, led) = Self.cameraWithFlashLED()
        let still = try Camera.open("/dev/video0", settings: Self.settings(.on), host: host).captureStill()
        #expect(Self.writes(led) == [
            "SET LED Mode=1", "SET Strobe Source=0", "SET Strobe Timeout=500000", "SET Strobe=1",
            "SET Stop Strobe=1", "SET LED Mode=0",
        ])
        // Faults are read when the controls are listed, before arming and after the strobe.
        #expect(led.logged("GET Faults").count == 3)
        // 2 settle frames, then the frame dequeued right after the strobe was exposed before it
        // (the fake's frames are 1.5/30 s old) and is dropped: the photo is frame 4.
        #expect(camera.delivered == 4)
        #expect(still.metadata.flashFired)
        #expect(still.metadata.exifRecord.flash == 0x09)  // fired, compulsory
    }

    @Test func aFaultBeforeTheStrobeIsAnErrorAndTheLEDStaysOff() throws {
        let overTemperature = Int64(sc_FLASH_FAULT_OVER_TEMPERATURE)
        let (host, _, led) = Self.cameraWithFlashLED(faults: overTemperature)
        let camera = try Camera.open("/dev/video0", settings: Self.settings(.on), host: host)
        #expect(throws: CaptureError.flashFault("/dev/v4l-subdev0", faults: ["over-temperature"])) {
            _ = try camera.captureStill()
        }
        #expect(!Self.writes(led).contains("SET Strobe=1"))
        #expect(!Self.writes(led).contains("SET LED Mode=1"))
    }

    @Test func theTorchIsLitForSettlingAndSwitchedOffWhenCaptureFails() throws {
        let (host, camera, led) = Self.cameraWithFlashLED()
        let device = try Camera.open("/dev/video0", settings: Self.settings(.torch, skip: 5), host: host)
        camera.pollScript = [.readable, .hangUp]  // unplugged during the second settle frame
        #expect(throws: CaptureError.unplugged("/dev/video0")) { _ = try device.captureStill() }
        // Torch mode keeps the light for the preview; closing the camera puts it out.
        #expect(Self.writes(led) == ["SET LED Mode=2"])
        device.close()
        #expect(Self.writes(led) == ["SET LED Mode=2", "SET LED Mode=0"])
        #expect(camera.delivered == 1)
        #expect(camera.log.firstIndex(of: "DQBUF 1")! > camera.log.firstIndex(of: "STREAMON")!)
    }

    @Test func aTorchOnlyLEDLightsForOneShotWithFlashOn() throws {
        let (host, _, led) = Self.cameraWithFlashLED(torchOnly: true)
        let camera = try Camera.open("/dev/video0", settings: Self.settings(.on), host: host)
        #expect(camera.flashModes == [.off, .on, .auto, .torch])
        let still = try camera.captureStill()
        #expect(Self.writes(led) == ["SET LED Mode=2", "SET LED Mode=0"])
        #expect(still.metadata.flashFired)
    }

    @Test func aTorchLitForOneShotGoesOffWhenTheCaptureFails() throws {
        let (host, camera, led) = Self.cameraWithFlashLED(torchOnly: true)
        let device = try Camera.open("/dev/video0", settings: Self.settings(.on), host: host)
        camera.failures[sc_VIDIOC_DQBUF] = [ENODEV]
        #expect(throws: CaptureError.unplugged("/dev/video0")) { _ = try device.captureStill() }
        #expect(Self.writes(led) == ["SET LED Mode=2", "SET LED Mode=0"])  // off without waiting for close()
    }

    @Test func autoFiresOnlyInTheDark() throws {
        let (brightHost, _, brightLED) = Self.cameraWithFlashLED(brightness: 180)
        let bright = try Camera.open("/dev/video0", settings: Self.settings(.auto), host: brightHost).captureStill()
        #expect(!bright.metadata.flashFired)
        #expect(Self.writes(brightLED).isEmpty)

        let (darkHost, _, darkLED) = Self.cameraWithFlashLED(brightness: 20)
        let dark = try Camera.open("/dev/video0", settings: Self.settings(.auto), host: darkHost).captureStill()
        #expect(dark.metadata.flashFired)
        #expect(Self.writes(darkLED).contains("SET Strobe=1"))
    }

    @Test func withoutAFlashOnAndTorchAreErrorsAndAutoDoesNothing() throws {
        let (host, _) = FakeHost.withCamera { device in
            device.frame = { _ in Frames.yuyv(width: 64, height: 32, y: 20) }
        }
        #expect(throws: CaptureError.noFlash("/dev/video0", mode: .on)) {
            _ = try Camera.open("/dev/video0", settings: Self.settings(.on), host: host)
        }
        #expect(throws: CaptureError.noFlash("/dev/video0", mode: .torch)) {
            _ = try Camera.open("/dev/video0", settings: Self.settings(.torch), host: host)
        }
        let still = try Camera.open("/dev/video0", settings: Self.settings(.auto), host: host).captureStill()
        #expect(!still.metadata.flashFired)
    }

    @Test("SIGHUP and SIGTERM switch a lit torch off before the process ends", arguments: [Signals.Signal.hangUp, .terminate])
    func signalSwitchesTheTorchOff(signal: Signals.Signal) throws {
        let (host, _, led) = Self.cameraWithFlashLED()
        let signals = Signals()
        let camera = try Camera.open("/dev/video0", settings: Self.settings(.torch), host: host, signals: signals)
        _ = try camera.previewFrame(maxSize: 32)  // torch mode lights the LED for the viewfinder
        #expect(Self.writes(led) == ["SET LED Mode=2"])
        var ended: Signals.Signal?
        signals.deliver(signal) { ended = $0 }
        #expect(ended == signal)
        #expect(Self.writes(led) == ["SET LED Mode=2", "SET LED Mode=0"])
        withExtendedLifetime(camera) {}
    }
}
