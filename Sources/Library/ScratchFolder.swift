import Platform

#if canImport(Glibc)
import Glibc
#endif

/// A private folder for a file being built from many parts (a KMZ and its pictures), named like
/// `AtomicFile`'s temp files so leftovers of a killed run are recognised. Everything in it goes
/// when its owner does.
public final class ScratchFolder {
    public let path: String

    /// A new folder in `directory` (the target's own, so the result can be linked into place).
    public init(in directory: String, for target: String) throws(FileError) {
        var template = PathEncoding.encode(directory.hasSuffix("/") ? directory : directory + "/")
        template += Array((AtomicFile.tempPrefix + "\(ProcessID.current)-XXXXXX").utf8) + [0]
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) }
        }
        guard made != nil else { throw .cannotCreate(path: target, reason: Errno.current.reason) }
        path = PathEncoding.decode(template.dropLast())
    }

    deinit { Self.remove(path) }

    /// Removes a scratch folder and the files in it (it holds no folders); false when it could not.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        for name in (try? FileSystem.list(FilePath(path))) ?? [] { FileSystem.remove(FilePath(path + "/" + name)) }
        return FileSystem.removeFolder(FilePath(path))
    }

    /// The path of `name` in the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` as `name`; `target` is what the error names (the file the user asked for).
    public func write(_ bytes: [UInt8], as name: String, for target: String) throws(FileError) {
        do throws(Errno) {
            let fd = try Errno.check(FilePath(file(name)).withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) })
            defer { close(fd) }
            try FileSystem.writeAll(fd, bytes)
        } catch {
            throw .io(path: target, reason: "write failed: \(error.reason) (nothing was written under this name)")
        }
    }
}
