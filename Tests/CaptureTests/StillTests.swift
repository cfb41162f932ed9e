import CV4L2
import Imaging
import Testing
import TestSupport
@testable import Capture

@Suite struct StillTests {
    static func camera(_ configure: (FakeDevice) -> Void = { _ in }) -> (FakeHost, FakeDevice) {
        FakeHost.withCamera { device in
            device.formats = [(.yuyv, [Resolution(width: 64, height: 32)])]
            device.frame = { _ in Frames.yuyv(width: 64, height: 32, y: 120) }
            configure(device)
        }
    }

    @Test func autoSettleWaitsUntilTheBrightnessHolds() throws {
        // Exposure ramps up over 8 frames, then holds.
        let (host, device) = Self.camera { device in
            device.frame = { number in Frames.yuyv(width: 64, height: 32, y: UInt8(40 + min(number, 8) * 20)) }
        }
        let still = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host).captureStill()
        // Frames 8, 9 and 10 are the same: settled after 10, the photo is 11.
        #expect(still.metadata.settledFrames == 10)
        #expect(device.delivered == 11)
        #expect(still.metadata.summary.contains("settle auto (10 frames)"))
    }

    @Test func autoSettleIsBoundedInFramesAndTime() throws {
        // A scene that flickers for ever.
        let (host, device) = Self.camera { device in
            device.frame = { number in Frames.yuyv(width: 64, height: 32, y: number % 2 == 0 ? 40 : 200) }
        }
        let still = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host).captureStill()
        #expect(still.metadata.settledFrames == Settle.autoFrameLimit)  // 60 frames at 30 fps: 2 s
        #expect(device.delivered == Settle.autoFrameLimit + 1)

        device.frameInterval = 0.2  // 5 fps: the 6 s limit comes first
        let slow = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host).captureStill()
        #expect(slow.metadata.settledFrames == 30)
    }

    @Test func aFixedSkipDropsThatManyFrames() throws {
        let (host, device) = Self.camera()
        var settings = CaptureSettings()
        settings.settle = .frames(7)
        _ = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        #expect(device.delivered == 8)
    }

    @Test func theMetadataGoesIntoEXIF() throws {
        let (host, _) = Self.camera()
        var settings = CaptureSettings()
        settings.settle = .frames(1)
        let still = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        let exif = still.photo.metadata
        #expect(exif.dateTimeOriginal == "2026:11:29 14:22:33")
        #expect(exif.offsetTimeOriginal == "+08:00")
        #expect(exif.model == "Fake Cam")
        #expect(still.metadata.summary == "stampcam: /dev/video0 YUYV 64x32, skip 1, flash off, zoom 1")
        // Written out and read back.
        let reread = try Photo(jpeg: try still.jpeg(), options: LoadOptions(maxSize: 0))
        #expect(reread.metadata.dateTimeOriginal == "2026:11:29 14:22:33")
        #expect(reread.metadata.offsetTimeOriginal == "+08:00")
        #expect(reread.width == 64 && reread.height == 32)
    }

    @Test func exifRecordRoundTrips() throws {
        var record = ExifRecord()
        record.make = "Acme"
        record.model = "Cam 1"
        record.artist = "Li Wei"
        record.dateTime = "2026:01:02 03:04:05"
        record.offsetTime = "-03:30"
        record.flash = ExifRecord.flashNotPresent
        let metadata = PhotoMetadata(exif: record.payload(), iccProfile: nil)
        #expect(metadata.exif != nil)
        #expect(metadata.make == "Acme" && metadata.model == "Cam 1" && metadata.artist == "Li Wei")
        #expect(metadata.dateTimeOriginal == "2026:01:02 03:04:05" && metadata.dateTime == "2026:01:02 03:04:05")
        #expect(metadata.offsetTimeOriginal == "-03:30")
        #expect(metadata.warnings.isEmpty)
    }

    @Test func zoomWithoutAZoomControlCropsTheCentreAndClampsAtFour() throws {
        let (host, _) = Self.camera()
        var settings = CaptureSettings()
        settings.settle = .frames(0)
        settings.zoom = 2
        let camera = try Camera.open("/dev/video0", settings: settings, host: host)
        #expect(camera.zoomRange == 1...4 && !camera.zoomsOptically)
        let still = try camera.captureStill()
        #expect(still.photo.width == 32 && still.photo.height == 16)
        #expect(still.metadata.exifRecord.digitalZoomRatio == 2)
        #expect(camera.setZoom(8) == 4)
        #expect(camera.takeNotes() == ["zoom 8 is out of range: the digital zoom (a centre crop) goes from 1 to 4; using 4"])
        // Just past the limit: said as given, not rounded to the limit itself.
        #expect(camera.setZoom(4.0000001) == 4)
        #expect(camera.takeNotes() == ["zoom 4.0000001 is out of range: the digital zoom (a centre crop) goes from 1 to 4; using 4"])
    }

    @Test func zoomWithAZoomControlUsesIt() throws {
        let (host, device) = Self.camera { device in
            device.controls = [.init(id: sc_CID_ZOOM_ABSOLUTE, name: "Zoom, Absolute", minimum: 100, maximum: 500, value: 100)]
        }
        var settings = CaptureSettings()
        settings.settle = .frames(0)
        settings.zoom = 2.5
        let camera = try Camera.open("/dev/video0", settings: settings, host: host)
        #expect(camera.zoomsOptically && camera.zoomRange == 1...5)
        let still = try camera.captureStill()
        #expect(device.logged("SET") == ["SET Zoom, Absolute=250"])
        #expect(still.photo.width == 64)  // the camera zoomed; nothing cropped
        #expect(still.metadata.summary.contains("zoom 2.5 (camera)"))
    }

    @Test func rotationTurnsThePhotoUpright() throws {
        let (host, _) = Self.camera()
        var settings = CaptureSettings()
        settings.settle = .frames(0)
        settings.rotation = .quarter
        let still = try Camera.open("/dev/video0", settings: settings, host: host).captureStill()
        #expect(still.photo.width == 32 && still.photo.height == 64)
        #expect(still.metadata.resolution == Resolution(width: 32, height: 64))
        #expect(still.photo.metadata.orientation == .up)
    }

    @Test func focusUsesAutofocusOrSaysItCannot() throws {
        let (host, device) = Self.camera { device in
            device.controls = [.init(id: sc_CID_FOCUS_AUTO, name: "Focus, Automatic Continuous", type: sc_CTRL_TYPE_BOOLEAN, maximum: 1)]
        }
        var settings = CaptureSettings()
        settings.focus = .point(x: 0.5, y: 0.5)
        let camera = try Camera.open("/dev/video0", settings: settings, host: host)
        #expect(device.logged("SET") == ["SET Focus, Automatic Continuous=1"])
        #expect(camera.takeNotes() == ["/dev/video0: this camera cannot focus on a point; using autofocus"])

        let (plainHost, _) = Self.camera()
        settings.focus = .auto
        let plain = try Camera.open("/dev/video0", settings: settings, host: plainHost)
        #expect(plain.takeNotes() == ["/dev/video0: this camera has no autofocus; the focus asked for is left out"])
    }

    @Test func previewFramesFitTheSizeAsked() throws {
        let (host, _) = FakeHost.withCamera { device in
            device.formats = [(.yuyv, [Resolution(width: 640, height: 360)])]
            device.frame = { _ in Frames.yuyv(width: 640, height: 360, y: 120) }
        }
        let camera = try Camera.open("/dev/video0", settings: CaptureSettings(), host: host)
        let preview = try camera.previewFrame(maxSize: 160)
        #expect(preview.width == 160 && preview.height == 90)
    }

    @Test func theTestPatternBehavesLikeACamera() throws {
        let host = FakeHost()
        #expect(Cameras.defaultDevice(host: host) == (Cameras.testDevice, "no camera found; using the built-in test pattern"))
        var settings = CaptureSettings()
        settings.resolution = Resolution(width: 640, height: 360)
        let camera = try Camera.open("test", settings: settings, host: host)
        #expect(camera.format == .bgrx)
        let first = try camera.previewFrame(maxSize: 640)
        let second = try camera.previewFrame(maxSize: 640)
        // The counter and the square move from frame to frame; the colour bars stay.
        #expect((PixelCompare.meanDifference(first, second) ?? 0) > 0)
        #expect(first.rgb(x: 600, y: 100) == second.rgb(x: 600, y: 100))
        let still = try camera.captureStill()
        #expect(still.photo.width == 640 && still.metadata.camera == "stampcam test pattern")
        let large = try Camera.open("test", settings: CaptureSettings(), host: host)
        #expect(large.frameSize == Resolution(width: 1920, height: 1080))
    }
}
