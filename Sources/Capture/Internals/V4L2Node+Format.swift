import Platform
import CV4L2

extension V4L2Node {
    /// What the driver would give for `format` at `size` (TRY_FMT), without changing anything.
    func tryFormat(_ format: PixelFormat, _ size: Resolution) throws(Errno) -> FrameLayout {
        var request = Self.formatRequest(format, size)
        try io.call(sc_VIDIOC_TRY_FMT, &request)
        return Self.layout(request.fmt.pix)
    }

    /// Sets the format and returns what the driver chose, which may differ from what was asked
    /// (another pixel format, size or stride): that is what frames will have.
    func setFormat(_ format: PixelFormat, _ size: Resolution) throws(Errno) -> FrameLayout {
        var request = Self.formatRequest(format, size)
        try io.call(sc_VIDIOC_S_FMT, &request)
        return Self.layout(request.fmt.pix)
    }

    /// Asks for `interval` seconds per frame; drivers without frame-rate control refuse, which is fine.
    func setFrameInterval(numerator: UInt32, denominator: UInt32) {
        var parameters = v4l2_streamparm()
        parameters.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
        guard (try? io.call(sc_VIDIOC_G_PARM, &parameters)) != nil,
              parameters.parm.capture.capability & UInt32(sc_CAP_TIMEPERFRAME) != 0 else { return }
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: numerator, denominator: denominator)
        _ = try? io.call(sc_VIDIOC_S_PARM, &parameters)
    }

    private static func formatRequest(_ format: PixelFormat, _ size: Resolution) -> v4l2_format {
        var request = v4l2_format()
        request.type = UInt32(sc_BUF_TYPE_VIDEO_CAPTURE)
        request.fmt.pix.width = UInt32(size.width)
        request.fmt.pix.height = UInt32(size.height)
        request.fmt.pix.pixelformat = format.fourcc
        request.fmt.pix.field = UInt32(sc_FIELD_ANY)
        // Zero stride and image size: the driver fills in its own.
        request.fmt.pix.bytesperline = 0
        request.fmt.pix.sizeimage = 0
        return request
    }

    private static func layout(_ pix: v4l2_pix_format) -> FrameLayout {
        FrameLayout(format: PixelFormat(fourcc: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                    bytesPerLine: Int(pix.bytesperline), imageSize: Int(pix.sizeimage),
                    fullRange: pix.quantization == UInt32(sc_QUANTIZATION_FULL_RANGE),
                    bt709: pix.ycbcr_enc == UInt32(sc_YCBCR_ENC_709))
    }
}
