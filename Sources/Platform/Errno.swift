#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's errno, typed so callers switch on the cases they can explain.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's errno, right after a call that failed.
    public static var current: Errno { Errno(errno) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let noDevice = Errno(ENODEV)
    public static let noEntry = Errno(ENOENT)
    public static let noDeviceOrAddress = Errno(ENXIO)
    public static let permission = Errno(EACCES)
    public static let notPermitted = Errno(EPERM)
    public static let busy = Errno(EBUSY)
    public static let io = Errno(EIO)
    public static let invalid = Errno(EINVAL)
    public static let notTTY = Errno(ENOTTY)
    public static let range = Errno(ERANGE)
    public static let noData = Errno(ENODATA)
    public static let exists = Errno(EEXIST)
    public static let notEmpty = Errno(ENOTEMPTY)
    public static let noSpace = Errno(ENOSPC)
    public static let quota = Errno(EDQUOT)
    public static let fileTooLarge = Errno(EFBIG)
    public static let readOnly = Errno(EROFS)
    public static let isFolder = Errno(EISDIR)
    public static let notFolder = Errno(ENOTDIR)
    public static let tooManyLinks = Errno(ELOOP)
    public static let nameTooLong = Errno(ENAMETOOLONG)
    public static let notImplemented = Errno(ENOSYS)
    public static let notSupported = Errno(EOPNOTSUPP)
    public static let notConnected = Errno(ENOTCONN)

    /// The system's text ("No such file or directory").
    public var description: String { String(cString: strerror(code)) }

    /// The system's text, with what to do for the cases users hit while writing photos.
    public var reason: String {
        switch self {
        case .noSpace: return "no space left on the device"
        case .quota: return "disk quota exceeded"
        case .fileTooLarge: return "file too large for this file system or limit"
        case .permission: return "permission denied"
        // EPERM is what a file system answers for what it cannot do (a hard link on FAT), not a missing permission.
        case .notPermitted: return "operation not permitted"
        case .readOnly: return "read-only file system"
        case .io: return "input/output error (was the card or disk removed, or is it failing?)"
        case .noDevice: return "no such device (was the card or disk removed?)"
        case .notConnected: return "the file system is no longer there (its FUSE or network mount went away)"
        default: return description
        }
    }

    /// Runs `attempt` again while it fails with EINTR: the one place an interrupted call is retried.
    public static func retrying<Result>(_ attempt: () throws(Errno) -> Result) throws(Errno) -> Result {
        while true {
            do {
                return try attempt()
            } catch where error == .interrupted {
                continue
            }
        }
    }

    /// `value` when it is not negative; otherwise the call failed and errno says why.
    @discardableResult
    public static func check<Value: BinaryInteger>(_ value: Value) throws(Errno) -> Value {
        if value < 0 { throw .current }
        return value
    }
}
