import Platform
import CV4L2

/// Typed V4L2 queries on one open node: C structs in, Swift values out. Every call goes through
/// the node's `VideoDeviceIO`.
struct V4L2Node {
    let io: any VideoDeviceIO
    var path: String { io.path }

    struct Capability {
        var driver: String
        var card: String
        var bus: String
        /// The node's own capabilities (device_caps when the driver reports them).
        var flags: UInt32

        var capturesVideo: Bool { flags & UInt32(sc_CAP_VIDEO_CAPTURE) != 0 }
        var streams: Bool { flags & UInt32(sc_CAP_STREAMING) != 0 }
    }

    func capability() throws(Errno) -> Capability {
        var capability = v4l2_capability()
        try io.call(sc_VIDIOC_QUERYCAP, &capability)
        let flags = capability.capabilities & UInt32(sc_CAP_DEVICE_CAPS) != 0
            ? capability.device_caps : capability.capabilities
        return Capability(driver: cText(capability.driver), card: cText(capability.card),
                          bus: cText(capability.bus_info), flags: flags)
    }

    /// The capture formats, each with its sizes; with `rates`, each discrete size's frame rates too.
    func formats(rates: Bool) -> [FormatInfo] {
        var formats: [FormatInfo] = []
        // Drivers end each list with EINVAL; the bound only guards against a broken one.
        for index in 0..<UInt32(512) {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
            guard (try? io.call(sc_VIDIOC_ENUM_FMT, &description)) != nil else { break }
            let format = PixelFormat(fourcc: description.pixelformat)
            var info = FormatInfo(format: format, description: cText(description.description),
                                  emulated: description.flags & UInt32(sc_FMT_FLAG_EMULATED) != 0)
            frameSizes(format, into: &info, rates: rates)
            formats.append(info)
        }
        return formats
    }

    private func frameSizes(_ format: PixelFormat, into info: inout FormatInfo, rates: Bool) {
        for index in 0..<UInt32(512) {
            var size = v4l2_frmsizeenum()
            size.index = index
            size.pixel_format = format.fourcc
            guard (try? io.call(sc_VIDIOC_ENUM_FRAMESIZES, &size)) != nil else { break }
            if size.type == UInt32(sc_FRMSIZE_TYPE_DISCRETE) {
                let resolution = Resolution(width: Int(size.discrete.width), height: Int(size.discrete.height))
                let fps = rates ? intervals(format, resolution).map { Double($0.denominator) / Double($0.numerator) } : []
                info.sizes.append(FrameSize(resolution: resolution, framesPerSecond: fps))
            } else {
                let stepwise = size.stepwise
                info.sizeRange = SizeRange(
                    minimum: Resolution(width: Int(stepwise.min_width), height: Int(stepwise.min_height)),
                    maximum: Resolution(width: Int(stepwise.max_width), height: Int(stepwise.max_height)),
                    stepWidth: Int(stepwise.step_width), stepHeight: Int(stepwise.step_height))
                break
            }
        }
        info.sizes.sort { $0.resolution.pixelCount < $1.resolution.pixelCount }
    }

    /// Frame intervals (seconds per frame as a fraction) at a size, shortest first.
    func intervals(_ format: PixelFormat, _ resolution: Resolution) -> [(numerator: UInt32, denominator: UInt32)] {
        var found: [(numerator: UInt32, denominator: UInt32)] = []
        for index in 0..<UInt32(64) {
            var interval = v4l2_frmivalenum()
            interval.index = index
            interval.pixel_format = format.fourcc
            interval.width = UInt32(resolution.width)
            interval.height = UInt32(resolution.height)
            guard (try? io.call(sc_VIDIOC_ENUM_FRAMEINTERVALS, &interval)) != nil else { break }
            if interval.type == UInt32(sc_FRMIVAL_TYPE_DISCRETE) {
                found.append((interval.discrete.numerator, interval.discrete.denominator))
            } else {
                found.append((interval.stepwise.min.numerator, interval.stepwise.min.denominator))
                break
            }
        }
        return found.filter { $0.numerator > 0 && $0.denominator > 0 }
            .sorted { Double($0.numerator) / Double($0.denominator) < Double($1.numerator) / Double($1.denominator) }
    }
}

/// A NUL-terminated C char array (imported as a tuple) as a String.
func cText<Tuple>(_ tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}
