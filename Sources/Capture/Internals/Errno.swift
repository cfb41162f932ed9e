#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's errno, typed so callers switch on the cases they can explain.
struct Errno: Error, Equatable, CustomStringConvertible {
    let code: Int32

    init(_ code: Int32) { self.code = code }

    static let interrupted = Errno(EINTR)
    static let wouldBlock = Errno(EAGAIN)
    static let noDevice = Errno(ENODEV)
    static let noEntry = Errno(ENOENT)
    static let noDeviceOrAddress = Errno(ENXIO)
    static let permission = Errno(EACCES)
    static let notPermitted = Errno(EPERM)
    static let busy = Errno(EBUSY)
    static let io = Errno(EIO)
    static let invalid = Errno(EINVAL)
    static let notTTY = Errno(ENOTTY)
    static let range = Errno(ERANGE)
    static let noData = Errno(ENODATA)

    var description: String { String(cString: strerror(code)) }
}
