#if canImport(Glibc)
import Glibc
#endif

/// Reads input photos. Opens read-only: an input is never modified.
public enum InputFile {
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotRead(path: path, reason: FileError.reason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, reason: FileError.reason(errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .cannotRead(path: path, reason: "is a directory") }
        var bytes = [UInt8](repeating: 0, count: max(0, Int(info.st_size)))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .io(path: path, reason: "read failed: " + FileError.reason(errno)) }
            if count == 0 { break }  // the file shrank while we read it
            filled += count
        }
        return filled == bytes.count ? bytes : Array(bytes[..<filled])
    }
}
