#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: two paths name the same file exactly when these are equal.
public struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    public init?(path: FilePath) {
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
    public enum Kind: Sendable, Equatable {
        case regular, folder, symbolicLink, fifo, socket, characterDevice, blockDevice, other
    }

    public let identity: FileIdentity
    public let kind: Kind
    public let size: Int
    /// Last modification, seconds since the epoch.
    public let modified: Int
    /// Permission bits.
    public let mode: UInt32
    /// The owner's user id.
    public let owner: UInt32
    /// Whether the file belongs to the user this process runs as.
    public var isMine: Bool { owner == getuid() }

    public var isFolder: Bool { kind == .folder }
    public var isRegular: Bool { kind == .regular }

    /// The file `path` names, following symbolic links; nil when there is none.
    public init?(path: FilePath) {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        self.init(info)
    }

    /// The entry `path` itself: a symbolic link is reported as one.
    public init?(linkAt path: FilePath) {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0 else { return nil }
        self.init(info)
    }

    /// What `fstat` says about an open descriptor.
    public init(descriptor: Int32) throws(Errno) {
        var info = stat()
        try Errno.check(fstat(descriptor, &info))
        self.init(info)
    }

    init(_ info: stat) {
        identity = FileIdentity(info)
        size = Int(info.st_size)
        modified = Int(info.st_mtim.tv_sec)
        mode = UInt32(info.st_mode & 0o7777)
        owner = UInt32(info.st_uid)
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .other
        }
    }
}

extension FileStatus.Kind: CustomStringConvertible {
    /// "a folder", "a FIFO" …, for messages.
    public var description: String {
        switch self {
        case .regular: return "a file"
        case .folder: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a FIFO (named pipe)"
        case .socket: return "a socket"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .other: return "not a regular file"
        }
    }
}
