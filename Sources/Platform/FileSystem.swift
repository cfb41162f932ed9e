#if canImport(Glibc)
import Glibc
#endif

/// The file-system calls stampcam makes, on byte-exact paths (`FilePath`), with EINTR retried
/// and failures as `Errno`.
public enum FileSystem {
    /// Why a file could not be read as data.
    public enum ReadError: Error, Equatable, Sendable {
        /// open, fstat or read failed.
        case system(Errno)
        /// Not a regular file: a folder, a FIFO, a device … (opening never blocks on one).
        case notRegular(FileStatus.Kind)
        /// Larger than the caller accepts.
        case tooLarge(size: Int, limit: Int)
    }

    /// Opens `path` for reading and checks it is a regular file. O_NONBLOCK makes opening a FIFO
    /// return at once instead of waiting for a writer; it changes nothing for a regular file.
    public static func openRegular(_ path: FilePath) throws(ReadError) -> (descriptor: Int32, status: FileStatus) {
        let fd: Int32
        do {
            fd = try Errno.retrying { () throws(Errno) in
                try Errno.check(path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) })
            }
        } catch {
            throw .system(error)
        }
        do {
            let status = try FileStatus(descriptor: fd)
            guard status.isRegular else { throw ReadError.notRegular(status.kind) }
            return (fd, status)
        } catch let error as ReadError {
            close(fd)
            throw error
        } catch {
            close(fd)
            throw .system(error as? Errno ?? .io)
        }
    }

    /// The whole of a regular file, at most `limit` bytes.
    public static func read(_ path: FilePath, limit: Int = Int.max) throws(ReadError) -> [UInt8] {
        let (fd, status) = try openRegular(path)
        defer { close(fd) }
        guard status.size <= limit else { throw .tooLarge(size: status.size, limit: limit) }
        do {
            return try readAll(fd, expected: status.size, limit: limit)
        } catch let error as ReadError {
            throw error
        } catch {
            throw .system(error as? Errno ?? .io)
        }
    }

    /// The first `count` bytes of a regular file (fewer when it is shorter): for a magic number.
    public static func readStart(_ path: FilePath, count: Int) throws(ReadError) -> [UInt8] {
        let (fd, _) = try openRegular(path)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { buffer in Result { () throws(ReadError) in try FileContents.fill(buffer, from: fd) } }
        bytes.removeSubrange(try filled.get()...)
        return bytes
    }

    /// Reads to the end (a file may grow or shrink while it is read); refuses more than `limit`.
    static func readAll(_ fd: Int32, expected: Int, limit: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, min(expected, limit)) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { throw ReadError.tooLarge(size: bytes.count, limit: limit) }
                bytes += [UInt8](repeating: 0, count: max(4096, bytes.count))
            }
            let count = try Errno.retrying { () throws(Errno) in
                try Errno.check(bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) })
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw ReadError.tooLarge(size: filled, limit: limit) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Writes `bytes` into the existing file `path` (a FIFO, a device), never creating one.
    public static func writeInto(_ path: FilePath, _ bytes: [UInt8]) throws(Errno) {
        let fd = try Errno.retrying { () throws(Errno) in
            try Errno.check(path.withCString { Glibc.open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) })
        }
        defer { close(fd) }
        try writeAll(fd, bytes)
    }

    /// Writes all of `bytes` to `fd`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
        let failure: Errno? = bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try writeAll(fd, buffer) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes` to `fd`.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var written = 0
        while written < bytes.count {
            let count = try Errno.retrying { () throws(Errno) in
                try Errno.check(Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written))
            }
            guard count > 0 else { throw .io }
            written += count
        }
    }

    /// The names in a folder (without `.` and `..`), unsorted.
    public static func list(_ folder: FilePath) throws(Errno) -> [String] {
        guard let directory = folder.withCString({ opendir($0) }) else { throw .current }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw .current }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { PathEncoding.decode($0.prefix { $0 != 0 }) }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Creates `path` and any missing parents (mkdir -p); an existing folder is fine.
    public static func makeFolders(_ path: FilePath, mode: mode_t = 0o777) throws(Errno) {
        var prefix: FilePath = path.isAbsolute ? "/" : ""
        for part in path.components {
            prefix = prefix.appending(part)
            if part == "." || part == ".." { continue }
            if prefix.withCString({ mkdir($0, mode) }) != 0 {
                let error = Errno.current
                guard error == .exists else { throw error }
            }
        }
        guard let status = FileStatus(path: path) else { throw .current }
        guard status.isFolder else { throw .notFolder }
    }

    /// Whether this process may create files in `folder`.
    public static func canWrite(_ folder: FilePath) throws(Errno) {
        if folder.withCString({ access($0, W_OK | X_OK) }) != 0 { throw .current }
    }

    /// Bytes free for this process on the file system holding `path`; nil when it cannot be asked.
    public static func freeBytes(_ path: FilePath) -> Int? {
        var info = statvfs()
        // A file system that counts no blocks at all (FUSE FAT) cannot tell, rather than being full.
        guard path.withCString({ statvfs($0, &info) }) == 0, info.f_blocks > 0 else { return nil }
        let (bytes, overflow) = Int(info.f_bavail).multipliedReportingOverflow(by: Int(info.f_frsize))
        return overflow ? Int.max : bytes
    }

        /// Removes a file; false when it could not be removed.
    @discardableResult
    public static func remove(_ path: FilePath) -> Bool {
        path.withCString { unlink($0) } == 0
    }

    /// Removes an empty folder; false when it could not be removed (not empty, gone …).
    @discardableResult
    public static func removeFolder(_ path: FilePath) -> Bool {
        path.withCString { rmdir($0) } == 0
    }

    /// Gives the file `from` the second name `to` (a hard link): EEXIST when `to` is taken; EPERM
    /// or EOPNOTSUPP where the file system has no hard links (FAT, exFAT).
    public static func link(_ from: FilePath, to: FilePath) throws(Errno) {
        _ = try Errno.retrying { () throws(Errno) in
            try Errno.check(from.withCString { source in to.withCString { Glibc.link(source, $0) } })
        }
    }

    /// Renames `from` to `to`, replacing a file there.
    public static func rename(_ from: FilePath, to: FilePath) throws(Errno) {
        _ = try Errno.retrying { () throws(Errno) in
            try Errno.check(from.withCString { source in to.withCString { Glibc.rename(source, $0) } })
        }
    }

    /// Renames `from` to `to` unless something has that name (renameat2's RENAME_NOREPLACE): EEXIST
    /// when `to` is taken; EINVAL (or ENOSYS) where the file system cannot refuse (FUSE, NFS).
    public static func renameNoReplace(_ from: FilePath, to: FilePath) throws(Errno) {
        _ = try Errno.retrying { () throws(Errno) in
            try Errno.check(from.withCString { source in to.withCString { GNUCalls.renameNoReplace(source, $0) } })
        }
    }

    /// Whether something (a file, a folder, a dangling link) has this name.
    public static func exists(_ path: FilePath) -> Bool {
        FileStatus(linkAt: path) != nil
    }
}

extension FileSystem {
    /// Where a symbolic link points.
    public static func readLink(_ path: FilePath) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let length = path.withCString { readlink($0, &buffer, buffer.count - 1) }
        guard length >= 0 else { throw .current }
        return PathEncoding.decode(buffer[..<length].map { UInt8(bitPattern: $0) })
    }
}

extension FileSystem {
    /// One read(2) into `buffer`, retried on EINTR: the bytes read, 0 at the end or on an error.
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        (try? Errno.retrying { () throws(Errno) in try Errno.check(Glibc.read(fd, buffer.baseAddress, buffer.count)) }) ?? 0
    }
}

extension FileSystem {
    /// Copies the file at `source` into `fd` (standard output, a device, a FIFO) a block at a time.
    public static func copy(_ source: FilePath, into fd: Int32) throws(Errno) {
        let input = try Errno.retrying { () throws(Errno) in
            try Errno.check(source.withCString { Glibc.open($0, O_RDONLY | O_CLOEXEC) })
        }
        defer { close(input) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try Errno.retrying { () throws(Errno) in try Errno.check(Glibc.read(input, buffer.baseAddress, buffer.count)) }
            if count == 0 { return }
            try writeAll(fd, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// Copies the file at `source` into the device or FIFO at `destination`, which stays what it is.
    public static func copy(_ source: FilePath, into destination: FilePath) throws(Errno) {
        let fd = try Errno.retrying { () throws(Errno) in
            try Errno.check(destination.withCString { Glibc.open($0, O_WRONLY | O_NOCTTY | O_CLOEXEC) })
        }
        defer { close(fd) }
        try copy(source, into: fd)
    }
}

extension FileSystem {
    /// Creates the new file `path` with `mode` from the start (O_EXCL: never over anything there,
    /// never through a link) and writes `bytes`, synced unless `sync` is false; a file left half
    /// written is removed.
    public static func createNew(_ path: FilePath, _ bytes: [UInt8], mode: mode_t, sync: Bool = true) throws(Errno) {
        let fd = try Errno.retrying { () throws(Errno) in
            try Errno.check(path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode) })
        }
        do {
            try writeAll(fd, bytes)
            if sync { _ = try Errno.check(fsync(fd)) }
        } catch {
            close(fd)
            remove(path)
            throw error
        }
        close(fd)
    }

    /// A new empty folder, mode 0700, beside others named `prefix` followed by random letters.
    public static func makeTemporaryFolder(_ prefix: FilePath) throws(Errno) -> FilePath {
        var template = prefix.bytes.map { CChar(bitPattern: $0) } + Array("XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw .current }
        return FilePath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
    }
}
