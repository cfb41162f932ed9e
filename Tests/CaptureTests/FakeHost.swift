import Platform
import CV4L2
@testable import Capture

#if canImport(Glibc)
import Glibc
#endif

/// The machine for unit tests: which nodes exist, what opening them does, and a clock.
final class FakeHost: VideoDeviceHost, @unchecked Sendable {
    let clock = FakeClock()
    var devices: [String: any VideoDeviceIO] = [:]
    var openErrors: [String: Int32] = [:]
    var numbers: [String: DeviceNumber] = [:]
    /// 2026-11-29 14:22:33 +08:00
    var wall = (secondsSinceEpoch: 1_795_933_353, utcOffsetMinutes: 480)

    /// A host with one fake camera at /dev/video0.
    static func withCamera(_ configure: (FakeDevice) -> Void = { _ in }) -> (FakeHost, FakeDevice) {
        let host = FakeHost()
        let device = FakeDevice(clock: host.clock)
        configure(device)
        host.devices[device.path] = device
        return (host, device)
    }

    func open(_ path: String, kind: NodeKind) -> Result<any VideoDeviceIO, Errno> {
        if let code = openErrors[path] { return .failure(Errno(code)) }
        guard let device = devices[path] else { return .failure(Errno(ENOENT)) }
        return .success(device)
    }

    func nodes(prefix: String) -> [String] {
        (Array(devices.keys) + Array(openErrors.keys)).filter { $0.hasPrefix("/dev/" + prefix) }.sorted()
    }

    func stableNames() -> [String: String] { ["/dev/video0": "/dev/v4l/by-id/usb-Fake_Cam-video-index0"] }
    func deviceNumber(of path: String) -> DeviceNumber? { numbers[path] }
    func path(of number: DeviceNumber) -> String? { numbers.first { $0.value == number }?.key }
    func now() -> Double { clock.now }
    func wallClock() -> (secondsSinceEpoch: Int, utcOffsetMinutes: Int) { wall }
}
