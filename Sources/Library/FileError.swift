#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read or written. The message names the path.
public enum FileError: Error, Equatable, CustomStringConvertible {
    /// The input is missing or cannot be opened (exit 66).
    case cannotRead(path: String, reason: String)
    /// The output (or its temp file) cannot be created there (exit 73).
    case cannotCreate(path: String, reason: String)
    /// The output would take the place of one of the inputs (exit 73).
    case wouldReplaceInput(path: String)
    /// Reading or writing failed part-way, a full disk included (exit 74).
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(path): cannot read: \(reason)"
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        case .wouldReplaceInput(let path): return "\(path): refusing to write over an input photo"
        case .io(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// strerror with advice for the cases users hit.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: return "no space left on the device (nothing was written)"
        case EDQUOT: return "disk quota exceeded (nothing was written)"
        case EFBIG: return "file too large for this file system or limit (nothing was written)"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "read-only file system"
        default: return String(cString: strerror(code))
        }
    }
}
