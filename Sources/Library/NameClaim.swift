import Platform
import Synchronization
import Values

#if canImport(Glibc)
import Glibc
#endif

/// An output name reserved by this process: a hidden `.stampcam-claim-NAME` file holding our
/// process id and the name, made exclusively before the work, so two runs writing into one folder
/// never pick the same name and never stamp the same photo twice (one skips what the other is
/// doing). Released when the photo has its name, or when this is dropped; a claim of a process that
/// is gone is removed by the next run, with the empty file it may have left under the name.
public final class NameClaim: Sendable {
    static let prefix = AtomicFile.tempPrefix + "claim-"
    /// The claim files this process holds: one with our id that is not here is a leftover of an
    /// earlier process that had the same id.
    private static let held = Mutex<Set<String>>([])

    public let folder: String
    public let name: String
    private let marker: String
    private let released = Mutex(false)

    public var path: String { folder + "/" + name }

    private init(folder: String, name: String, marker: String) {
        self.folder = folder
        self.name = name
        self.marker = marker
    }

    deinit { release() }

    /// Gives the name back (the photo has been written, or is not wanted). A claim file that cannot
    /// be removed now (its folder made read-only) keeps the claim: a later `release` (the photo
    /// written after all, or the claim dropped) removes it.
    public func release() {
        guard !isReleased else { return }
        guard FileSystem.remove(FilePath(marker)) || FileStatus(linkAt: FilePath(marker)) == nil else { return }
        released.withLock { $0 = true }
        _ = Self.held.withLock { $0.remove(marker) }
    }

    /// Whether the name has been given back (after which it is no longer this claim's to write).
    public var isReleased: Bool { released.withLock { $0 } }

    /// What to do when a file already has the name.
    public enum Existing: Sendable {
        /// Take the next free name: `photo-1.jpg`, `photo-2.jpg` …
        case number
        /// Do not write: the photo is there already (resuming a batch).
        case skip
        /// Write over it.
        case replace
    }

    public enum Outcome: Sendable {
        case claimed(NameClaim)
        /// A file has the name already (or another run is writing it), and `Existing.skip` says to leave it.
        case exists(path: String)
    }

    /// Reserves `name` in `folder` — or, when it is taken and `existing` is `.number`, the first free
    /// numbered variant. `taken` names this run has planned for other photos, which are passed over.
    public static func claim(_ name: String, in folder: String, existing: Existing,
                             taken: (String) -> Bool = { _ in false }) throws(FileError) -> Outcome {
        var attempt = 0
        var staleRemoved = false
        while true {
            let candidate = attempt == 0 ? name : AtomicFile.numbered(name, attempt)
            if attempt > 0 && taken(candidate) {
                attempt += 1
                continue
            }
            let marker = folder + "/" + markerName(candidate)
            switch makeMarker(marker, for: candidate) {
            case .made:
                let claim = NameClaim(folder: folder, name: candidate, marker: marker)
                // Checked after claiming: whoever writes this name holds the claim while doing so.
                if FileSystem.exists(FilePath(claim.path)) {
                    switch existing {
                    case .replace: return .claimed(claim)
                    case .skip: return .exists(path: claim.path)
                    case .number: break
                    }
                } else {
                    return .claimed(claim)
                }
            case .heldByOther:
                if existing == .skip { return .exists(path: folder + "/" + candidate) }
            case .stale where !staleRemoved:
                staleRemoved = true
                removeStale(marker)
                continue
            case .stale:
                break
            case .failed(let error):
                throw .cannotCreate(path: folder + "/" + candidate, reason: AtomicFile.reason(error, at: folder + "/" + candidate))
            }
            attempt += 1
            staleRemoved = false
        }
    }

    /// Claims the name of the file at `path` for a moment's work (`AtomicFile` on a FAT card): nil
    /// when another run holds it.
    static func hold(_ path: String) throws(FileError) -> NameClaim? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let marker = folder + "/" + markerName(name)
        var staleRemoved = false
        while true {
            switch makeMarker(marker, for: name) {
            case .made: return NameClaim(folder: folder, name: name, marker: marker)
            case .heldByOther: return nil
            case .stale where !staleRemoved:
                staleRemoved = true
                removeStale(marker)
            case .stale: return nil
            case .failed(let error): throw .cannotCreate(path: path, reason: AtomicFile.reason(error, at: path))
            }
        }
    }

    private enum MarkerResult { case made, heldByOther, stale, failed(Errno) }

    /// Makes the claim file for `name`. Where the folder's file system can refuse a rename or link,
    /// our id goes into a temp file that then takes the claim's name, so a claim is never seen
    /// empty, even after a `kill -9` at any moment; elsewhere (FUSE FAT) it is created with O_EXCL
    /// and written at once, and one cut off in between is empty: stale.
    private static func makeMarker(_ path: String, for name: String) -> MarkerResult {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let content = Array("\(ProcessID.current)\n\(name)\n".utf8)
        do throws(Errno) {
            if try !placeWhole(content, at: path, folder: folder) {
                try FileSystem.createNew(FilePath(path), content, mode: AtomicFile.fileMode, sync: false)
            }
            held.withLock { _ = $0.insert(path) }
            return .made
        } catch .exists {
            guard let owner = owner(path) else { return .stale }
            if owner == ProcessID.current { return held.withLock { $0.contains(path) } ? .heldByOther : .stale }
            return ProcessID.isAlive(owner) ? .heldByOther : .stale
        } catch {
            return .failed(error)
        }
    }

    /// Puts `content` at `path` whole (a temp file given the name by `NoReplace`): false when the
    /// folder's file system cannot; EEXIST when the name is taken.
    private static func placeWhole(_ content: [UInt8], at path: String, folder: String) throws(Errno) -> Bool {
        guard NoReplace.method(for: folder) != .exclusiveCreate else { return false }
        let temp: String
        do { temp = try AtomicFile.makeTemp(content, directory: folder, sync: false) } catch { throw error.errno }
        defer { FileSystem.remove(FilePath(temp)) }
        guard let placed = try NoReplace.move(temp, to: path) else { return false }
        guard placed else { throw .exists }
        return true
    }

    /// Removes the claim file of a process that is gone, and the empty file it may have left
    /// under the claimed name (see `AtomicFile`: where a name is taken by O_EXCL, the finished file
    /// replaces an empty one). Whether the claim file is gone.
    @discardableResult
    static func removeStale(_ marker: String) -> Bool {
        if let name = claimedName(marker), !name.isEmpty, !name.contains("/") {
            let folder = marker.lastIndex(of: "/").map { String(marker[..<$0]) } ?? "."
            let path = FilePath(folder + "/" + name)
            if let status = FileStatus(linkAt: path), status.isRegular, status.size == 0 { FileSystem.remove(path) }
        }
        return FileSystem.remove(FilePath(marker))
    }

    /// `.stampcam-claim-NAME`; a name too long for that (a file name has at most 255 bytes) keeps
    /// its first part and a hash of the whole.
    static func markerName(_ name: String) -> String {
        let bytes = PathEncoding.encode(name)
        guard prefix.utf8.count + bytes.count > 255 else { return prefix + name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return prefix + PathEncoding.decode(bytes.prefix(160)) + "-" + Hex.padded(hash, digits: 16)
    }

    /// The process id written in a claim file (its first line).
    static func owner(_ path: String) -> Int32? {
        guard let lines = contents(path) else { return nil }
        return Int32(lines.first.map(String.init)?.trimmingWhitespace ?? "")
    }

    /// The name a claim file claims (its second line); nil in one written before claims held it.
    static func claimedName(_ path: String) -> String? {
        guard let lines = contents(path), lines.count > 1 else { return nil }
        return String(lines[1])
    }

    private static func contents(_ path: String) -> [Substring]? {
        guard let bytes = try? FileSystem.read(FilePath(path), limit: 4096) else { return nil }
        return PathEncoding.decode(bytes).split(separator: "\n", omittingEmptySubsequences: false)
    }
}
