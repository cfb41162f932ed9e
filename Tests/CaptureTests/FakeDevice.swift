import Platform
import CV4L2
import Imaging
@testable import Capture

#if canImport(Glibc)
import Glibc
#endif

/// A scripted V4L2 camera behind `VideoDeviceIO`: formats, sizes, controls, a buffer queue that
/// delivers scripted frames, and injectable errno failures per ioctl. Every call is logged.
final class FakeDevice: VideoDeviceIO {
    struct Control {
        var id: UInt32
        var name: String
        var type: Int = sc_CTRL_TYPE_INTEGER
        var minimum: Int64 = 0
        var maximum: Int64 = 255
        var step: UInt64 = 1
        var value: Int64 = 0
        var menu: [(index: Int64, label: String)] = []
        var flags: UInt32 = 0
    }

    let path: String
    let clock: FakeClock
    var capabilities = UInt32(sc_CAP_VIDEO_CAPTURE | sc_CAP_STREAMING)
    var card = "Fake Cam"
    var formats: [(format: PixelFormat, sizes: [Resolution])] = [(.yuyv, [Resolution(width: 64, height: 32)])]
    /// Frame intervals offered at every size (seconds per frame as numerator/denominator).
    var intervals: [(UInt32, UInt32)] = [(1, 15), (1, 30)]
    /// What the driver gives instead of a requested format (vivid turns MJPG into YUYV).
    var substitutes: [PixelFormat: PixelFormat] = [:]
    /// Extra bytes at the end of each row.
    var rowPadding = 0
    var controls: [Control] = []
    /// Errno values the next calls of a request fail with, in order.
    var failures: [UInt: [Int32]] = [:]
    /// Poll answers to give before the normal ones (`nil` = an EINTR from poll itself).
    var pollScript: [PollEvents?] = []
    /// Poll reports a hang-up (unplugged) from now on.
    var hungUp = false
    /// No frame ever arrives.
    var silent = false
    /// Frame number (from 1) → bytes; nil means the frame is empty.
    var frame: (Int) -> [UInt8]? = { _ in nil }
    /// Frame numbers delivered with V4L2_BUF_FLAG_ERROR.
    var errorFrames: Set<Int> = []
    /// How long before it is dequeued a frame was exposed (buffers wait in the queue).
    var frameAge = 1.5 / 30
    /// Seconds between frames (the fake clock moves this much per dequeue).
    var frameInterval = 1.0 / 30

    private(set) var log: [String] = []
    private(set) var layout = FrameLayout(format: .yuyv, width: 64, height: 32, bytesPerLine: 128, imageSize: 4096)
    private var buffers: [UnsafeMutableRawPointer] = []
    private var queued: [Int] = []
    private var streaming = false
    private(set) var delivered = 0

    init(path: String = "/dev/video0", clock: FakeClock) {
        self.path = path
        self.clock = clock
    }

    deinit { for buffer in buffers { free(buffer) } }

    func logged(_ prefix: String) -> [String] { log.filter { $0.hasPrefix(prefix) } }

    // MARK: VideoDeviceIO

    func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        if var pending = failures[request], !pending.isEmpty {
            let code = pending.removeFirst()
            failures[request] = pending
            log.append("FAIL \(Self.name(request)) \(code)")
            return code
        }
        switch request {
        case sc_VIDIOC_QUERYCAP: return querycap(argument.assumingMemoryBound(to: v4l2_capability.self))
        case sc_VIDIOC_ENUM_FMT: return enumFormat(argument.assumingMemoryBound(to: v4l2_fmtdesc.self))
        case sc_VIDIOC_ENUM_FRAMESIZES: return enumSize(argument.assumingMemoryBound(to: v4l2_frmsizeenum.self))
        case sc_VIDIOC_ENUM_FRAMEINTERVALS: return enumInterval(argument.assumingMemoryBound(to: v4l2_frmivalenum.self))
        case sc_VIDIOC_TRY_FMT, sc_VIDIOC_S_FMT:
            return format(argument.assumingMemoryBound(to: v4l2_format.self), set: request == sc_VIDIOC_S_FMT)
        case sc_VIDIOC_G_PARM:
            argument.assumingMemoryBound(to: v4l2_streamparm.self).pointee.parm.capture.capability = UInt32(sc_CAP_TIMEPERFRAME)
            return 0
        case sc_VIDIOC_S_PARM:
            let interval = argument.assumingMemoryBound(to: v4l2_streamparm.self).pointee.parm.capture.timeperframe
            log.append("S_PARM \(interval.numerator)/\(interval.denominator)")
            return 0
        case sc_VIDIOC_REQBUFS: return requestBuffers(argument.assumingMemoryBound(to: v4l2_requestbuffers.self))
        case sc_VIDIOC_QUERYBUF:
            let buffer = argument.assumingMemoryBound(to: v4l2_buffer.self)
            buffer.pointee.length = UInt32(layout.imageSize)
            buffer.pointee.m.offset = buffer.pointee.index * 0x10000
            return 0
        case sc_VIDIOC_QBUF:
            queued.append(Int(argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index))
            return 0
        case sc_VIDIOC_DQBUF: return dequeue(argument.assumingMemoryBound(to: v4l2_buffer.self))
        case sc_VIDIOC_STREAMON:
            streaming = true
            log.append("STREAMON")
            return 0
        case sc_VIDIOC_STREAMOFF:
            streaming = false
            queued = []
            log.append("STREAMOFF")
            return 0
        case sc_VIDIOC_QUERY_EXT_CTRL: return queryControl(argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self))
        case sc_VIDIOC_QUERYMENU: return queryMenu(argument.assumingMemoryBound(to: v4l2_querymenu.self))
        case sc_VIDIOC_G_EXT_CTRLS, sc_VIDIOC_S_EXT_CTRLS:
            return extControls(argument.assumingMemoryBound(to: v4l2_ext_controls.self), set: request == sc_VIDIOC_S_EXT_CTRLS)
        default:
            return ENOTTY
        }
    }

    func poll(milliseconds: Int32, events: inout PollEvents) -> Int32 {
        if !pollScript.isEmpty {
            guard let scripted = pollScript.removeFirst() else { return EINTR }
            events = scripted
            return 0
        }
        if hungUp {
            events = [.hangUp, .error]
        } else if silent || !streaming || queued.isEmpty {
            clock.advance(Double(milliseconds) / 1000)
            events = []
        } else {
            events = .readable
        }
        return 0
    }

    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawPointer, Errno> {
        let index = offset / 0x10000
        guard buffers.indices.contains(index) else { return .failure(Errno(EINVAL)) }
        return .success(buffers[index])
    }

    func unmap(_ address: UnsafeMutableRawPointer, length: Int) { log.append("munmap") }

    // MARK: ioctls

    private func querycap(_ capability: UnsafeMutablePointer<v4l2_capability>) -> Int32 {
        Self.copy(card, into: &capability.pointee.card)
        Self.copy("fake", into: &capability.pointee.driver)
        Self.copy("usb-fake-1", into: &capability.pointee.bus_info)
        capability.pointee.capabilities = capabilities | UInt32(sc_CAP_DEVICE_CAPS)
        capability.pointee.device_caps = capabilities
        return 0
    }

    private func enumFormat(_ description: UnsafeMutablePointer<v4l2_fmtdesc>) -> Int32 {
        let index = Int(description.pointee.index)
        guard formats.indices.contains(index) else { return EINVAL }
        description.pointee.pixelformat = formats[index].format.fourcc
        Self.copy("fake \(formats[index].format.code)", into: &description.pointee.description)
        return 0
    }

    private func enumSize(_ size: UnsafeMutablePointer<v4l2_frmsizeenum>) -> Int32 {
        let index = Int(size.pointee.index)
        guard let entry = formats.first(where: { $0.format.fourcc == size.pointee.pixel_format }),
              entry.sizes.indices.contains(index) else { return EINVAL }
        size.pointee.type = UInt32(sc_FRMSIZE_TYPE_DISCRETE)
        size.pointee.discrete.width = UInt32(entry.sizes[index].width)
        size.pointee.discrete.height = UInt32(entry.sizes[index].height)
        return 0
    }

    private func enumInterval(_ interval: UnsafeMutablePointer<v4l2_frmivalenum>) -> Int32 {
        let index = Int(interval.pointee.index)
        guard intervals.indices.contains(index) else { return EINVAL }
        interval.pointee.type = UInt32(sc_FRMIVAL_TYPE_DISCRETE)
        interval.pointee.discrete = v4l2_fract(numerator: intervals[index].0, denominator: intervals[index].1)
        return 0
    }

    private func format(_ request: UnsafeMutablePointer<v4l2_format>, set: Bool) -> Int32 {
        let asked = PixelFormat(fourcc: request.pointee.fmt.pix.pixelformat)
        let given = substitutes[asked] ?? asked
        guard let entry = formats.first(where: { $0.format == given }) ?? formats.first else { return EINVAL }
        let size = Resolution(width: Int(request.pointee.fmt.pix.width), height: Int(request.pointee.fmt.pix.height))
        let chosen = entry.sizes.contains(size) ? size : entry.sizes[0]
        let bytesPerPixel = FrameConverter.packedBytesPerPixel(entry.format) ?? 0
        let stride = bytesPerPixel == 0 ? 0 : chosen.width * bytesPerPixel + rowPadding
        var imageSize = stride * chosen.height
        if entry.format == .nv12 || entry.format == .yuv420 { imageSize += imageSize / 2 }
        if entry.format.isJPEG { imageSize = chosen.width * chosen.height * 2 }
        request.pointee.fmt.pix.pixelformat = entry.format.fourcc
        request.pointee.fmt.pix.width = UInt32(chosen.width)
        request.pointee.fmt.pix.height = UInt32(chosen.height)
        request.pointee.fmt.pix.bytesperline = UInt32(stride)
        request.pointee.fmt.pix.sizeimage = UInt32(imageSize)
        if set {
            layout = FrameLayout(format: entry.format, width: chosen.width, height: chosen.height, bytesPerLine: stride,
                                 imageSize: imageSize)
            log.append("S_FMT \(asked.code) \(size)")
        }
        return 0
    }

    private func requestBuffers(_ request: UnsafeMutablePointer<v4l2_requestbuffers>) -> Int32 {
        for buffer in buffers { free(buffer) }
        buffers = (0..<Int(min(request.pointee.count, 4))).map { _ in malloc(max(1, layout.imageSize))! }
        request.pointee.count = UInt32(buffers.count)
        log.append("REQBUFS \(buffers.count)")
        return 0
    }

    private func dequeue(_ buffer: UnsafeMutablePointer<v4l2_buffer>) -> Int32 {
        guard streaming else { return EINVAL }
        guard !queued.isEmpty else { return EAGAIN }
        let index = queued.removeFirst()
        delivered += 1
        clock.advance(frameInterval)
        let bytes = frame(delivered) ?? []
        let used = min(bytes.count, layout.imageSize)
        bytes.withUnsafeBytes { buffers[index].copyMemory(from: $0.baseAddress!, byteCount: used) }
        buffer.pointee.index = UInt32(index)
        buffer.pointee.bytesused = UInt32(used)
        buffer.pointee.sequence = UInt32(delivered)
        buffer.pointee.flags = UInt32(sc_BUF_FLAG_TIMESTAMP_MONOTONIC) | (errorFrames.contains(delivered) ? UInt32(sc_BUF_FLAG_ERROR) : 0)
        let exposed = clock.now - frameAge
        buffer.pointee.timestamp = timeval(tv_sec: Int(exposed), tv_usec: Int((exposed - exposed.rounded(.down)) * 1_000_000))
        log.append("DQBUF \(delivered)")
        return 0
    }

    private func queryControl(_ query: UnsafeMutablePointer<v4l2_query_ext_ctrl>) -> Int32 {
        let requested = query.pointee.id
        let next = requested & sc_CTRL_FLAG_NEXT_CTRL != 0
        let id = requested & ~sc_CTRL_FLAG_NEXT_CTRL
        let sorted = controls.sorted { $0.id < $1.id }
        guard let control = next ? sorted.first(where: { $0.id > id }) : sorted.first(where: { $0.id == id }) else {
            return EINVAL
        }
        query.pointee = v4l2_query_ext_ctrl()
        query.pointee.id = control.id
        query.pointee.type = UInt32(control.type)
        Self.copy(control.name, into: &query.pointee.name)
        query.pointee.minimum = control.minimum
        query.pointee.maximum = control.maximum
        query.pointee.step = control.step
        query.pointee.flags = control.flags
        return 0
    }

    private func queryMenu(_ entry: UnsafeMutablePointer<v4l2_querymenu>) -> Int32 {
        guard let control = controls.first(where: { $0.id == entry.pointee.id }),
              let item = control.menu.first(where: { $0.index == Int64(entry.pointee.index) }) else { return EINVAL }
        Self.copy(item.label, into: &entry.pointee.name)
        return 0
    }

    private func extControls(_ request: UnsafeMutablePointer<v4l2_ext_controls>, set: Bool) -> Int32 {
        for index in 0..<Int(request.pointee.count) {
            let control = request.pointee.controls.advanced(by: index)
            guard let position = controls.firstIndex(where: { $0.id == control.pointee.id }) else { return EINVAL }
            if set {
                let value = Int64(control.pointee.value)
                if controls[position].flags & UInt32(sc_CTRL_FLAG_READ_ONLY) != 0 { return EACCES }
                controls[position].value = value
                log.append("SET \(controls[position].name)=\(value)")
            } else {
                control.pointee.value = Int32(truncatingIfNeeded: controls[position].value)
                log.append("GET \(controls[position].name)")
            }
        }
        return 0
    }

    // MARK: helpers

    static func copy<Tuple>(_ text: String, into tuple: inout Tuple) {
        withUnsafeMutableBytes(of: &tuple) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            for (index, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
    }

    static func name(_ request: UInt) -> String {
        let names: [UInt: String] = [
            sc_VIDIOC_S_FMT: "S_FMT", sc_VIDIOC_REQBUFS: "REQBUFS", sc_VIDIOC_DQBUF: "DQBUF", sc_VIDIOC_QBUF: "QBUF",
            sc_VIDIOC_STREAMON: "STREAMON", sc_VIDIOC_QUERYCAP: "QUERYCAP", sc_VIDIOC_S_EXT_CTRLS: "S_EXT_CTRLS",
        ]
        return names[request] ?? String(request, radix: 16)
    }
}

/// A monotonic and wall clock that only moves when the fake says so.
final class FakeClock: @unchecked Sendable {
    var now = 1000.0
    func advance(_ seconds: Double) { now += seconds }
}
