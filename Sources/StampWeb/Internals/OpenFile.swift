import Platform
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A photo file opened to be sent: owns the descriptor until the server takes it (libmicrohttpd
/// then closes it), and closes it itself if nobody does.
final class OpenFile: Sendable {
    private let descriptor: Mutex<Int32?>
    let size: Int

    /// Opens `path` for reading if it is still the regular file `identity` names: a file this
    /// session saved, not one put in its place since. Nil otherwise.
    init?(path: String, identity: FileIdentity) {
        guard let (fd, status) = try? FileSystem.openRegular(FilePath(path)) else { return nil }
        guard status.identity == identity else {
            close(fd)
            return nil
        }
        descriptor = Mutex(fd)
        size = status.size
    }

    /// The descriptor and size, once.
    func take() -> (Int32, Int)? {
        descriptor.withLock { fd in
            defer { fd = nil }
            return fd.map { ($0, size) }
        }
    }

    deinit {
        if let fd = take()?.0 { close(fd) }
    }
}
