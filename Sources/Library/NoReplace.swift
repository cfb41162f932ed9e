import Platform
import Synchronization

/// Gives a finished file a name only when no file has it, with what the folder's file system
/// offers: a rename that refuses to replace (renameat2's RENAME_NOREPLACE: ext4, btrfs, tmpfs, the
/// kernel's vfat and exfat), else a hard link (NFS, FUSE file systems with links), else neither
/// (FUSE FAT and exFAT), and the caller claims the name with O_EXCL instead (`AtomicFile`,
/// `NameClaim`). What a folder cannot do is learnt from its first refusal and remembered, so a
/// batch on a card asks once per folder rather than once per photo.
enum NoReplace {
    /// The ways to take a free name, best first.
    enum Method: Int, Comparable, Sendable {
        case rename, link, exclusiveCreate

        static func < (a: Method, b: Method) -> Bool { a.rawValue < b.rawValue }
    }

    /// The best method each folder met so far has not refused.
    private static let learnt = Mutex<[String: Method]>([:])

    /// The best method `folder` has not refused.
    static func method(for folder: String) -> Method {
        learnt.withLock { $0[folder] } ?? .rename
    }

    /// From now on `folder` is taken to offer no better than `method` (what its file system
    /// refused; tests make a folder behave like a FAT card's with it).
    static func assume(_ method: Method, for folder: String) {
        learnt.withLock { $0[folder] = max($0[folder] ?? .rename, method) }
    }

    /// Gives `file` the name `path` (in the same folder) unless something has that name: true when
    /// done (a link keeps the old name too; the caller removes it), false when the name is taken,
    /// nil when the folder's file system can neither refuse a rename nor link.
    static func move(_ file: String, to path: String) throws(Errno) -> Bool? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        while true {
            let method = method(for: folder)
            do {
                switch method {
                case .rename: try FileSystem.renameNoReplace(FilePath(file), to: FilePath(path))
                case .link: try FileSystem.link(FilePath(file), to: FilePath(path))
                case .exclusiveCreate: return nil
                }
                return true
            } catch .exists {
                return false
            } catch where refuses(method, error) {
                assume(Method(rawValue: method.rawValue + 1) ?? .exclusiveCreate, for: folder)
            }
        }
    }

    /// Whether `error` says the file system cannot do `method` at all (rather than this once).
    private static func refuses(_ method: Method, _ error: Errno) -> Bool {
        switch method {
        // FUSE and NFS answer EINVAL to the flag; ENOSYS: a kernel, or a sandbox, without renameat2.
        case .rename: return [.invalid, .notImplemented, .notSupported].contains(error)
        // FAT and exFAT have no hard links: the kernel's and FUSE's answer EPERM.
        case .link: return [.notPermitted, .notImplemented, .notSupported].contains(error)
        case .exclusiveCreate: return false
        }
    }
}
