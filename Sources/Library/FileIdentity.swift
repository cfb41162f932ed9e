#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: two paths name the same file exactly when these are equal.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    public init?(path: String) {
        guard let status = FileStatus(path: path) else { return nil }
        self = status.identity
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// What one stat(2) says about a file, for callers that need several of these at once.
public struct FileStatus: Sendable {
    public let identity: FileIdentity
    public let size: Int
    public let isFolder: Bool
    /// Last modification, seconds since the epoch.
    public let modified: Int

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        identity = FileIdentity(info)
        size = Int(info.st_size)
        isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        modified = Int(info.st_mtim.tv_sec)
    }
}
