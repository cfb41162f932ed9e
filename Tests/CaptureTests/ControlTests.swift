import CV4L2
import Testing
@testable import Capture

@Suite struct ControlTests {
    static func camera() -> FakeHost {
        FakeHost.withCamera { device in
            device.controls = [
                .init(id: 0x0098_0900, name: "Brightness", minimum: 0, maximum: 255, value: 128),
                .init(id: 0x009A_0901, name: "Auto Exposure", type: sc_CTRL_TYPE_MENU, minimum: 0, maximum: 3, value: 3,
                      menu: [(1, "Manual Mode"), (3, "Aperture Priority Mode")]),
                .init(id: 0x0098_090C, name: "White Balance, Automatic", type: sc_CTRL_TYPE_BOOLEAN, maximum: 1, value: 1),
                .init(id: 0x00F0_F041, name: "Disconnect", type: sc_CTRL_TYPE_BUTTON),
                .init(id: 0x0098_0920, name: "Gain", flags: UInt32(sc_CTRL_FLAG_READ_ONLY)),
            ]
        }.0
    }

    @Test func describesControlsWithMenusAndValues() throws {
        let info = try Cameras.describe("/dev/video0", host: Self.camera())
        let exposure = try #require(info.controls.first { $0.key == "auto_exposure" })
        #expect(exposure.menu.map(\.label) == ["Manual Mode", "Aperture Priority Mode"])
        #expect(exposure.valueText == "Aperture Priority Mode")
        #expect(info.controls.first { $0.key == "disconnect" }?.value == nil)
    }

    @Test func setsByKeyNameLabelOrID() throws {
        let host = Self.camera()
        let set = try Cameras.setControls("/dev/video0", [
            ("brightness", "140"), ("Auto Exposure", "manual mode"), ("white_balance_automatic", "off"), ("0x00f0f041", "1"),
        ], host: host)
        #expect(set.map(\.valueText) == ["140", "Manual Mode", "off", nil])
        let device = try #require(host.devices["/dev/video0"] as? FakeDevice)
        #expect(device.logged("SET") == ["SET Brightness=140", "SET Auto Exposure=1", "SET White Balance, Automatic=0", "SET Disconnect=1"])
    }

    @Test func explainsWhatCannotBeSet() {
        let host = Self.camera()
        #expect(throws: CaptureError.control("/dev/video0", name: "brightness", problem: "300 is out of range 0 to 255")) {
            _ = try Cameras.setControls("/dev/video0", [("brightness", "300")], host: host)
        }
        #expect(throws: CaptureError.control("/dev/video0", name: "auto_exposure",
                                              problem: "'auto' is not one of 1=Manual Mode, 3=Aperture Priority Mode")) {
            _ = try Cameras.setControls("/dev/video0", [("auto_exposure", "auto")], host: host)
        }
        #expect(throws: CaptureError.control("/dev/video0", name: "gain", problem: "read-only")) {
            _ = try Cameras.setControls("/dev/video0", [("gain", "3")], host: host)
        }
        #expect(throws: CaptureError.control("/dev/video0", name: "zoom", problem:
            "no such control (this camera has: brightness, white_balance_automatic, auto_exposure, disconnect)")) {
            _ = try Cameras.setControls("/dev/video0", [("zoom", "3")], host: host)
        }
    }

    @Test func keysFollowV4L2CtlSpelling() {
        #expect(ControlInfo(id: 1, name: "Exposure, Auto Priority", kind: .boolean).key == "exposure_auto_priority")
        #expect(ControlInfo(id: 1, name: "Focus, Absolute", kind: .integer).key == "focus_absolute")
    }
}
