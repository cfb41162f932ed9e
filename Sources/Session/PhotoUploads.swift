import Imaging
import Library
import Location
import Platform
import Provenance
import Synchronization
import Templates
import Values
import Watermark

/// Photos the team's phones upload to `serve`: each read by its content (JPEG, HEIC, PNG) with the
/// limits `apply` has, stamped through the same `PhotoWriter` as every photo, with the server's
/// clock at its arrival as its time (the phone's own time is kept in the record beside it, and a
/// difference over a minute is said on the stamp), the person's name, and the position the phone
/// sent (judged by the rules a gpsd fix meets) or else the photo's own EXIF GPS, the time shown in
/// the site's zone. A photo is staged for review (`use` keeps it, `retake` drops it, `restyle`
/// stamps it again in another style, as `shoot` does) or saved at once.
///
/// What a photo is, its credentials say: a frame the page's own shutter took is a capture; a file
/// the phone handed over (its camera app or its gallery: the page cannot tell which) is opened,
/// its own credentials kept as the ingredient's and its own EXIF time shown as the phone's.
public final class PhotoUploads: Sendable {
    public struct Settings: Sendable {
        public var folder: String
        /// The style a photo is stamped in when its upload names none.
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

        /// Told of every photo saved (to say it arrived).
        public var announce: @Sendable (SavedUpload) -> Void = { _ in }

        public init(folder: String, style: Template, fields: FieldPolicy, writer: PhotoWriter.Settings, load: LoadOptions,
                    fontConfig: String) {
            self.folder = folder
            self.style = style
            self.fields = fields
            self.writer = writer
            self.writer.memoryLimit = load.memoryLimit
            self.load = load
            self.fontConfig = fontConfig
        }
    }

    /// One photo saved: its path and what its stamp says.
    public struct SavedUpload: Sendable {
        public var written: WrittenPhoto
        public var fields: Fields
    }

    /// How a photo reached the page.
    public enum Kind: String, Sendable {
        /// The page's own live shutter took it just now: a capture.
        case shutter
        /// A file the phone handed over (its camera app, its gallery): opened, as `apply` opens one.
        case file
    }

    /// One photo as a phone sent it: the file and what came with it (`upload.person` reads its values).
    @dynamicMemberLookup
    public struct Upload: Sendable {
        public var photo: FileContents
        public var values: Values

        /// What comes with a photo, and what the live stamp over a phone's picture is drawn from.
        public struct Values: Sendable {
            /// Who sent it (the person's token, or the page) and for whom it is kept under review.
            public var person: String?
            public var owner: String
            /// What the limit of photos under review counts it against (the person, else the address);
            /// nil counts it against `owner`.
            public var sender: String?
            public var project: String?
            public var note: String?
            /// What the phone says of where it is (a site's name typed in).
            public var location: String?
            /// Where the phone was (its browser's position), if it said.
            public var position: Position?
            /// When the phone says it took the photo (a photo kept while the server was out of reach).
            public var phoneTime: Timestamp?
            /// Its file name on the phone, as its credentials name the ingredient.
            public var fileName = "photo.jpg"
            public var kind = Kind.file
            /// It waited on the phone while the server was out of reach.
            public var queued = false
            /// The style to stamp it in; nil for the session's.
            public var style: Template?

            public init(person: String?, owner: String, project: String? = nil, note: String? = nil, position: Position? = nil) {
                self.person = person
                self.owner = owner
                self.project = project
                self.note = note
                self.position = position
            }
        }

        public init(photo: FileContents, person: String?, owner: String, project: String? = nil, note: String? = nil,
                    position: Position? = nil) {
            self.init(photo: photo, values: Values(person: person, owner: owner, project: project, note: note, position: position))
        }

        public init(photo: FileContents, values: Values) {
            self.photo = photo
            self.values = values
        }

        public subscript<Value>(dynamicMember path: WritableKeyPath<Values, Value>) -> Value {
            get { values[keyPath: path] }
            set { values[keyPath: path] = newValue }
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
        /// The style's id.
        public let style: String
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
        var photo: PhotoWriter.PendingPhoto
        /// What was sent and when it arrived, to stamp it again in another style.
        let upload: Upload
        let received: Timestamp
        /// The last screen-size picture made, and its size.
        var screen: (size: Int, jpeg: [UInt8])?
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
        let received = settings.clock()
        let stamped = Result { () throws(Refusal) in try stamp(upload, received: received) }
        return try state.withLock { s throws(Refusal) -> Staged in
            s.stamping[sender, default: 1] -= 1
            if s.stamping[sender] == 0 { s.stamping[sender] = nil }
            let (pending, _, notes) = try stamped.get()
            let id = String(s.nextReview)
            s.nextReview += 1
            s.reviews[id] = Review(owner: upload.owner, sender: sender, photo: pending, upload: upload, received: received)
            return Staged(id: id, name: pending.name, fields: pending.record.fields, style: style(of: upload).id, jpeg: pending.jpeg,
                          notes: notes)
        }
    }

    /// Stamps the photo under review `id` of `owner` again in `style`, with the same time and
    /// values, under the same name (a style changed during the review).
    public func restyle(_ id: String, owner: String, style: Template) throws(Refusal) -> Staged {
        guard let review = state.withLock({ $0.reviews[id] }), review.owner == owner else { throw .noSuchReview }
        var upload = review.upload
        upload.style = style
        let held = (review.photo.nameClaim, review.photo.record.fields.sequence)
        let (pending, _, notes) = try stamp(upload, received: review.received, claim: held)
        let replaced = state.withLock { s -> Bool in
            guard s.reviews[id] != nil else { return false }
            s.reviews[id] = Review(owner: owner, sender: review.sender, photo: pending, upload: upload, received: review.received)
            return true
        }
        if !replaced { throw .noSuchReview }  // used or retaken meanwhile
        return Staged(id: id, name: pending.name, fields: pending.record.fields, style: style.id, jpeg: pending.jpeg, notes: notes)
    }

    private func style(of upload: Upload) -> Template { upload.style ?? settings.style }

    /// Stamps `upload` and saves it at once (a script, or a photo queued while offline).
    public func save(_ upload: Upload) throws(Refusal) -> (written: WrittenPhoto, staged: Staged) {
        let (pending, _, notes) = try stamp(upload, received: settings.clock())
        let staged = Staged(id: "", name: pending.name, fields: pending.record.fields, style: style(of: upload).id, jpeg: pending.jpeg,
                            notes: notes)
        do { return (saved(try pending.finish(), fields: pending.record.fields), staged) } catch { throw .cannotSave(error) }
    }

    /// Saves the photo under review `id` of `owner`. One that cannot be saved (a full disk) stays
    /// under review, to be used again once there is room, or retaken.
    public func use(_ id: String, owner: String) throws(Refusal) -> WrittenPhoto {
        // Taken out while it is saved: a second "use" of it finds nothing rather than saving it twice.
        guard let review = state.withLock({ s in s.reviews[id]?.owner == owner ? s.reviews.removeValue(forKey: id) : nil }) else {
            throw .noSuchReview
        }
        do {
            return saved(try review.photo.finish(), fields: review.photo.record.fields)
        } catch {
            state.withLock { $0.reviews[id] = review }
            throw .cannotSave(error)
        }
    }

    /// The stamped photo under review `id`, for its owner only: whole, or (`fit`) upright and
    /// fitted in a square of that many pixels, for a screen.
    public func preview(_ id: String, owner: String, fit: Int? = nil) -> [UInt8]? {
        guard let review = state.withLock({ $0.reviews[id] }), review.owner == owner else { return nil }
        guard let fit else { return review.photo.jpeg }
        if let screen = review.screen, screen.size == fit { return screen.jpeg }
        guard let photo = try? Photo(jpeg: review.photo.jpeg, options: LoadOptions(maxSize: fit)),
              let jpeg = try? photo.jpeg(quality: 85, optimize: false) else { return review.photo.jpeg }
        state.withLock { s in
            // Kept for the next ask, unless the photo was restamped meanwhile.
            if s.reviews[id]?.photo.jpeg == review.photo.jpeg { s.reviews[id]?.screen = (fit, jpeg) }
        }
        return jpeg
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

    /// The id of the style the photo under review `id` of `owner` is stamped in.
    public func reviewStyle(_ id: String, owner: String) -> String? {
        state.withLock { $0.reviews[id] }.flatMap { $0.owner == owner ? style(of: $0.upload).id : nil }
    }

    /// The stamp a photo sent now with `values` gets, in `style`, drawn alone on a transparent
    /// PNG of `width` × `height` (the phone's preview): the same fields and time as the saved
    /// photo's, the time to the minute.
    public func overlay(width: Int, height: Int, style: Template, values: Upload.Values) throws(Refusal) -> [UInt8] {
        var now = settings.clock()
        now.second = 0
        var (fields, _) = fields(for: values, metadata: PhotoMetadata(), received: now)
        fields.filename = nil
        let slot = freeSlots.wait(until: { !$0.isEmpty }, then: { $0.removeLast() }) ?? 0
        defer { freeSlots.withLock { $0.append(slot) } }
        let result = fonts[slot].watermarker.withLock { fonts -> Result<[UInt8], Refusal> in
            do {
                let watermarker = try fonts ?? Watermarker(fontConfig: settings.fontConfig)
                fonts = watermarker
                return .success(try watermarker.overlayPNG(width: width, height: height, template: style, fields: fields))
            } catch {
                return .failure(.unreadable(error))
            }
        }
        return try result.get()
    }

    /// The photos saved so far.
    public var saved: Int { state.withLock { $0.saved } }

    /// A photo saved: counted, told (`Settings.saved`), and handed to the share command (`--exec`)
    /// on its own thread, as the camera's are.
    private func saved(_ written: WrittenPhoto, fields: Fields) -> WrittenPhoto {
        state.withLock { $0.saved += 1 }
        settings.announce(SavedUpload(written: written, fields: fields))
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

    private func stamp(_ upload: Upload, received: Timestamp,
                       claim: (NameClaim, Int?)? = nil) throws(Refusal) -> (PhotoWriter.PendingPhoto, Fields, [String]) {
        // Without a timeout the wait ends only with a free slot.
        let slot = freeSlots.wait(until: { !$0.isEmpty }, then: { $0.removeLast() }) ?? 0
        defer { freeSlots.withLock { $0.append(slot) } }
        // The slot is this thread's until it is given back: its fonts are used by no other.
        let result = fonts[slot].watermarker.withLock { fonts -> Result<(PhotoWriter.PendingPhoto, Fields, [String]), Refusal> in
            do {
                let watermarker = try fonts ?? Watermarker(fontConfig: settings.fontConfig)
                fonts = watermarker
                return .success(try stamp(upload, received: received, claim: claim,
                                          writer: PhotoWriter(watermarker: watermarker, settings: settings.writer)))
            } catch let error as WriteError {
                return .failure(.cannotSave(error))
            } catch {
                return .failure(.unreadable(error))
            }
        }
        return try result.get()
    }

    /// `held`: the name (and number) the photo has already, when it is stamped again.
    private func stamp(_ upload: Upload, received: Timestamp, claim held: (NameClaim, Int?)?,
                       writer: PhotoWriter) throws -> (PhotoWriter.PendingPhoto, Fields, [String]) {
        try upload.photo.withUnsafeBytes { bytes throws(ImageError) in
            try settings.load.check(head: UnsafeRawBufferPointer(rebasing: bytes.prefix(FileContents.headSize)), size: bytes.count)
        }
        let style = style(of: upload)
        var notes: [String] = []
        let origin: Credentials.Origin
        switch upload.kind {
        case .shutter:
            origin = .captured
        case .file:
            let opened = PhotoWriter.opened(upload.photo.bytes, title: upload.fileName)
            origin = opened.origin
            if let warning = opened.warning { notes.append(warning) }
        }
        var reason: String?
        if settings.inPlace, let inPlace = InPlaceChoice.open(upload.photo, load: settings.load, style: style, reason: &reason) {
            let (fields, said) = self.fields(for: upload, metadata: inPlace.metadata, received: received)
            let (claim, named) = try held.map { ($0.0, Self.named(fields, $0.0, number: $0.1)) } ?? claim(fields)
            return (try writer.prepare(inPlace: inPlace, style: style, fields: named, to: claim,
                                       original: try original(upload, photo: nil, writer: writer), origin: origin), fields, said + notes)
        }
        let photo = try Photo(file: upload.photo, options: settings.load)
        let (fields, said) = self.fields(for: upload, metadata: photo.metadata, received: received)
        let (claim, named) = try held.map { ($0.0, Self.named(fields, $0.0, number: $0.1)) } ?? claim(fields)
        let original = try original(upload, photo: photo, writer: writer)
        return (try writer.prepare(photo, style: style, fields: named, to: claim, original: original, origin: origin), fields, said + notes)
    }

    /// `fields` with the name and number of a photo stamped before.
    private static func named(_ fields: Fields, _ claim: NameClaim, number: Int?) -> Fields {
        var named = fields
        named.filename = claim.name
        named.sequence = number
        return named
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
        fields(for: upload.values, metadata: metadata, received: received)
    }

    func fields(for upload: Upload.Values, metadata: PhotoMetadata, received: Timestamp) -> (Fields, [String]) {
        var policy = settings.fields
        var notes: [String] = []
        if let person = upload.person { policy.given.user = person }
        if let project = upload.project { policy.given.project = project }
        if let note = upload.note { policy.given.note = note }
        if let location = upload.location { policy.given.location = location }
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
        // The time is when the server received it, shown as the site's clocks show it: the phone's
        // clock is the phone's to set. The photo's own EXIF time is the phone's, for a file.
        let phoneTime = upload.kind == .file && fields.timeSource == "EXIF" ? fields.time : upload.phoneTime
        let arrival = policy.shown(received, for: fields)
        fields.time = arrival
        fields.timeSource = Self.timeSource
        var said: [String] = []
        if upload.kind == .file { said.append(upload.queued ? "sent from the phone while offline" : "sent from the phone") }
        if let phoneTime {
            fields.extra["phone_time"] = phoneTime.iso8601
            // A phone's time without its zone is taken to be in the site's (the phone is there).
            var labelled = phoneTime
            if labelled.utcOffsetMinutes == nil {
                labelled.utcOffsetMinutes = arrival.utcOffsetMinutes ?? FieldPolicy.localOffsetMinutes(forWallTime: phoneTime)
            }
            let taken = labelled.converted(toOffsetMinutes: arrival.utcOffsetMinutes ?? 0)
            let apart = abs((arrival.secondsSinceEpoch ?? 0) - (taken.secondsSinceEpoch ?? 0))
            // Both times in one zone, named once.
            let zone = arrival.utcOffsetMinutes.map { $0 == 0 ? " (UTC)" : " (UTC" + arrival.offsetText + ")" } ?? ""
            if upload.kind == .file {
                said.append("taken \(Self.clock(taken, besides: arrival)) by its clock"
                            + (apart > 60 ? ", received \(Self.clock(arrival, besides: taken))" : "") + zone)
            } else if upload.queued {
                said.append("taken offline at \(Self.clock(taken, besides: arrival)), received \(Self.clock(arrival, besides: taken))" + zone)
            } else if apart > 60 {
                said.append("taken \(Self.clock(taken, besides: arrival)) on the phone, received \(Self.clock(arrival, besides: taken))" + zone)
            }
        }
        if !said.isEmpty {
            let text = said.joined(separator: ", ")
            fields.note = fields.note.map { $0 + "; " + text } ?? text
            notes.append(text)
        }
        return (fields, notes)
    }

    /// What the record says the time came from.
    public static let timeSource = StampRecord.uploadTimeSource

    /// `10:41`; with the date (`2026-12-03 10:41`) when `other` is another day.
    private static func clock(_ time: Timestamp, besides other: Timestamp) -> String {
        let text = time.exifText  // "2026:12:03 10:41:07"
        let hours = String(text.dropFirst(11).prefix(5))
        guard text.prefix(10) != other.exifText.prefix(10) else { return hours }
        return String(text.prefix(10).map { $0 == ":" ? "-" : $0 }) + " " + hours
    }
}
