import Platform
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Puts files into place whole or not at all: bytes go to a temp file in the target folder, are
/// synced, and only then take their final name — never over another file unless asked, on any file
/// system (ext4, tmpfs, FAT and exFAT cards, FUSE, NFS: see `NoReplace`). A crash, a full disk or a
/// card pulled out never leaves a partial file under a final name.
public enum AtomicFile {
    /// Temp files are named `.stampcam-PID-XXXXXX`, so a later run can find the leftovers of a
    /// killed one and tell them from those of a run still going.
    public static let tempPrefix = ".stampcam-"

    /// Writes `bytes` under the claimed name: it must be free (another program taking it meanwhile
    /// is an error), unless `replace`. Refuses to replace a file in `protected`. Returns the path.
    @discardableResult
    public static func write(_ bytes: [UInt8], to claim: NameClaim, replace: Bool,
                             protected: Set<FileIdentity> = []) throws(FileError) -> String {
        let temp = try writeTemp(bytes, directory: claim.folder, target: claim.path)
        defer { FileSystem.remove(FilePath(temp)) }
        guard try place(temp, at: claim.path, replace: replace, protected: protected, claimed: true) else {
            throw .cannotCreate(path: claim.path, reason: "another program created this file meanwhile")
        }
        return claim.path
    }

    /// `write(_:to:replace:protected:)` in two steps, for a caller that has other work to do while
    /// the disk syncs: the bytes go to a temp file now (nothing synced yet); `Staged.place` later
    /// syncs them and gives the file the claimed name. A staged file never placed is removed.
    public static func stage(_ bytes: [UInt8], for claim: NameClaim) throws(FileError) -> Staged {
        let temp = try writeTemp(bytes, directory: claim.folder, target: claim.path, sync: false)
        return Staged(temp: temp, claim: claim)
    }

    /// Bytes written under a temp name, waiting to be synced and named.
    public final class Staged: Sendable {
        private let temp: String
        private let claim: NameClaim
        /// Whether `place` has been tried (it removes the temp name, whatever became of it).
        private let tried = Atomic(false)

        fileprivate init(temp: String, claim: NameClaim) {
            self.temp = temp
            self.claim = claim
        }

        deinit { if !tried.load(ordering: .relaxed) { FileSystem.remove(FilePath(temp)) } }

        /// Syncs the bytes to the disk, then gives them the claimed name, as `write` does; the
        /// path, or why not (nothing is then left under the name).
        public func place(replace: Bool, protected: Set<FileIdentity> = []) throws(FileError) -> String {
            // Placed (renamed, or a link to it made) or not, the temp name goes now: nothing is tried twice.
            tried.store(true, ordering: .relaxed)
            defer { FileSystem.remove(FilePath(temp)) }
            do throws(Errno) {
                let fd = FilePath(temp).withCString { open($0, O_WRONLY | O_CLOEXEC) }
                guard fd >= 0 else { throw Errno.current }
                defer { close(fd) }
                // Delayed allocation: a full disk may only show here.
                guard fsync(fd) == 0 else { throw Errno.current }
            } catch {
                throw .io(path: claim.path, reason: "write failed: \(error.reason) (nothing was written under this name)")
            }
            guard try AtomicFile.place(temp, at: claim.path, replace: replace, protected: protected, claimed: true) else {
                throw .cannotCreate(path: claim.path, reason: "another program created this file meanwhile")
            }
            return claim.path
        }
    }

    /// Writes `bytes` as `directory/name`. Unless `overwrite`, an existing file is kept and the
    /// new one is named `name-1.ext`, `name-2.ext` …. Refuses to replace a file in `protected`.
    /// Returns the path written. Unless `sync`, the bytes may be lost to a crash (the file left empty).
    @discardableResult
    public static func write(_ bytes: [UInt8], directory: String, name: String, overwrite: Bool = false,
                             protected: Set<FileIdentity> = [], sync: Bool = true) throws(FileError) -> String {
        let target = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let temp = try writeTemp(bytes, directory: directory, target: target, sync: sync)
        defer { FileSystem.remove(FilePath(temp)) }
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? target : numbered(target, attempt)
            if try place(temp, at: candidate, replace: overwrite, protected: protected) { return candidate }
            attempt += 1
        }
    }

    /// Gives the finished file at `file` (in the same file system, a `ScratchFolder`'s) the name
    /// `directory/name` by the rules of `write(_:directory:name:overwrite:protected:sync:)`, synced
    /// first. Returns the path written.
    public static func place(file: String, directory: String, name: String, overwrite: Bool = false,
                             protected: Set<FileIdentity> = []) throws(FileError) -> String {
        let target = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        do throws(Errno) {
            let fd = try Errno.check(FilePath(file).withCString { open($0, O_WRONLY | O_CLOEXEC) })
            defer { close(fd) }
            fchmod(fd, fileMode)
            // Delayed allocation: a full disk may only show here.
            guard fsync(fd) == 0 else { throw Errno.current }
        } catch {
            throw .io(path: target, reason: "write failed: \(error.reason) (nothing was written under this name)")
        }
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? target : numbered(target, attempt)
            if try place(file, at: candidate, replace: overwrite, protected: protected) { return candidate }
            attempt += 1
        }
    }

    /// A temp file in `directory` holding `bytes` (synced to the disk when `sync`), with the mode a
    /// new file would get. Its name says which process made it, so leftovers can be cleaned.
    static func writeTemp(_ bytes: [UInt8], directory: String, target: String, sync: Bool = true) throws(FileError) -> String {
        do { return try makeTemp(bytes, directory: directory, sync: sync) } catch {
            guard error.made else { throw .cannotCreate(path: target, reason: error.errno.reason) }
            throw .io(path: target, reason: "write failed: \(error.errno.reason) (nothing was written under this name)")
        }
    }

    /// Why a temp file is not there: the call that failed, and whether the file had been made.
    struct TempFailure: Error {
        let errno: Errno
        let made: Bool
    }

    /// `writeTemp`, failing with the errno; a file made but not written whole is removed.
    static func makeTemp(_ bytes: [UInt8], directory: String, sync: Bool) throws(TempFailure) -> String {
        var template = PathEncoding.encode(directory.hasSuffix("/") ? directory : directory + "/")
        template += Array((tempPrefix + "\(ProcessID.current)-XXXXXX").utf8) + [0]
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
        }
        guard fd >= 0 else { throw TempFailure(errno: .current, made: false) }
        let temp = PathEncoding.decode(template.dropLast())
        do throws(Errno) {
            defer { close(fd) }
            try FileSystem.writeAll(fd, bytes)
            fchmod(fd, fileMode)  // mkstemp makes 0600; a photo gets what a new file would (FAT ignores it)
            guard !sync || fsync(fd) == 0 else { throw Errno.current }
        } catch {
            FileSystem.remove(FilePath(temp))
            throw TempFailure(errno: error, made: true)
        }
        return temp
    }

    /// Gives the temp file its final name. Unless `replace`, nothing there is ever replaced (false
    /// when the name is taken): by what the folder's file system offers (`NoReplace`), else by
    /// claiming the name (`placeByClaim`). `claimed`: the caller holds the name's `NameClaim`.
    fileprivate static func place(_ temp: String, at path: String, replace: Bool,
                                  protected: Set<FileIdentity>, claimed: Bool = false) throws(FileError) -> Bool {
        // Only a replacing rename could reach an input; the other ways never replace anything.
        if replace, let identity = FileIdentity(path: FilePath(path)), protected.contains(identity) {
            throw .wouldReplaceInput(path: path)
        }
        // A rename would put a file in the place of a device, a FIFO, a link or a folder: never.
        if replace, let existing = FileStatus(linkAt: FilePath(path)), !existing.isRegular {
            throw .cannotCreate(path: path, reason: "it is \(existing.kind), not a regular file, and stampcam replaces only files")
        }
        do throws(Errno) {
            if replace {
                try FileSystem.rename(FilePath(temp), to: FilePath(path))
                return true
            }
            if let placed = try NoReplace.move(temp, to: path) { return placed }
        } catch {
            throw .cannotCreate(path: path, reason: reason(error, at: path))
        }
        return try placeByClaim(temp, at: path, claimed: claimed)
    }

    /// For a file system that can neither refuse a rename nor link (FUSE FAT and exFAT): the name
    /// is claimed (a `NameClaim`, unless the caller holds it), created empty with O_EXCL, so that
    /// nothing there is ever replaced, and the finished file is renamed over that empty one. A
    /// crash between the two leaves the empty file and the claim of a process that is gone: the
    /// next run removes both (`NameClaim.removeStale`). False when the name is taken.
    private static func placeByClaim(_ temp: String, at path: String, claimed: Bool) throws(FileError) -> Bool {
        var claim: NameClaim?
        if !claimed {
            // Another run holding the claim is writing this name.
            guard let held = try NameClaim.hold(path) else { return false }
            claim = held
        }
        defer { claim?.release() }
        do throws(Errno) {
            do {
                try FileSystem.createNew(FilePath(path), [], mode: fileMode, sync: false)
            } catch .exists {
                return false
            }
            do { try FileSystem.rename(FilePath(temp), to: FilePath(path)) } catch {
                FileSystem.remove(FilePath(path))  // the empty file just made
                throw error
            }
            return true
        } catch {
            throw .cannotCreate(path: path, reason: reason(error, at: path))
        }
    }

    /// Why a name could not be given, in words that fit the file system it is on: a card's FAT or
    /// exFAT refuses some characters in names (with EINVAL, or through FUSE with EPERM or ENOENT).
    static func reason(_ error: Errno, at path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        let folder = slash.map { String(path[..<$0]) } ?? "."
        guard name.unicodeScalars.contains(where: { fatForbidden.contains($0) || $0.value < 0x20 }),
              let volume = VolumeKind(of: FilePath(folder)), [.fat, .exfat, .fuse].contains(volume) else { return error.reason }
        return "FAT and exFAT (SD cards, USB sticks) allow no \\ : * ? \" < > | or control characters in a name (\(error.reason))"
    }

    /// What FAT and exFAT refuse in a name, besides control characters.
    private static let fatForbidden = Set("\\:*?\"<>|".unicodeScalars)

    /// The mode a new file gets under this process's umask. Read from /proc: the umask(2) way of
    /// reading it sets it for a moment, which other threads creating files at that moment would get.
    static let fileMode: mode_t = {
        let status = (try? FileSystem.read("/proc/self/status", limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        let digits = line.map { $0.dropFirst("Umask:".count).filter { !$0.isWhitespace } }
        let mask = digits.flatMap { mode_t($0, radix: 8) } ?? 0o022
        return 0o666 & ~mask
    }()

    /// `dir/photo.jpg` → `dir/photo-2.jpg`
    public static func numbered(_ path: String, _ number: Int) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        if let dot = path[slash...].lastIndex(of: "."), dot != slash {
            return "\(path[..<dot])-\(number)\(path[dot...])"
        }
        return "\(path)-\(number)"
    }
}
