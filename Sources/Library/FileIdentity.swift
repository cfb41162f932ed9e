#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: two paths name the same file exactly when these are equal.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
