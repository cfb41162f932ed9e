import Platform
import Synchronization
import Values

#if canImport(Glibc)
import Glibc
#endif

/// An output name reserved by this process: a hidden `.stampcam-claim-NAME` file holding our
/// process id, made with O_EXCL before the work, so two runs writing into one folder never pick the
/// same name and never stamp the same photo twice (one skips what the other is doing). Released
/// when the photo has its name, or when this is dropped; a claim of a process that is gone is
/// removed by the next run.
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
            switch makeMarker(marker) {
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
                FileSystem.remove(FilePath(marker))
                continue
            case .stale:
                break
            case .failed(let error):
                throw .cannotCreate(path: folder + "/" + candidate, reason: error.reason)
            }
            attempt += 1
            staleRemoved = false
        }
    }

    private enum MarkerResult { case made, heldByOther, stale, failed(Errno) }

    /// Makes the claim file whole or not at all: our id goes into a temp file that is then linked
    /// to the claim's name (link fails when the name is taken), so a claim is never seen empty, even
    /// after a `kill -9` at any moment.
    private static func makeMarker(_ path: String) -> MarkerResult {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let temp: String
        do {
            temp = try AtomicFile.writeTemp(Array("\(ProcessID.current)\n".utf8), directory: folder, target: path, sync: false)
        } catch {
            return .failed(.io)
        }
        defer { FileSystem.remove(FilePath(temp)) }
        do {
            try FileSystem.link(FilePath(temp), to: FilePath(path))
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

    /// `.stampcam-claim-NAME`; a name too long for that (a file name has at most 255 bytes) keeps
    /// its first part and a hash of the whole.
    static func markerName(_ name: String) -> String {
        let bytes = PathEncoding.encode(name)
        guard prefix.utf8.count + bytes.count > 255 else { return prefix + name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return prefix + PathEncoding.decode(bytes.prefix(160)) + "-" + Hex.padded(hash, digits: 16)
    }

    /// The process id written in a claim file.
    static func owner(_ path: String) -> Int32? {
        guard let bytes = try? FileSystem.read(FilePath(path), limit: 64) else { return nil }
        return Int32(String(decoding: bytes, as: UTF8.self).trimmingWhitespace)
    }
}
