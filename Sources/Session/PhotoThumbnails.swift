import Catalog
import Imaging
import Library
import Platform
import Synchronization

/// Small pictures of logged photos, made on demand from the files and kept in memory up to a
/// budget of bytes (the least recently used go first). A picture is made only of the file the log
/// describes: its size and SHA-256 must be the logged ones, so a photo deleted or replaced after it
/// was logged shows as such, never as another picture. Each verdict is kept with the file's
/// identity, so a file changed again is looked at again.
public final class PhotoThumbnails: Sendable {
    /// The long side of a picture, pixels: a timeline's tile on a phone with a 2× screen.
    public static let size = 320

    /// Why a logged photo's file is not the photo the log describes.
    public enum FileProblem: Error, Sendable, Equatable {
        /// No file at the logged path.
        case missing
        /// A file whose size or SHA-256 is not the logged one.
        case changed
        /// The logged file, but it cannot be read as a photo.
        case unreadable(String)
    }

    /// A logged photo's picture, or why there is none.
    public enum Picture: Sendable, Equatable {
        case jpeg([UInt8])
        case problem(FileProblem)
    }

    private struct Key: Hashable {
        let path: String
        let sha256: String
        let identity: FileIdentity
        let size: Int
        let modified: Int
    }

    private struct State {
        var pictures: [Key: (picture: Picture, used: Int)] = [:]
        var bytes = 0
        var tick = 0
    }

    private let budget: Int
    private let state = Mutex(State())

    /// Keeps at most `budget` bytes of pictures.
    public init(budget: Int = 32 << 20) { self.budget = max(0, budget) }

    /// The file state known without reading the file: missing, or changed when its size is not the
    /// logged one or a picture made earlier found it changed; nil when it may be the logged file.
    public func knownProblem(_ entry: CatalogEntry) -> FileProblem? {
        guard let status = FileStatus(path: FilePath(entry.path)), status.isRegular else { return .missing }
        guard status.size == entry.size else { return .changed }
        let key = Key(path: entry.path, sha256: entry.sha256, identity: status.identity, size: status.size, modified: status.modified)
        return state.withLock { state -> FileProblem? in
            guard case .problem(let problem)? = state.pictures[key]?.picture, problem == .changed else { return nil }
            return problem
        }
    }

    /// The picture of `entry`'s photo, made now or kept from before.
    public func picture(of entry: CatalogEntry) -> Picture {
        guard let status = FileStatus(path: FilePath(entry.path)), status.isRegular else { return .problem(.missing) }
        let key = Key(path: entry.path, sha256: entry.sha256, identity: status.identity, size: status.size, modified: status.modified)
        if let kept = state.withLock({ state -> Picture? in
            guard let kept = state.pictures[key] else { return nil }
            state.tick += 1
            state.pictures[key]?.used = state.tick
            return kept.picture
        }) { return kept }
        let made = Self.make(entry)
        keep(made, as: key)
        return made
    }

    /// The logged file's bytes when they are the logged ones (size and SHA-256).
    public static func loggedFile(_ entry: CatalogEntry) -> Result<FileContents, FileProblem> {
        let file: FileContents
        do {
            // Never more than the logged size and a byte: a file grown since is changed, and is not read whole.
            file = try InputFile.photo(entry.path, limit: entry.size + 1)
        } catch {
            return .failure(FileStatus(path: FilePath(entry.path)) == nil ? .missing : .unreadable("\(error)"))
        }
        guard file.isWhole, file.count == entry.size, FileDigest.sha256(file.bytes) == entry.sha256 else { return .failure(.changed) }
        return .success(file)
    }

    private static func make(_ entry: CatalogEntry) -> Picture {
        switch loggedFile(entry) {
        case .failure(let problem):
            return .problem(problem)
        case .success(let file):
            do {
                var photo = try Photo(file: file, options: LoadOptions(maxSize: size))
                photo.metadata = PhotoMetadata()
                return .jpeg(try photo.jpeg(quality: 75))
            } catch {
                return .problem(.unreadable("\(error)"))
            }
        }
    }

    private func keep(_ picture: Picture, as key: Key) {
        let cost = Self.cost(picture)
        guard cost <= budget else { return }
        state.withLock { state in
            state.tick += 1
            if let old = state.pictures[key] { state.bytes -= Self.cost(old.picture) }
            state.pictures[key] = (picture, state.tick)
            state.bytes += cost
            // Over budget: the least recently used go, oldest first, until it fits.
            if state.bytes > budget {
                let order = state.pictures.sorted { $0.value.used < $1.value.used }
                for (old, value) in order where state.bytes > budget {
                    state.pictures[old] = nil
                    state.bytes -= Self.cost(value.picture)
                }
            }
        }
    }

    /// Bytes a kept picture counts for: its JPEG, and a little for a verdict without one.
    private static func cost(_ picture: Picture) -> Int {
        if case .jpeg(let bytes) = picture { return bytes.count + 256 }
        return 256
    }
}
