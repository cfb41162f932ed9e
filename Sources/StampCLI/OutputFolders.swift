#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Library

/// The output folder and the subfolders a batch mirrors into it: each created when first needed,
/// cleared of temp files a killed run left behind, and checked once so an unwritable folder is one
/// clear error instead of one per photo.
final class OutputFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var ready: [String: Failure?] = [:]

    /// Creates `path` (and its parents) if needed; throws the same failure for every photo headed there.
    func prepare(_ path: String) throws(Failure) {
        let known = lock.withLock { ready[path] }
        if let known {
            if let failure = known { throw failure }
            return
        }
        do {
            try Self.create(path)
            AtomicFile.removeStaleTemps(in: path)
            lock.withLock { ready[path] = .some(nil) }
        } catch {
            lock.withLock { ready[path] = error }
            throw error
        }
    }

    static func create(_ path: String) throws(Failure) {
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
