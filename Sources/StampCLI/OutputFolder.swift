#if canImport(Glibc)
import Glibc
#endif

/// The folder outputs go to: created when missing, and checked once up front so an unwritable
/// folder is one clear error instead of one per photo.
enum OutputFolder {
    static func prepare(_ path: String) throws(Failure) {
        var components: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            components.append(part)
            let prefix = components.joined(separator: "/")
            if prefix.isEmpty || prefix == "." || prefix == ".." { continue }
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw Failure("\(path): cannot create folder: \(String(cString: strerror(errno)))", code: .cannotCreate)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Failure("\(path): not a folder", code: .cannotCreate)
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw Failure("\(path): cannot write to this folder: \(String(cString: strerror(errno)))", code: .cannotCreate)
        }
    }
}
