import Imaging
import Library
import Platform
import Synchronization
import Templates
import Watermark

/// What `stampcam apply` does with its settings: stamps photos from disk into an output folder on
/// several threads. Output names are decided for the whole batch before any photo is written (two
/// inputs called `IMG_0001.jpg` get `IMG_0001.jpg` and `IMG_0001-1.jpg`, in input order, every run),
/// each name is claimed before its photo is worked on (so concurrent runs share a folder without
/// doing a photo twice), and a first Ctrl-C lets the photos in flight finish.
public final class ApplyJob: Sendable {
    public struct Settings: Sendable {
        public var output: String
        public var load: LoadOptions
        public var writer: PhotoWriter.Settings
        /// What to do when an output exists: number (default), skip (`--skip-existing`), replace (`--overwrite`).
        public var existing: NameClaim.Existing
        public var jobs: Int
        /// `--name`; nil keeps each input's name.
        public var nameTemplate: TextTemplate?
        public var style: Template
        public var fields: FieldPolicy
        /// fonts/fonts.conf.
        public var fontConfig: String
        /// Only this part of the inputs (`--shard K/N`), for N tasks of a scheduler sharing a batch.
        public var shard: Shard?
        /// Stamp photos stampcam stamped before, over their stamp (`--stamp-again`); otherwise they
        /// fail with `AlreadyStamped`.
        public var stampAgain: Bool
        /// Mark the output folder as one of stamped photos (not when `-o` names one file in a
        /// folder of the user's own).
        public var markFolder = true
        /// A JPEG kept at its own size is stamped in place (`InPlaceJPEG`): only the blocks under
        /// the stamp are encoded again. False decodes and encodes every photo whole (`--reencode`).
        public var inPlace = true

        public init(output: String, load: LoadOptions, writer: PhotoWriter.Settings, existing: NameClaim.Existing,
                    jobs: Int, nameTemplate: TextTemplate?, style: Template, fields: FieldPolicy, fontConfig: String,
                    shard: Shard? = nil, stampAgain: Bool = false) {
            self.stampAgain = stampAgain
            self.output = output
            self.load = load
            self.writer = writer
            self.existing = existing
            self.jobs = jobs
            self.nameTemplate = nameTemplate
            self.style = style
            self.fields = fields
            self.fontConfig = fontConfig
            self.shard = shard
        }
    }

    /// Part K of N of a batch: the photos whose path below its input folder hashes to K. Every task
    /// given the same inputs plans the same names, so N tasks stamp each photo exactly once.
    public struct Shard: Sendable, Equatable {
        public let index: Int
        public let count: Int

        public init?(index: Int, count: Int) {
            guard count > 0, (0..<count).contains(index) else { return nil }
            self.index = index
            self.count = count
        }

        /// Whether a photo of the batch is in this part.
        public func contains(_ item: ApplyItem) -> Bool { contains(ApplyJob.relativePath(item)) }

        /// Whether the photo at `relativePath` (below its input folder, or its name) is in this part.
        public func contains(_ relativePath: String) -> Bool {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: the same on every machine and run
            for byte in PathEncoding.encode(relativePath) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return Int(hash % UInt64(count)) == index
        }
    }

    /// What became of one input.
    public struct Outcome: Sendable {
        public enum Status: String, Sendable { case done, skipped, failed }

        public let input: String
        public let status: Status
        public var output: String?
        /// Why it failed: a `FileError`, `ImageError`, `WriteError` … (the input is not named in it).
        public var error: (any Error)?
        /// Things to tell the user about a photo that was done (EXIF that had to be dropped …).
        public var warnings: [String] = []
        /// What the stamp said about the values given (the same for every photo: told once).
        public var stampNotes: [String] = []
        /// Written under a numbered name (`-1`, `-2` …) because a file had its own name already.
        public var renamed = false
        /// Why a JPEG kept at its own size was decoded and encoded whole rather than stamped in
        /// place; nil when it was stamped in place, or resized or converted (encoded whole anyway).
        public var reencoded: String?
    }

    public struct Summary: Sendable {
        public var done = 0, skipped = 0, failed = 0
        /// A Ctrl-C stopped the batch before every photo was started.
        public var interrupted = false
        /// Why the batch stopped before every photo was started because the output folder could
        /// take no more (a card pulled out, a full disk); the photos in flight failed.
        public var outputLost: String?
    }

    private let settings: Settings
    private let stopped = Mutex(false)
    private let inFlight = Mutex(0)
    /// Why the output folder can take no more photos, once a failed photo has shown it.
    private let outputLost = Mutex<String?>(nil)

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Photos are not started after this; those in flight finish. May come before `run` (a Ctrl-C
    /// while the inputs are still being listed).
    public func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    /// Stamps every photo; `report` is called once per input, one call at a time, as each ends.
    /// Throws only when the work cannot start (the output folder, the fonts or the signing keys are
    /// unusable, no thread can be made). A signal that ends the process (SIGTERM, SIGHUP) first lets the photos
    /// in flight finish.
    ///
    /// `ready` gives the first worker's watermarker (the fonts set up on another thread, and the
    /// style checked with them); it is called once, after the first photo is read and before
    /// anything is written: what it throws ends the run with nothing made. The other workers set up
    /// their own fonts.
    public func run(_ inputs: ApplyInputs, ready: () throws -> Watermarker,
                    report: @escaping @Sendable (Outcome) -> Void) throws -> Summary {
        let summary = Mutex(Summary())
        let reporting = Mutex(())
        let record: @Sendable (Outcome) -> Void = { outcome in
            reporting.withLock { _ in
                summary.withLock { summary in
                    switch outcome.status {
                    case .done: summary.done += 1
                    case .skipped: summary.skipped += 1
                    case .failed: summary.failed += 1
                    }
                }
                report(outcome)
            }
        }
        let shard = settings.shard
        let items = inputs.items
        // Names are planned over the whole batch (every shard plans the same), the work is this shard's.
        let mine = items.indices.filter { shard?.contains(items[$0]) ?? true }
        // The first photo is read while the fonts are set up. Not when a rerun may skip it
        // (`--skip-existing`): such a photo is not read at all.
        let first = Mutex<(index: Int, photo: Result<Photo, any Error>)?>(nil)
        // Not when it may be stamped in place, which reads no pixel it does not stamp.
        if settings.existing != .skip, !settings.inPlace, let index = mine.first {
            let photo = Result { try Photo(file: try InputFile.photo(items[index].input, check: settings.load.check), options: settings.load) }
            first.withLock { $0 = (index, photo) }
        }
        let watermarker = Mutex<Watermarker?>(try ready())
        let failures = inputs.failures.filter { shard?.contains(PhotoName.lastComponent($0.input)) ?? true }
        for failure in failures {
            record(Outcome(input: failure.input, status: .failed, error: failure.error))
        }
        // Nothing to stamp: no output folder is made (a failed run leaves no empty folder behind).
        guard !mine.isEmpty else { return summary.withLock { $0 } }
        let outputExisted = FileSystem.exists(FilePath(settings.output))
        try OutputFolder.prepare(settings.output, mark: settings.markFolder)
        defer { if !outputExisted { OutputFolder.removeIfEmpty(settings.output) } }
        let output = FileIdentity(path: FilePath(settings.output))
        // Photos are about to be signed: keys that cannot sign (expired, the CA key offline) end the
        // run here with one line, rather than each photo failing with the same one.
        _ = try settings.writer.signer?.identity()
        let termination = Signals.shared.onTermination(.workInFlight) { [self] in
            stop()
            waitForPhotosInFlight(seconds: 30)
        }
        defer { termination.cancel() }

        let inShard = Set(mine)
        let workers = max(1, min(settings.jobs, mine.count))
        let plan = try self.plan(items, workers: workers) { index, error in
            if inShard.contains(index) { record(Outcome(input: items[index].input, status: .failed, error: error)) }
        }
        let next = Mutex(0)
        let folders = FolderCache(mark: settings.markFolder)
        var writerSettings = settings.writer
        writerSettings.protected = Set(items.map(\.status.identity))
        writerSettings.memoryLimit = settings.load.memoryLimit
        // The disk's part of a photo is done on a finisher's thread while the next one is stamped.
        let finishers = try (0..<workers).map { _ throws(Threads.StartError) in try Finisher() }
        // Each worker closes its own when it ends; these are for when the workers could not start.
        defer { for finisher in finishers { finisher.close() } }
        try Threads.run(count: workers) { [self, writerSettings] worker in
            // Fonts are not thread-safe: each worker has its own. One that cannot set them up
            // leaves the photos to the others (the first worker's are set up already).
            let fonts = watermarker.withLock { $0.take() }
            guard let fonts = try? fonts ?? Watermarker(fontConfig: settings.fontConfig) else { return }
            let writer = PhotoWriter(watermarker: fonts, settings: writerSettings)
            // Every outcome goes through the worker's finisher, so its photos are reported in order.
            let finisher = finishers[worker]
            defer { finisher.close() }
            // Only once it is told does a photo stop being in flight: a SIGTERM waits for that, and a
            // photo saved but not reported would look undone to whoever reads the report (a batch
            // scheduler re-running it).
            let report: @Sendable (Outcome) -> Void = { [self] outcome in
                if outcome.status == .failed, Self.isFileError(outcome.error) { checkOutput(identity: output) }
                record(outcome)
                inFlight.withLock { $0 -= 1 }
            }
            while let index = next.withLock({ (next: inout Int) -> Int? in
                guard !isStopped, next < mine.count else { return nil }
                defer { next += 1 }
                return mine[next]
            }) {
                guard let name = plan.names[index] else { continue }  // failed in planning, reported there
                inFlight.withLock { $0 += 1 }
                // Taken out, so the stamp draws on the only reference to its pixels (no copy).
                let loaded = first.withLock { $0?.index == index ? $0.take()?.photo : nil }
                switch stamp(items[index], name: name, plan: plan, writer: writer, folders: folders, loaded: loaded) {
                case .ended(let outcome):
                    finisher.add { report(outcome) }
                case .pending(let photo, let outcome):
                    finisher.add { report(outcome(Result { () throws(WriteError) in try photo.finish() })) }
                }
            }
        }
        folders.removeEmpty()
        var result = summary.withLock { $0 }
        result.interrupted = isStopped && result.done + result.skipped + result.failed < failures.count + mine.count
        result.outputLost = outputLost.withLock { $0 }
        return result
    }

    /// Stops the batch when the output folder can take no more photos (see `OutputFolder.lost`):
    /// the photos in flight end, each with its own line, and the rest are not started.
    private func checkOutput(identity: FileIdentity?) {
        guard outputLost.withLock({ $0 == nil }), let why = OutputFolder.lost(settings.output, identity: identity) else { return }
        outputLost.withLock { $0 = why }
        stop()
    }

    /// Whether a photo failed writing a file (rather than reading or stamping one).
    private static func isFileError(_ error: (any Error)?) -> Bool {
        switch error {
        case let error as WriteError:
            if case .file = error.cause { return true }
            return false
        case is FileError: return true
        default: return false
        }
    }

    private func waitForPhotosInFlight(seconds: Double) {
        let deadline = WallClock.monotonic() + seconds
        while inFlight.withLock({ $0 }) > 0 && WallClock.monotonic() < deadline { WallClock.sleep(0.02) }
    }

    // MARK: names

    /// Every photo's output name, decided before any is written. Names clash only inside one output
    /// folder; within a run a clash is numbered in input order, so a rerun gives each photo the same name.
    struct Plan: Sendable {
        var names: [String?]
        /// The names this run will write, per folder: passed over when a name must be numbered further.
        var taken: [String: Set<String>]
    }

    /// The photo's path below its input folder (its name when it was named itself): what a shard hashes.
    static func relativePath(_ item: ApplyItem) -> String {
        let name = PhotoName.lastComponent(item.input)
        return item.subfolder.isEmpty ? name : item.subfolder + "/" + name
    }

    private func folder(of item: ApplyItem) -> String {
        item.subfolder.isEmpty ? settings.output : settings.output + "/" + item.subfolder
    }

    private func plan(_ items: [ApplyItem], workers: Int, failed: @escaping @Sendable (Int, any Error) -> Void) throws(Threads.StartError) -> Plan {
        var wanted = [String?](repeating: nil, count: items.count)
        if let template = settings.nameTemplate {
            // A --name may use the photo's date, camera …: read every header (not the pixels) first.
            let results = Mutex([String?](repeating: nil, count: items.count))
            let next = Mutex(0)
            try Threads.run(count: workers) { [self] _ in
                while let index = next.withLock({ (next: inout Int) -> Int? in
                    guard next < items.count else { return nil }
                    defer { next += 1 }
                    return next
                }) {
                    let item = items[index]
                    do {
                        let name = PhotoName.make(template: template, input: item.input, fields: try fields(for: item, metadata: nil))
                        results.withLock { $0[index] = name }
                    } catch {
                        failed(index, error)
                    }
                }
            }
            wanted = results.withLock { $0 }
        } else {
            wanted = items.map { PhotoName.make(template: nil, input: $0.input, fields: Fields()) }
        }
        var plan = Plan(names: [String?](repeating: nil, count: items.count), taken: [:])
        for index in items.indices.sorted(by: { items[$0].sequence < items[$1].sequence }) {
            guard let name = wanted[index] else { continue }
            let folder = folder(of: items[index])
            var taken = plan.taken[folder, default: []]
            var candidate = name, number = 0
            while taken.contains(candidate) {
                number += 1
                candidate = AtomicFile.numbered(name, number)
            }
            taken.insert(candidate)
            plan.taken[folder] = taken
            plan.names[index] = candidate
        }
        return plan
    }

    /// The stamp's fields for a photo; reads its metadata when `metadata` is not given.
    private func fields(for item: ApplyItem, metadata: PhotoMetadata?) throws -> Fields {
        let metadata = try metadata ?? self.metadata(of: item.input)
        var fields = settings.fields.fields(for: metadata, fileTime: FieldPolicy.fileTime(modified: item.status.modified))
        fields.filename = PhotoName.make(template: nil, input: item.input, fields: Fields())
        fields.sequence = item.sequence
        return fields
    }

    /// A photo's metadata without its picture: a JPEG's headers come before its picture data, so
    /// its first `headerBytes` are read, and the whole file only when they end before the
    /// headers do (or it is no JPEG: a HEIC's metadata may be anywhere in it).
    private func metadata(of input: String) throws -> PhotoMetadata {
        let head = try InputFile.photo(input, limit: Self.headerBytes, check: settings.load.check)
        if ImageFormat.sniff(head.bytes) == .jpeg, let metadata = try? PhotoMetadata(file: head) { return metadata }
        return try PhotoMetadata(file: head.isWhole ? head : InputFile.photo(input, check: settings.load.check))
    }

    /// Enough for the APP segments (EXIF, XMP, ICC) a camera puts before a JPEG's picture data.
    static let headerBytes = 1 << 20

    // MARK: one photo

    /// What became of a photo on its worker: its outcome, or its bytes staged and waiting for the
    /// disk, with what to say once they are (or are not) saved.
    private enum Stamped {
        case ended(Outcome)
        case pending(PhotoWriter.PendingPhoto, outcome: @Sendable (Result<WrittenPhoto, WriteError>) -> Outcome)
    }

    /// `loaded`: the photo read already (the first one, see `run`), or what reading it threw.
    private func stamp(_ item: ApplyItem, name: String, plan: Plan, writer: PhotoWriter, folders: FolderCache,
                       loaded: consuming Result<Photo, any Error>?) -> Stamped {
        let folder = folder(of: item)
        do {
            // A photo stamped into its own folder under its own name would replace it: refused,
            // whatever the options (numbering it instead would mix stamped photos into the originals).
            if let identity = FileIdentity(path: FilePath(folder + "/" + name)), writer.settings.protected.contains(identity) {
                throw FileError.wouldReplaceInput(path: folder + "/" + name)
            }
            try folders.prepare(folder)
            let taken = plan.taken[folder] ?? []
            let claim: NameClaim
            switch try NameClaim.claim(name, in: folder, existing: settings.existing, taken: { taken.contains($0) }) {
            case .claimed(let claimed): claim = claimed
            case .exists(let path): return .ended(Outcome(input: item.input, status: .skipped, output: path))
            }
            var reencoded: String?
            let prepared: (pending: PhotoWriter.PendingPhoto, format: ImageFormat, loadWarnings: [String])
            if let loaded = consume loaded {
                prepared = try prepare(try loaded.get(), item: item, claim: claim, writer: writer)
            } else {
                let file = try InputFile.photo(item.input, check: settings.load.check)
                if settings.inPlace, let inPlace = InPlaceChoice.open(file, load: settings.load, style: settings.style, reason: &reencoded) {
                    try checkNotStamped(inPlace.metadata, item: item, claim: claim)
                    let fields = try fields(for: item, metadata: inPlace.metadata)
                    let warnings = inPlace.metadata.warnings
                    prepared = (try writer.prepare(inPlace: inPlace, style: settings.style, fields: fields, to: claim, source: item.input),
                                .jpeg, warnings)
                } else {
                    prepared = try prepare(try Photo(file: file, options: settings.load), item: item, claim: claim, writer: writer)
                }
            }
            let (pending, format, loadWarnings) = prepared
            let why = reencoded
            let input = item.input
            let renamed = claim.name != name
            return .pending(pending) { saved in
                let written: WrittenPhoto
                switch saved {
                case .success(let photo): written = photo
                case .failure(let error): return Outcome(input: input, status: .failed, error: error)
                }
                var warnings = loadWarnings + written.warnings
                // Read by its content; a name that says otherwise is worth knowing (a phone's HEIC renamed .jpg).
                if let named = ImageFormat.named(input), named != format {
                    warnings.insert("this is a \(format.rawValue) file, named like a \(named.rawValue) one; read as \(format.rawValue)", at: 0)
                }
                return Outcome(input: input, status: .done, output: written.path, warnings: warnings, stampNotes: written.stampNotes,
                               renamed: renamed, reencoded: why)
            }
        } catch {
            return .ended(Outcome(input: item.input, status: .failed, error: error))
        }
    }

    /// A decoded photo stamped whole, its format, and what loading it had to say.
    private func prepare(_ photo: consuming Photo, item: ApplyItem, claim: NameClaim,
                         writer: PhotoWriter) throws -> (pending: PhotoWriter.PendingPhoto, format: ImageFormat, loadWarnings: [String]) {
        try checkNotStamped(photo.metadata, item: item, claim: claim)
        let fields = try fields(for: item, metadata: photo.metadata)
        let (format, warnings) = (photo.format, photo.metadata.warnings)
        // Handed over, so the stamp is drawn on these pixels rather than on a copy of them.
        return (try writer.prepare(consume photo, style: settings.style, fields: fields, to: claim, source: item.input), format, warnings)
    }

    /// Refuses a photo stampcam stamped before, unless `--stamp-again`.
    private func checkNotStamped(_ metadata: PhotoMetadata, item: ApplyItem, claim: NameClaim) throws {
        if !settings.stampAgain, let record = StampRecord.read(metadata) {
            claim.release()
            throw AlreadyStamped(record, originalKept: Restamp.keptOriginal(of: item.input, record: record) != nil)
        }
    }
}

/// One worker's photos waiting for the disk, finished in order on a thread of their own while the
/// worker stamps the next: a slow sync (an SD card) does not leave a core idle.
private final class Finisher: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var closed = false
        var ended = false
    }

    private let state = ConditionLock(State())
    /// At most this many photos wait: a disk that stalls holds the worker up rather than filling memory.
    private static let depth = 2

    init() throws(Threads.StartError) {
        let state = self.state
        try Threads.detach {
            while let job = state.wait(until: { !$0.jobs.isEmpty || $0.closed }, then: { state -> (@Sendable () -> Void)? in
                state.jobs.isEmpty ? nil : state.jobs.removeFirst()
            }) ?? nil {
                job()
            }
            state.withLock { $0.ended = true }
        }
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        state.wait(until: { $0.jobs.count < Self.depth }, then: { $0.jobs.append(job) })
    }

    /// Waits until every photo added has been finished.
    func close() {
        state.withLock { $0.closed = true }
        state.wait(until: { $0.ended }, then: { _ in })
    }
}

/// Output folders created once each: the first photo headed for a folder creates it; a folder
/// that cannot be made fails every photo headed there with the same error. A folder this run
/// created that got no photo (all of its inputs were bad) is removed again at the end.
private final class FolderCache: Sendable {
    private let known = Mutex<[String: FileError?]>([:])
    private let created = Mutex<Set<String>>([])
    private let mark: Bool

    init(mark: Bool) { self.mark = mark }

    func prepare(_ folder: String) throws(FileError) {
        if let result = known.withLock({ $0[folder] }) {
            if let error = result { throw error }
            return
        }
        let existed = FileSystem.exists(FilePath(folder))
        do {
            try OutputFolder.prepare(folder, mark: mark)
            known.withLock { $0[folder] = .some(nil) }
            if !existed { created.withLock { _ = $0.insert(folder) } }
        } catch {
            known.withLock { $0[folder] = error }
            throw error
        }
    }

    /// Removes the folders this run created that hold nothing but their marker, deepest first.
    func removeEmpty() {
        for folder in created.withLock({ $0 }).sorted(by: { $0.count > $1.count }) {
            OutputFolder.removeIfEmpty(folder)
        }
    }
}
