import Imaging
import Platform
import Synchronization

/// Logos read once and kept at the sizes they are drawn, shared by every `Watermarker` of the
/// process (worker threads included): a logo costs its drawn size, not its file's size, however many
/// workers stamp. A file that changes on disk is read again. Thread-safe.
///
/// A logo must be a regular file (a FIFO or a device is refused without opening it for long) of at
/// most `maxFileSize` bytes, a PNG, and at most `maxPixels` pixels — checked from the PNG header,
/// before decoding.
public final class LogoCache: Sendable {
    /// The cache `Watermarker(fontConfig:)` uses.
    public static let shared = LogoCache()

    /// The most pixels a logo file may have: 4096 × 4096, 64 MB decoded, once. A logo is drawn at a
    /// fraction of the photo's short side; larger files only cost memory and time.
    public static let maxPixels = 4096 * 4096
    /// The largest logo file read.
    public static let maxFileSize = 64 << 20
    /// Decoded files up to this many pixels (1024 × 1024, 4 MB) stay in memory to be scaled again for
    /// photos of another size; larger ones are decoded again when a new size is needed.
    static let keptSourcePixels = 1024 * 1024
    /// Sizes kept per logo (a batch of mixed photo sizes needs a few).
    static let sizesPerLogo = 8

    /// What the cache holds: for tests and for `bench`.
    public struct Statistics: Sendable, Equatable {
        /// Times a logo file was decoded.
        public var decodes: Int
        /// Scaled logos held, and their bytes.
        public var images: Int
        public var bytes: Int

        public init(decodes: Int, images: Int, bytes: Int) {
            self.decodes = decodes
            self.images = images
            self.bytes = bytes
        }
    }

    private struct Version: Equatable {
        let identity: FileIdentity
        let size: Int
        let modified: Int
    }

    private final class Entry {
        let version: Version
        let width: Int
        let height: Int
        /// The decoded file, when small enough to keep for scaling to another size.
        let source: PNGImage?
        var images: [(width: Int, height: Int, image: LogoImage)] = []

        init(version: Version, source: PNGImage) {
            self.version = version
            width = source.width
            height = source.height
            self.source = source.pixelCount <= LogoCache.keptSourcePixels ? source : nil
        }
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var decodes = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var statistics: Statistics {
        state.withLock { state in
            let images = state.entries.values.flatMap(\.images)
            return Statistics(decodes: state.decodes, images: images.count, bytes: images.reduce(0) { $0 + $1.image.byteCount })
        }
    }

    /// The pixel size of the logo file at `path`, reading and decoding it unless it is cached.
    public func size(of path: String) throws(WatermarkError) -> (width: Int, height: Int) {
        try state.withLock { state throws(WatermarkError) in
            let entry = try Self.entry(path, in: &state).entry
            return (entry.width, entry.height)
        }
    }

    /// The logo at `path` scaled to the size `fit` picks for the file's own width and height.
    func image(_ path: String, fit: (_ width: Int, _ height: Int) -> (width: Int, height: Int))
        throws(WatermarkError) -> LogoImage
    {
        try state.withLock { state throws(WatermarkError) in
            let (entry, fresh) = try Self.entry(path, in: &state)
            let size = fit(entry.width, entry.height)
            if let held = entry.images.first(where: { $0.width == size.width && $0.height == size.height }) {
                return held.image
            }
            let source: PNGImage
            if let decoded = fresh ?? entry.source {
                source = decoded
            } else {
                source = try Self.decode(path, state: &state).source
            }
            guard let image = LogoImage(scaling: source, width: size.width, height: size.height) else {
                throw WatermarkError.logo(path: path, reason: "not enough memory to scale it to \(size.width)×\(size.height)")
            }
            entry.images.append((size.width, size.height, image))
            if entry.images.count > Self.sizesPerLogo { entry.images.removeFirst() }
            return image
        }
    }

    /// The cached entry for `path` when the file has not changed since, else a new one, with the
    /// image just decoded for it (kept in the entry only when it is small).
    private static func entry(_ path: String, in state: inout State) throws(WatermarkError) -> (entry: Entry, fresh: PNGImage?) {
        if let status = FileStatus(path: FilePath(path)), let cached = state.entries[path],
           cached.version == Version(identity: status.identity, size: status.size, modified: status.modified) {
            return (cached, nil)
        }
        state.entries[path] = nil
        let (source, version) = try decode(path, state: &state)
        let entry = Entry(version: version, source: source)
        state.entries[path] = entry
        return (entry, source)
    }

    /// Reads and decodes the file.
    private static func decode(_ path: String, state: inout State) throws(WatermarkError) -> (source: PNGImage, version: Version) {
        let bytes: [UInt8], version: Version
        // stat does not open the file, so it never waits on a FIFO; reading checks the kind again.
        let status = FileStatus(path: FilePath(path))
        do {
            bytes = try FileSystem.read(FilePath(path), limit: maxFileSize)
        } catch {
            throw .logo(path: path, reason: reason(error))
        }
        guard let status else { throw .logo(path: path, reason: "file not found") }
        version = Version(identity: status.identity, size: status.size, modified: status.modified)
        guard bytes.starts(with: PNGImage.signature) else {
            throw .logo(path: path, reason: bytes.isEmpty ? "the file is empty, not a PNG" : "not a PNG file")
        }
        guard let size = PNGImage.size(of: bytes) else {
            throw .logo(path: path, reason: "not a valid PNG file (its image header is missing or damaged)")
        }
        guard size.width <= maxPixels / size.height else {
            let tenths = maxPixels / 100_000
            throw .logo(path: path, reason: "the logo is \(size.width)×\(size.height) pixels; a logo may have at most "
                + "\(tenths / 10).\(tenths % 10) million (4096×4096): scale it down")
        }
        state.decodes += 1
        do {
            return (try PNGImage(bytes: bytes), version)
        } catch {
            throw .logo(path: path, reason: reason(error))
        }
    }

    static func reason(_ error: ImageError) -> String {
        switch error {
        case .corruptFile(_, let detail): return "not a valid PNG file: " + detail
        default: return error.description
        }
    }

    static func reason(_ error: FileSystem.ReadError) -> String {
        switch error {
        case .system(let errno) where errno == .noEntry: return "file not found"
        case .system(let errno): return errno.reason
        case .notRegular(let kind): return "it is \(kind), not a regular file"
        case .tooLarge(let size, let limit):
            return "the file is \(size / 1_000_000) MB; a logo file may be at most \(limit / 1_000_000) MB"
        }
    }
}
