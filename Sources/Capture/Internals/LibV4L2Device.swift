import Platform
import CV4L2

#if canImport(Glibc)
import Glibc
#endif

/// The real `VideoDeviceIO`: owns one file descriptor opened through libv4l2 and closes it in deinit.
final class LibV4L2Device: VideoDeviceIO {
    let path: String
    private let fd: Int32

    /// Opens `path` read-write and non-blocking (frames are waited for with poll).
    static func open(_ path: String, kind: NodeKind) -> Result<any VideoDeviceIO, Errno> {
        let fd = FilePath(path).withCString { sc_v4l2_open($0, O_RDWR | O_NONBLOCK, kind == .video ? 1 : 0) }
        guard fd >= 0 else { return .failure(.current) }
        return .success(LibV4L2Device(path: path, fd: fd))
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { _ = sc_v4l2_close(fd) }

    func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        sc_v4l2_ioctl(fd, request, argument) == 0 ? 0 : Errno.current.code
    }

    func poll(milliseconds: Int32, events: inout PollEvents) -> Int32 {
        var entry = pollfd(fd: fd, events: Int16(POLLIN | POLLPRI), revents: 0)
        let count = Glibc.poll(&entry, 1, milliseconds)
        guard count >= 0 else { return Errno.current.code }
        events = count == 0 ? [] : PollEvents(rawValue: entry.revents).intersection([.readable, .error, .hangUp])
        return 0
    }

    func map(length: Int, offset: Int) -> Result<UnsafeMutableRawPointer, Errno> {
        guard let address = sc_v4l2_mmap(length, fd, off_t(offset)), address != MAP_FAILED else {
            return .failure(.current)
        }
        return .success(address)
    }

    func unmap(_ address: UnsafeMutableRawPointer, length: Int) {
        _ = sc_v4l2_munmap(address, length)
    }
}
