import Platform

/// A folder stampcam writes photos into: created when first needed, cleared of what killed runs
/// left (temp files, name claims), and marked with a `.stampcam` file so that a later `apply` over
/// a parent folder does not stamp these photos a second time.
public enum OutputFolder {
    public static let markerName = ".stampcam"
    static let markerText = "This folder holds photos stamped by stampcam. 'stampcam apply' does not look\n"
        + "inside it for photos to stamp, so they are never stamped twice.\n"

    /// Creates `path` (and its parents), checks it is writable, removes leftovers and, when
    /// `mark`, marks it as holding stamped photos.
    public static func prepare(_ path: String, mark: Bool = true) throws(FileError) {
        do {
            try FileSystem.makeFolders(FilePath(path))
        } catch .notFolder {
            throw .cannotCreate(path: path, reason: "a file has this name, not a folder")
        } catch {
            throw .cannotCreate(path: path, reason: error.reason)
        }
        do { try FileSystem.canWrite(FilePath(path)) } catch {
            throw .cannotCreate(path: path, reason: "\(error.reason) (this folder cannot be written to)")
        }
        removeLeftovers(in: path)
        let marker = path + "/" + markerName
        if mark && !FileSystem.exists(FilePath(marker)) {
            // Best effort: a folder we can write photos to takes the marker too; a race with another run is harmless.
            // Not synced (a cold run would wait for it): the marker is known by its name alone, so
            // one a crash left empty still marks the folder.
            _ = try? AtomicFile.write(Array(markerText.utf8), directory: path, name: markerName, overwrite: true, sync: false)
        }
    }

    /// Why no more photos can go into `folder` (which was the file `identity` when the work began):
    /// it is gone or another file system is mounted there (a card pulled out), its disk is full,
    /// or a file can no longer be written and synced there (a card whose device went away while
    /// its folders are still known; a full one that does not tell its free space); nil when it
    /// takes files as before. Asked after a photo
    /// could not be written, so a batch stops there rather than failing every photo after it the same way.
    public static func lost(_ folder: String, identity: FileIdentity?) -> String? {
        guard let status = FileStatus(path: FilePath(folder)) else {
            let error = Errno.current
            return error == .noEntry ? "the folder is gone (was the card or disk removed?)" : "the folder is gone: \(error.reason)"
        }
        if let identity, status.identity != identity {
            return "another file system is mounted there now (was the card or disk removed?)"
        }
        let free = FileSystem.freeBytes(FilePath(folder))
        if let free, free < roomForAPhoto { return Errno.noSpace.reason }
        do {
            // A photo's worth where the file system does not tell its free space (FUSE FAT).
            let probe = [UInt8](repeating: 0, count: free == nil ? roomForAPhoto : 1)
            FileSystem.remove(FilePath(try AtomicFile.makeTemp(probe, directory: folder, sync: true)))
        } catch {
            return "files can no longer be written there: \(error.errno.reason)"
        }
        return nil
    }

    /// Less free space than this cannot take one more stamped photo.
    static let roomForAPhoto = 1 << 20

    /// Removes `folder` when nothing but the marker is in it (a folder made for photos that all failed).
    public static func removeIfEmpty(_ folder: String) {
        guard let names = try? FileSystem.list(FilePath(folder)), names.allSatisfy({ $0 == markerName }) else { return }
        FileSystem.remove(FilePath(folder + "/" + markerName))
        FileSystem.removeFolder(FilePath(folder))
    }

    /// Whether `folder` holds stampcam's stamped photos.
    public static func isMarked(_ folder: String) -> Bool {
        FileStatus(path: FilePath(folder + "/" + markerName))?.isRegular ?? false
    }

    /// Removes temp files, scratch folders and name claims left in `folder` by processes that are
    /// gone (with the empty file a claim may have left under its name). Returns how many were removed.
    @discardableResult
    public static func removeLeftovers(in folder: String) -> Int {
        let names = (try? FileSystem.list(FilePath(folder))) ?? []
        var removed = 0
        for name in names where name.hasPrefix(AtomicFile.tempPrefix) {
            let owner: Int32?
            if name.hasPrefix(NameClaim.prefix) {
                owner = NameClaim.owner(folder + "/" + name) ?? 0  // a claim is written whole: unreadable means stale
            } else {
                let fields = name.dropFirst(AtomicFile.tempPrefix.count).split(separator: "-")
                owner = fields.count == 2 ? Int32(fields[0]) : nil
            }
            guard let owner, !ProcessID.isAlive(owner) else { continue }
            let path = folder + "/" + name
            if name.hasPrefix(NameClaim.prefix) ? NameClaim.removeStale(path) : FileSystem.remove(FilePath(path)) || ScratchFolder.remove(path) {
                removed += 1
            }
        }
        return removed
    }
}
