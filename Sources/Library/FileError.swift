import Platform

/// Why a file could not be read or written. The message names the path (escaped for display).
public enum FileError: Error, Equatable, CustomStringConvertible {
    /// The input is missing or cannot be opened (exit 66).
    case cannotRead(path: String, reason: String)
    /// The output (or its temp file) cannot be created there (exit 73).
    case cannotCreate(path: String, reason: String)
    /// The output would take the place of one of the inputs (exit 73).
    case wouldReplaceInput(path: String)
    /// Reading or writing failed part-way, a full disk included (exit 74).
    case io(path: String, reason: String)
    /// A folder given as input holds no photo (exit 66); `looked` names what was searched for.
    case noPhotos(folder: String, looked: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return L("{1}: cannot read: {2}", PathEncoding.display(path), reason)
        case .cannotCreate(let path, let reason): return L("{1}: cannot create: {2}", PathEncoding.display(path), reason)
        case .wouldReplaceInput(let path): return L("{1}: refusing to write over an input photo", PathEncoding.display(path))
        case .io(let path, let reason): return "\(PathEncoding.display(path)): \(reason)"
        case .noPhotos(let folder, let looked): return L("no photos found in {1} (looked for {2})", PathEncoding.display(folder), looked)
        }
    }

    /// Reading `path` failed as `error` says.
    public init(reading path: String, _ error: FileSystem.ReadError) {
        switch error {
        case .system(let errno): self = .cannotRead(path: path, reason: errno.reason)
        case .notRegular(let kind): self = .cannotRead(path: path, reason: "\(kind), not a photo file")
        case .tooLarge(let size, let limit):
            self = .cannotRead(path: path, reason: "\(size) bytes is more than the \(limit) this file may have")
        }
    }
}
