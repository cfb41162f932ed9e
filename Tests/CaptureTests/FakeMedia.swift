import Platform
import CV4L2
@testable import Capture

#if canImport(Glibc)
import Glibc
#endif

/// A media controller graph with a camera's video interface and a flash LED entity reached
/// through a subdevice interface, answering MEDIA_IOC_G_TOPOLOGY like the kernel (counts first).
final class FakeMedia: VideoDeviceIO {
    let path = "/dev/media0"
    let video: DeviceNumber
    let flash: DeviceNumber

    init(video: DeviceNumber, flash: DeviceNumber) {
        self.video = video
        self.flash = flash
    }

    func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        guard request == sc_MEDIA_IOC_G_TOPOLOGY else { return ENOTTY }
        let topology = argument.assumingMemoryBound(to: media_v2_topology.self)
        var sensor = media_v2_entity(), led = media_v2_entity()
        sensor.id = 1
        led.id = 2
        led.function = UInt32(sc_MEDIA_ENT_F_FLASH)
        var videoInterface = media_v2_interface(), flashInterface = media_v2_interface()
        videoInterface.id = 10
        videoInterface.intf_type = UInt32(sc_MEDIA_INTF_T_V4L_VIDEO)
        videoInterface.devnode = media_v2_intf_devnode(major: video.major, minor: video.minor)
        flashInterface.id = 11
        flashInterface.intf_type = UInt32(sc_MEDIA_INTF_T_V4L_SUBDEV)
        flashInterface.devnode = media_v2_intf_devnode(major: flash.major, minor: flash.minor)
        var toSensor = media_v2_link(), toFlash = media_v2_link()
        toSensor.source_id = 10
        toSensor.sink_id = 1
        toSensor.flags = UInt32(sc_MEDIA_LNK_FL_INTERFACE_LINK)
        toFlash.source_id = 11
        toFlash.sink_id = 2
        toFlash.flags = UInt32(sc_MEDIA_LNK_FL_INTERFACE_LINK)
        Self.fill(topology.pointee.ptr_entities, [sensor, led])
        Self.fill(topology.pointee.ptr_interfaces, [videoInterface, flashInterface])
        Self.fill(topology.pointee.ptr_links, [toSensor, toFlash])
        topology.pointee.num_entities = 2
        topology.pointee.num_interfaces = 2
        topology.pointee.num_links = 2
        return 0
    }

    private static func fill<T>(_ address: UInt64, _ items: [T]) {
        guard let pointer = UnsafeMutablePointer<T>(bitPattern: UInt(address)) else { return }
        for (index, item) in items.enumerated() { pointer[index] = item }
    }

    func poll(milliseconds: Int32, events: inout PollEvents) -> Int32 { ENOTTY }
    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawPointer, Errno> { .failure(Errno(ENOTTY)) }
    func unmap(_ address: UnsafeMutableRawPointer, length: Int) {}
}
