import CV4L2
import Testing
@testable import Capture

#if canImport(Glibc)
import Glibc
#endif

@Suite struct ErrorTests {
    static func camera(_ configure: (FakeDevice) -> Void = { _ in }) -> (FakeHost, FakeDevice) {
        FakeHost.withCamera { device in
            device.frame = { _ in Frames.yuyv(width: 64, height: 32, y: 120) }
            configure(device)
        }
    }

    static var quick: CaptureSettings {
        var settings = CaptureSettings()
        settings.settle = .frames(3)
        return settings
    }

    static func shoot(_ host: FakeHost, _ device: String = "/dev/video0") throws(CaptureError) -> CapturedStill {
        try Camera.open(device, settings: quick, host: host).captureStill()
    }

    @Test func noSuchDeviceListsTheCamerasThereAre() {
        let (host, _) = Self.camera()
        #expect(throws: CaptureError.noSuchDevice("/dev/video7", available: ["/dev/video0 (Fake Cam)"])) {
            _ = try Self.shoot(host, "/dev/video7")
        }
        #expect(CaptureError.noSuchDevice("/dev/video7", available: []).description
            == "/dev/video7: no such camera (no camera is connected)")
    }

    @Test func permissionDeniedSaysToJoinTheVideoGroup() {
        let (host, _) = Self.camera()
        host.openErrors["/dev/video0"] = EACCES
        #expect(throws: CaptureError.permissionDenied("/dev/video0")) { _ = try Self.shoot(host) }
        #expect(CaptureError.permissionDenied("/dev/video0").description.contains("add yourself to the 'video' group"))
    }

    @Test func busyWhenAnotherProgramHasTheCamera() {
        let (host, device) = Self.camera { $0.failures[sc_VIDIOC_S_FMT] = [EBUSY] }
        #expect(throws: CaptureError.busy("/dev/video0")) { _ = try Self.shoot(host) }
        device.failures[sc_VIDIOC_REQBUFS] = [EBUSY]
        #expect(throws: CaptureError.busy("/dev/video0")) { _ = try Self.shoot(host) }
    }

    @Test func aMetadataNodeIsNotACaptureDeviceAndIsNotListed() {
        let (host, _) = Self.camera()
        let metadata = FakeDevice(path: "/dev/video1", clock: host.clock)
        metadata.capabilities = UInt32(sc_CAP_META_CAPTURE | sc_CAP_STREAMING)
        host.devices[metadata.path] = metadata
        #expect(throws: CaptureError.notACaptureDevice("/dev/video1")) { _ = try Self.shoot(host, "/dev/video1") }
        let listed = Cameras.list(host: host)
        #expect(listed.cameras.map(\.path) == ["/dev/video0"])
        #expect(listed.cameras.first?.stableName == "/dev/v4l/by-id/usb-Fake_Cam-video-index0")
        #expect(listed.problems.isEmpty)
    }

    @Test func unpluggedMidCaptureByENODEVOrHangUp() {
        let (host, device) = Self.camera { $0.failures[sc_VIDIOC_DQBUF] = [ENODEV] }
        #expect(throws: CaptureError.unplugged("/dev/video0")) { _ = try Self.shoot(host) }
        device.hungUp = true
        #expect(throws: CaptureError.unplugged("/dev/video0")) { _ = try Self.shoot(host) }
    }

    @Test func oneFatalStreamingErrorRestartsTheStreamOnce() throws {
        let (host, device) = Self.camera { $0.failures[sc_VIDIOC_DQBUF] = [EIO] }
        let camera = try Camera.open("/dev/video0", settings: Self.quick, host: host)
        let still = try camera.captureStill()
        #expect(still.photo.width == 64)
        #expect(device.log.filter { $0 == "STREAMON" || $0 == "STREAMOFF" } == ["STREAMON", "STREAMOFF", "STREAMON"])
        #expect(camera.takeNotes() == ["/dev/video0: the camera reported a streaming error; the stream was restarted"])
    }

    @Test func aSecondFatalStreamingErrorIsAnError() throws {
        let (host, device) = Self.camera()
        let camera = try Camera.open("/dev/video0", settings: Self.quick, host: host)
        device.failures[sc_VIDIOC_DQBUF] = [EIO, EIO]
        #expect(throws: CaptureError.streamingFailed("/dev/video0")) { _ = try camera.captureStill() }
        // Each capture gets its own restart.
        device.failures[sc_VIDIOC_DQBUF] = [EIO]
        #expect(throws: Never.self) { _ = try camera.captureStill() }
    }

    @Test func noFrameWithinTheTimeout() throws {
        let (host, _) = Self.camera { $0.silent = true }
        var settings = Self.quick
        settings.frameTimeout = 2
        #expect(throws: CaptureError.timeout("/dev/video0", seconds: 2)) {
            _ = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        }
        #expect(CaptureError.timeout("/dev/video0", seconds: 2).description.hasPrefix("/dev/video0: no frame from the camera within 2 s"))
    }

    @Test func interruptedCallsAreRetried() throws {
        let (host, device) = Self.camera {
            $0.failures[sc_VIDIOC_DQBUF] = [EINTR, EINTR]
            $0.failures[sc_VIDIOC_S_FMT] = [EINTR]
            $0.pollScript = [nil, nil]
        }
        let still = try Self.shoot(host)
        #expect(still.photo.width == 64)
        #expect(device.logged("FAIL").count == 3)
        #expect(device.pollScript.isEmpty)
    }

    @Test func emptyAndBrokenFramesAreDropped() throws {
        let (host, device) = FakeHost.withCamera { device in
            device.frame = { number in number == 2 ? nil : Frames.yuyv(width: 64, height: 32, y: number == 5 ? 235 : 16) }
            device.errorFrames = [4]
        }
        var settings = CaptureSettings()
        settings.settle = .frames(2)  // frames 1 and 3: 2 is empty
        let still = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        #expect(still.photo.bitmap.rgb(x: 10, y: 10).red == 255)  // frame 5: 4 carried the error flag
        #expect(device.delivered == 5)

        device.errorFrames = Set(1...100)
        #expect(throws: CaptureError.badFrames("/dev/video0", detail: "30 frames in a row were empty or flagged as broken")) {
            _ = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        }
    }
}
