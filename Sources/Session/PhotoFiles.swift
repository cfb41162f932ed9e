import Imaging
import Library
import Platform

/// The JPEG files under folders, for `log --rebuild` and `log --check`: depth first in name order;
/// hidden names (temp files, claims), links to folders (no loops) and anything but regular files
/// are passed over. Unlike `ApplyInputs`, folders of stampcam's own output are what is looked for.
enum PhotoFiles {
    struct Found {
        var path: String
        var status: FileStatus
    }

    /// Every JPEG under `folders` (a file given instead of a folder is taken as it is); `failed` hears
    /// of folders that cannot be read.
    static func list(_ folders: [String], failed: (String, FileError) -> Void) -> [Found] {
        var found: [Found] = [], seen = Set<FileIdentity>()
        for folder in folders {
            guard let status = FileStatus(path: FilePath(folder)) else {
                failed(folder, .cannotRead(path: folder, reason: Errno.current.reason))
                continue
            }
            if status.isRegular {
                if seen.insert(status.identity).inserted { found.append(Found(path: folder, status: status)) }
            } else if status.isFolder {
                walk(folder, into: &found, seen: &seen, failed: failed)
            } else {
                failed(folder, .cannotRead(path: folder, reason: "\(status.kind), not a folder"))
            }
        }
        return found
    }

    private static func walk(_ folder: String, into found: inout [Found], seen: inout Set<FileIdentity>,
                             failed: (String, FileError) -> Void) {
        let names: [String]
        do {
            names = try FileSystem.list(FilePath(folder)).sorted { PathEncoding.encode($0).lexicographicallyPrecedes(PathEncoding.encode($1)) }
        } catch {
            failed(folder, .cannotRead(path: folder, reason: error.reason))
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            guard let link = FileStatus(linkAt: FilePath(path)) else { continue }
            if link.isFolder {
                guard seen.insert(link.identity).inserted else { continue }
                walk(path, into: &found, seen: &seen, failed: failed)
            } else if let status = link.kind == .regular ? link : FileStatus(path: FilePath(path)), status.isRegular, ImageFormat.named(name) == .jpeg,
                      seen.insert(status.identity).inserted {
                found.append(Found(path: path, status: status))
            }
        }
    }
}
