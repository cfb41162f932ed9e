#if canImport(Glibc)
import Glibc
#endif

extension FileSystem {
    /// `path` as an absolute path that names the same file from any working folder: its folder
    /// resolved by realpath(3) (symbolic links, `.` and `..`), its last name kept as it is (it may
    /// itself be a link). When the folder cannot be resolved, the path is joined to the working folder.
    public static func absolute(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let resolved = FilePath(folder).withCString { pointer -> String? in
            guard let real = realpath(pointer, nil) else { return nil }
            defer { free(real) }
            return PathEncoding.decode(UnsafeRawBufferPointer(start: real, count: strlen(real)))
        }
        if let resolved, !name.isEmpty, name != ".", name != ".." {
            return resolved == "/" ? "/" + name : resolved + "/" + name
        }
        if path.hasPrefix("/") { return path }
        return workingFolder.map { $0 + "/" + path } ?? path
    }

    /// getcwd(3); nil when the working folder is gone.
    public static var workingFolder: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return PathEncoding.decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }
}
