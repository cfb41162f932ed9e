import Imaging
import Library
import Location
import Platform
import Synchronization
import Templates
import Values
import Watermark

/// Photos the team's phones upload to `serve`: each read by its content (JPEG, HEIC, PNG) with the
/// limits `apply` has, stamped through the same `PhotoWriter` as every photo, with the server's
/// clock at its arrival as its time (the phone's own time is kept in the record beside it, and a
/// difference over a minute is said on the stamp), the person's name, and the position the phone
/// sent (judged by the rules a gpsd fix meets) or else the photo's own EXIF GPS. A photo is staged
/// for review (`use` keeps it, `retake` drops it, as `shoot` does) or saved at once.
public final class PhotoUploads: Sendable {
    public struct Settings: Sendable {
        public var folder: String
        public var style: Template
        /// The session's fields and rules (`--sites`, `--tz`, the GPS accuracy rules).
        public var fields: FieldPolicy
        /// Its `log` is the catalog the photos are logged in.
        public var writer: PhotoWriter.Settings
        /// The size and the pixel and memory limits (`--max-size`, as `apply`).
        public var load: LoadOptions
        public var fontConfig: String
        /// A JPEG kept at its own size is stamped in place, as `apply` does.
        public var inPlace = true
        /// Photos under review at once, per person: more is refused until one is used or retaken.
        public var reviewsPerPerson = 4
        /// `--name`: how saved photos are named; nil for `YYYYMMDD-HHMMSS-NNNN.jpg`.
        public var nameTemplate: TextTemplate?
        /// `--keep-original`: the phone's photo is kept beside the stamped one, with a sidecar, so it
        /// can be stamped again (`restamp`).
        public var keepOriginal = false
        /// The folder's shot numbers, shared with the camera's photos; nil counts on from the folder.
        public var counter: ShotCounter?
        /// Hears what the server's operator should know (a share command that failed).
        public var tell: @Sendable (String) -> Void = { _ in }
        /// The server's clock.
        public var clock: @Sendable () -> Timestamp = { FieldPolicy.clockTime() }

        public init(folder: String, style: Template, fields: FieldPolicy, writer: PhotoWriter.Settings, load: LoadOptions,
                    fontConfig: String) {
            self.folder = folder
            self.style = style
            self.fields = fields
            self.writer = writer
            self.load = load
            self.fontConfig = fontConfig
        }
    }

    /// One photo as a phone sent it.
    public struct Upload: Sendable {
        public var photo: FileContents
        /// Who sent it (the person's token, or the page) and for whom it is kept under review.
        public var person: String?
        public var owner: String
        /// What the limit of photos under review counts it against (the person, else the address);
        /// nil counts it against `owner`.
        public var sender: String?
        public var project: String?
        public var note: String?
        /// Where the phone was (its browser's position), if it said.
        public var position: Position?
        /// When the phone says it took the photo (a photo kept while the server was out of reach),
        /// for a photo whose own EXIF has no time.
        public var phoneTime: Timestamp?

        public init(photo: FileContents, person: String?, owner: String, project: String? = nil, note: String? = nil,
                    position: Position? = nil) {
            self.photo = photo
            self.person = person
            self.owner = owner
            self.project = project
            self.note = note
            self.position = position
        }
    }

    /// A browser's position (the Geolocation API's): degrees, metres, and how old it was when sent.
    public struct Position: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var accuracy: Double?
        public var altitude: Double?
        public var ageSeconds: Double

        public init?(latitude: Double, longitude: Double, accuracy: Double?, altitude: Double? = nil, ageSeconds: Double = 0) {
            guard (-90...90).contains(latitude), (-180...180).contains(longitude), ageSeconds.isFinite,
                  accuracy.map({ $0.isFinite && $0 >= 0 }) ?? true, altitude?.isFinite ?? true else { return nil }
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
            self.altitude = altitude
            self.ageSeconds = max(0, ageSeconds)
        }
    }

    /// An upload stamped and staged: its id for `use`/`retake`, its name once saved, its stamped bytes.
    public struct Staged: Sendable {
        public let id: String
        public let name: String
        /// The values it is stamped with, as its record keeps them (its number, name and code included).
        public let fields: Fields
        /// The stamped JPEG, for the review.
        public let jpeg: [UInt8]
        /// What the person should know (the phone's time far from the server's, an unusable position …).
        public let notes: [String]
    }

    /// Why an upload was not stamped or kept. Facts; the web layer words the advice.
    public enum Refusal: Error, Sendable, CustomStringConvertible {
        case tooManyReviews(Int)
        case noSuchReview
        case unreadable(any Error)
        case cannotSave(WriteError)

        public var description: String {
            switch self {
            case .tooManyReviews(let count): return "\(count) photos are waiting for review: use or retake one first"
            case .noSuchReview: return "no photo under review has that id (used, retaken, or from another person)"
            case .unreadable(let error): return "the photo cannot be read: \(error)"
            case .cannotSave(let error): return "the photo cannot be saved: \(error)"
            }
        }
    }

    private struct Review: Sendable {
        let owner: String
        let sender: String
        let photo: PhotoWriter.PendingPhoto
    }

    /// Everything the uploads being answered at once share: one value behind one lock.
    private struct State: Sendable {
        var reviews: [String: Review] = [:]
        /// Reviews being stamped, by sender: they count against the limit before they exist.
        var stamping: [String: Int] = [:]
        /// Reviews are numbered; each is its owner's alone, so the numbers need not be secret.
        var nextReview = 1
        /// Photos saved.
        var saved = 0

        func waiting(_ sender: String) -> Int {
            reviews.values.filter { $0.sender == sender }.count + stamping[sender, default: 0]
        }
    }

    public let settings: Settings
    private let state = Mutex(State())
    private let counter: ShotCounter
    /// Photos are stamped in these slots, one a core, so many uploads at once cost memory for a
    /// few only. Fonts are not thread-safe: each slot has its own, set up on first use.
    private let fonts: [FontSlot]
    private let freeSlots: ConditionLock<[Int]>
    /// Runs `--exec` for each saved photo, one at a time, made on the first.
    private let sharing = Mutex<WorkerPool<Void>?>(nil)

    private final class FontSlot: Sendable {
        let watermarker = Mutex<Watermarker?>(nil)
    }

    public init(settings: Settings) {
        self.settings = settings
        counter = settings.counter ?? ShotCounter(folder: settings.folder)
        let slots = max(1, Cores.count)
        fonts = (0..<slots).map { _ in FontSlot() }
        freeSlots = ConditionLock(Array(0..<slots))
    }

    /// Stamps `upload` and stages it for review; nothing is named in the folder until `use`.
    public func stage(_ upload: Upload) throws(Refusal) -> Staged {
        let sender = upload.sender ?? upload.owner
        let waiting = state.withLock { s -> Int? in
            let waiting = s.waiting(sender)
            guard waiting < settings.reviewsPerPerson else { return waiting }
            s.stamping[sender, default: 0] += 1
            return nil
        }
        if let waiting { throw .tooManyReviews(waiting) }
        let stamped = Result { () throws(Refusal) in try stamp(upload) }
        return try state.withLock { s throws(Refusal) -> Staged in
            s.stamping[sender, default: 1] -= 1
            if s.stamping[sender] == 0 { s.stamping[sender] = nil }
            let (pending, _, notes) = try stamped.get()
            let id = String(s.nextReview)
            s.nextReview += 1
            s.reviews[id] = Review(owner: upload.owner, sender: sender, photo: pending)
            return Staged(id: id, name: pending.name, fields: pending.record.fields, jpeg: pending.jpeg, notes: notes)
        }
    }

    /// Stamps `upload` and saves it at once (a script, or a photo queued while offline).
    public func save(_ upload: Upload) throws(Refusal) -> (written: WrittenPhoto, staged: Staged) {
        let (pending, _, notes) = try stamp(upload)
        let staged = Staged(id: "", name: pending.name, fields: pending.record.fields, jpeg: pending.jpeg, notes: notes)
        do { return (saved(try pending.finish()), staged) } catch { throw .cannotSave(error) }
    }

    /// Saves the photo under review `id` of `owner`. One that cannot be saved (a full disk) stays
    /// under review, to be used again once there is room, or retaken.
    public func use(_ id: String, owner: String) throws(Refusal) -> WrittenPhoto {
        // Taken out while it is saved: a second "use" of it finds nothing rather than saving it twice.
        guard let review = state.withLock({ s in s.reviews[id]?.owner == owner ? s.reviews.removeValue(forKey: id) : nil }) else {
            throw .noSuchReview
        }
        do {
            return saved(try review.photo.finish())
        } catch {
            state.withLock { $0.reviews[id] = review }
            throw .cannotSave(error)
        }
    }

    /// The stamped photo under review `id`, for its owner only.
    public func preview(_ id: String, owner: String) -> [UInt8]? {
        state.withLock { $0.reviews[id] }.flatMap { $0.owner == owner ? $0.photo.jpeg : nil }
    }

    /// Drops the photo under review `id` of `owner`: its staged file and its name go.
    public func retake(_ id: String, owner: String) throws(Refusal) {
        let dropped = state.withLock { s -> Bool in
            guard s.reviews[id]?.owner == owner else { return false }
            s.reviews[id] = nil
            return true
        }
        if !dropped { throw .noSuchReview }
    }

    /// The photos under review, dropped (the server stops, as `shoot` leaves an unsaved shot): how
    /// many. Waits for the share commands still running.
    public func close() -> Int {
        sharing.withLock { $0 }?.close()
        return state.withLock { s in
            defer { s.reviews = [:] }
            return s.reviews.count
        }
    }

    /// The photos saved so far.
    public var saved: Int { state.withLock { $0.saved } }

    /// A photo saved: counted, and handed to the share command (`--exec`) on its own thread, as the
    /// camera's are.
    private func saved(_ written: WrittenPhoto) -> WrittenPhoto {
        state.withLock { $0.saved += 1 }
        guard let exec = settings.writer.exec else { return written }
        let pool = sharing.withLock { pool in
            if pool == nil { pool = try? WorkerPool(workers: 1, makeState: {}) }
            return pool
        }
        let tell = settings.tell
        if pool?.submit({ _ in if let problem = exec.share(written) { tell(problem) } }) != true {
            tell("the share command was not run: no thread could be started for it; the photo is saved at " + PathEncoding.display(written.path))
        }
        return written
    }

    // MARK: stamping

    private func stamp(_ upload: Upload) throws(Refusal) -> (PhotoWriter.PendingPhoto, Fields, [String]) {
        let received = settings.clock()
        // Without a timeout the wait ends only with a free slot.
        let slot = freeSlots.wait(until: { !$0.isEmpty }, then: { $0.removeLast() }) ?? 0
        defer { freeSlots.withLock { $0.append(slot) } }
        // The slot is this thread's until it is given back: its fonts are used by no other.
        let result = fonts[slot].watermarker.withLock { fonts -> Result<(PhotoWriter.PendingPhoto, Fields, [String]), Refusal> in
            do {
                let watermarker = try fonts ?? Watermarker(fontConfig: settings.fontConfig)
                fonts = watermarker
                return .success(try stamp(upload, received: received, writer: PhotoWriter(watermarker: watermarker, settings: settings.writer)))
            } catch let error as WriteError {
                return .failure(.cannotSave(error))
            } catch {
                return .failure(.unreadable(error))
            }
        }
        return try result.get()
    }

    private func stamp(_ upload: Upload, received: Timestamp, writer: PhotoWriter) throws -> (PhotoWriter.PendingPhoto, Fields, [String]) {
        try upload.photo.withUnsafeBytes { bytes throws(ImageError) in
            try settings.load.check(head: UnsafeRawBufferPointer(rebasing: bytes.prefix(FileContents.headSize)), size: bytes.count)
        }
        var reason: String?
        if settings.inPlace, let inPlace = InPlaceChoice.open(upload.photo, load: settings.load, style: settings.style, reason: &reason) {
            let (fields, notes) = self.fields(for: upload, metadata: inPlace.metadata, received: received)
            let (claim, named) = try claim(fields)
            return (try writer.prepare(inPlace: inPlace, style: settings.style, fields: named, to: claim,
                                       original: try original(upload, photo: nil, writer: writer)), fields, notes)
        }
        let photo = try Photo(file: upload.photo, options: settings.load)
        let (fields, notes) = self.fields(for: upload, metadata: photo.metadata, received: received)
        let (claim, named) = try claim(fields)
        let original = try original(upload, photo: photo, writer: writer)
        return (try writer.prepare(photo, style: settings.style, fields: named, to: claim, original: original), fields, notes)
    }

    /// With `keepOriginal`: the phone's JPEG as it came, byte for byte; another format (HEIC, PNG)
    /// as the JPEG of its picture, which is what `restamp` can read.
    private func original(_ upload: Upload, photo: Photo?, writer: PhotoWriter) throws -> PhotoWriter.Original? {
        guard settings.keepOriginal else { return nil }
        let capture = "sent from a phone to stampcam serve"
        if upload.photo.withUnsafeBytes({ ImageFormat.sniff($0) }) == .jpeg {
            return PhotoWriter.Original(jpeg: upload.photo.withUnsafeBytes { Array($0) }, capture: capture)
        }
        let picture = try photo ?? Photo(file: upload.photo, options: settings.load)
        return PhotoWriter.Original(jpeg: try picture.jpeg(quality: writer.settings.quality, optimize: writer.settings.optimize), capture: capture)
    }

    /// A name for the photo, numbered as `shoot` numbers its shots (by the time it arrived), or
    /// made by `--name`; and the fields with its number and name.
    private func claim(_ fields: Fields) throws -> (NameClaim, Fields) {
        try OutputFolder.prepare(settings.folder, mark: true)
        var named = fields
        while true {
            named.sequence = counter.take()
            if let template = settings.nameTemplate {
                let name = PhotoName.make(template: template, input: "photo.jpg", fields: named)
                guard case .claimed(let claim) = try NameClaim.claim(name, in: settings.folder, existing: .number) else {
                    throw FileError.cannotCreate(path: settings.folder + "/" + name, reason: "the name is taken")
                }
                named.filename = claim.name
                return (claim, named)
            }
            let name = PhotoName.shot(time: fields.time ?? settings.clock(), number: named.sequence ?? 0)
            if case .claimed(let claim) = try NameClaim.claim(name, in: settings.folder, existing: .skip) {
                named.filename = claim.name
                return (claim, named)
            }
        }
    }

    /// The stamp's fields: the session's, the person's, the phone's position or the photo's GPS,
    /// the server's time; and what the person should hear about them.
    func fields(for upload: Upload, metadata: PhotoMetadata, received: Timestamp) -> (Fields, [String]) {
        var policy = settings.fields
        var notes: [String] = []
        if let person = upload.person { policy.given.user = person }
        if let project = upload.project { policy.given.project = project }
        if let note = upload.note { policy.given.note = note }
        // A position given on the command line wins, as everywhere; else the phone's when it is good enough.
        if policy.given.latitude == nil, let position = upload.position {
            let now = WallClock.monotonic()
            let fix = GPSFix(latitude: position.latitude, longitude: position.longitude, altitude: position.altitude,
                             horizontalError: position.accuracy, receivedAt: 0, receivedMonotonic: now - position.ageSeconds)
            switch policy.whereabouts.rules.judge(FixReading(fix: fix, connected: true, receiverSeen: true), now: now) {
            case .usable:
                policy.given.latitude = position.latitude
                policy.given.longitude = position.longitude
                policy.given.altitude = position.altitude
                policy.given.accuracy = position.accuracy
            case .unusable(let problem):
                notes.append("the phone's position was not used: \(problem)"
                             + (metadata.gps == nil ? "" : "; the photo's own GPS position was"))
            }
        }
        var fields = policy.fields(for: metadata)
        // The time is when the server received it: the phone's clock is the phone's to set.
        let phoneTime = fields.timeSource == "EXIF" ? fields.time : upload.phoneTime
        fields.time = policy.inZone(Fields(time: received)).time
        fields.timeSource = Self.timeSource
        if let phoneTime {
            fields.extra["phone_time"] = phoneTime.iso8601
            // A phone's time without its zone is taken to be in this machine's (a team shares a site).
            var labelled = phoneTime
            if labelled.utcOffsetMinutes == nil { labelled.utcOffsetMinutes = FieldPolicy.localOffsetMinutes(forWallTime: phoneTime) }
            if let taken = labelled.secondsSinceEpoch, let arrived = received.secondsSinceEpoch, abs(arrived - taken) > 60 {
                let shown = policy.inZone(Fields(time: phoneTime)).time ?? phoneTime
                let arrival = fields.time ?? received
                let said = "taken \(Self.clock(shown, besides: arrival)) on the phone, received \(Self.clock(arrival, besides: shown))"
                fields.note = fields.note.map { $0 + "; " + said } ?? said
                notes.append(said)
            }
        }
        return (fields, notes)
    }

    /// What the record says the time came from.
    public static let timeSource = "server clock at upload"

    /// `10:41`; with the date (`2026-12-03 10:41`) when `other` is another day.
    private static func clock(_ time: Timestamp, besides other: Timestamp) -> String {
        let text = time.exifText  // "2026:12:03 10:41:07"
        let hours = String(text.dropFirst(11).prefix(5))
        guard text.prefix(10) != other.exifText.prefix(10) else { return hours }
        return String(text.prefix(10).map { $0 == ":" ? "-" : $0 }) + " " + hours
    }
}
