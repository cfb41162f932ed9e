import Capture
import Imaging
import Library
import Location
import Platform
import Synchronization
import Templates
import Watermark

/// The watermark camera, the same for every front end (the terminal, the browser): owns the camera,
/// the shoot state machine, the stamp renderer and the photo writer. A front end sends events
/// (keys, taps) and reads snapshots (state, the picture to show, notices); the camera and the disk
/// work on the controller's own threads, so a front end's loop never waits for a capture, a save or
/// the share command.
///
/// ```swift
/// let controller = try ShootController(settings)
/// controller.previewSize = (640, 360)          // the front end wants live pictures this big
/// controller.send(.shutter)                    // then .use, .nextStyle, .retake …
/// let now = controller.snapshot()              // state, picture, notice
/// controller.fieldPolicy.given.note = "north wall"   // the stamp shows it from the next picture on
/// controller.close()
/// ```
public final class ShootController: Sendable {
    public struct Settings: Sendable {
        /// Cameras to cycle through (`c`); the first is opened.
        public var devices: [String]
        public var capture: CaptureSettings
        /// The style cycle and the style to start with.
        public var styles: [Template]
        public var style: Int
        public var fields: FieldPolicy
        /// The folder photos are saved in.
        public var folder: String
        /// `--name`; nil for `YYYYMMDD-HHMMSS-NNNN.jpg`.
        public var nameTemplate: TextTemplate?
        /// Also save the unstamped photo and a sidecar.
        public var keepOriginal: Bool
        public var writer: PhotoWriter.Settings
        public var fontConfig: String
        /// Turns an error into the line the front end shows (the front end adds its own advice).
        public var describe: @Sendable (any Error) -> String
        /// Mark the folder as one of stamped photos (not when `-o` names one file in a folder of the user's own).
        public var markFolder = true

        public init(devices: [String], capture: CaptureSettings, styles: [Template], style: Int, fields: FieldPolicy,
                    folder: String, nameTemplate: TextTemplate?, keepOriginal: Bool, writer: PhotoWriter.Settings,
                    fontConfig: String, describe: @escaping @Sendable (any Error) -> String = { "\($0)" }) {
            self.devices = devices
            self.capture = capture
            self.styles = styles
            self.style = style
            self.fields = fields
            self.folder = folder
            self.nameTemplate = nameTemplate
            self.keepOriginal = keepOriginal
            self.writer = writer
            self.fontConfig = fontConfig
            self.describe = describe
        }
    }

    /// What a front end shows at one moment.
    public struct Snapshot: Sendable {
        public var state: ShootState
        /// The live picture with the current stamp, or the shot under review stamped in the current
        /// style, fitted to `previewSize`; nil before the first one.
        public var picture: Bitmap?
        /// Counts every change, so a front end can wait for the next one.
        public var generation = 0
        /// The camera in use, its frame size, and where photos go.
        public var camera: String
        public var frameSize: Resolution
        public var folder: String
        /// The styles' names, in cycle order (`state.style` indexes them).
        public var styleNames: [String]
        /// Zooming crops the frame (no zoom control): a photo at zoom Z is `frameSize` / Z.
        public var zoomCrops = false
        /// Notes of the camera and warnings (a failed share command) since a front end last took them.
        public var notices: [Notice] = []
        /// The error behind the last failed capture or save (its message is in `state.message`).
        public var lastError: (any Error)?
        /// The last photo saved.
        public var lastSaved: WrittenPhoto?
        /// The field values the stamp uses now (`fieldPolicy`).
        public var fields: FieldPolicy
    }

    /// Something to tell the user in passing.
    public struct Notice: Sendable, Equatable {
        public var text: String
        /// A warning (something went wrong) rather than a note (something to know).
        public var isWarning: Bool
    }

    /// One photo taken: the still, and the fields and name it is stamped and saved with (decided at
    /// capture, so the review shows exactly what is saved).
    private struct Shot: Sendable {
        var still: CapturedStill
        var fields: Fields
        /// The field policy `fields` came from; a newer one re-stamps the shot while it is reviewed.
        var policy: FieldPolicy
        var name: String
        var claim: NameClaim?
        var saved = false
    }

    private enum Command: Sendable {
        case capture(ShotID), render(ShotID, style: Int), flash(FlashMode), zoom(Double), focus(FocusRequest), switchCamera(Int)
    }

    private struct Inbox {
        var commands: [Command] = []
        var saves: [(ShotID, style: Int)] = []
        var shares: [WrittenPhoto] = []
        var closed = false
        var saving = false
        var sharing = false
        /// The watermarker for the writer, until the writer takes it (see `stamp(with:)`).
        var watermarker: Owned<Watermarker>?
    }

    private let settings: Settings
    private let session: Mutex<ShootSession>
    private let published: ConditionLock<Snapshot>
    private let inbox = ConditionLock(Inbox())
    private let shots = Mutex<[ShotID: Shot]>([:])
    private let preview = Mutex<(width: Int, height: Int)?>(nil)
    private let fields: Mutex<FieldPolicy>
    private let savedPhotos = Mutex<[WrittenPhoto]>([])
    /// The shot number the next photo gets (refreshed from the folder after each save).
    private let nextNumber: Mutex<Int>
    private let finished = ConditionLock(0)  // threads that have ended (camera, writer)
    private let termination: Mutex<Signals.Registration?> = Mutex(nil)
    /// What the viewfinders were last told about GPS (so a change is told once).
    private let gpsTold = Mutex(GPSTold())

    /// Opens the first camera and starts the camera and writer threads. `watermarker`, when given
    /// (the one that checked the styles), stamps the saved photos: the fonts are not set up twice.
    public convenience init(settings: Settings, watermarker: Watermarker? = nil) throws {
        try self.init(opening: settings)
        stamp(with: try watermarker ?? Watermarker(fontConfig: settings.fontConfig))
    }

    /// Opens the first camera and starts the threads without a watermarker: photos can be taken at
    /// once, and are saved once `stamp(with:)` gives one. So the camera opens and settles while the
    /// fonts are set up and the style is checked (`shoot --yes`). With `shutter`, the shutter is
    /// pressed as soon as the camera thread runs.
    public init(opening settings: Settings, shutter: Bool = false) throws {
        self.settings = settings
        let camera = try Camera.open(settings.devices[0], settings: settings.capture)
        let state = ShootState(styleCount: settings.styles.count, style: settings.style, flashModes: camera.flashModes,
                               maxZoom: camera.zoomRange.upperBound, cameraCount: settings.devices.count,
                               zoom: settings.capture.zoom)
        session = Mutex(ShootSession(state))
        published = ConditionLock(Snapshot(state: state, camera: camera.info.card, frameSize: camera.frameSize,
                                           folder: settings.folder, styleNames: settings.styles.map(\.name),
                                           zoomCrops: !camera.zoomsOptically,
                                           notices: camera.takeNotes().map { Notice(text: $0, isWarning: false) },
                                           fields: settings.fields))
        fields = Mutex(settings.fields)
        nextNumber = Mutex(PhotoName.nextShotNumber(in: settings.folder))
        let cameraBox = Owned((camera, LazyWatermarker(fontConfig: settings.fontConfig)))
        try Threads.detach { [self] in
            runCamera(cameraBox.take())
            finished.withLock { $0 += 1 }
        }
        if shutter { _ = send(.shutter) }
        try Threads.detach { [self] in
            runWriter()
            finished.withLock { $0 += 1 }
        }
        try Threads.detach { [self] in
            runShare()
            finished.withLock { $0 += 1 }
        }
        // A photo being written when the process is told to end is finished first; the names held
        // for photos not saved are given back.
        termination.withLock {
            $0 = Signals.shared.onTermination(.workInFlight) { [self] in
                waitForSaves(seconds: 20)
                releaseClaims()
            }
        }
    }

    deinit { close() }

    /// Gives the watermarker saved photos are stamped with (the one that checked the styles); saves
    /// wait for it. For a controller made with `init(opening:)`, once.
    public func stamp(with watermarker: Watermarker) {
        let given = Owned(watermarker)
        inbox.withLock { $0.watermarker = given }
    }

    /// The size live and review pictures are rendered at; nil (the default) renders none — the
    /// camera then streams only for stills. A photo under review is drawn again at a new size.
    public var previewSize: (width: Int, height: Int)? {
        get { preview.withLock { $0 } }
        set {
            let size = newValue.map { (width: max(16, $0.width), height: max(16, $0.height)) }
            let changed = preview.withLock { old in
                defer { old = size }
                return old?.width != size?.width || old?.height != size?.height
            }
            if changed, size != nil {
                let state = session.withLock { $0.state }
                if state.phase == .reviewing, let shot = state.shot { queue(.render(shot, style: state.style)) }
            }
            inbox.withLock { _ in }  // wake the camera thread
        }
    }

    /// The values the stamp shows (user, project, location, note …) and the zone for times, for
    /// the live picture and every photo taken from now on; a photo under review is stamped again
    /// with them (its number and file name stay). Starts as `Settings.fields`.
    public var fieldPolicy: FieldPolicy {
        get { fields.withLock { $0 } }
        set {
            fields.withLock { policy in
                policy = newValue
                publish { $0.fields = newValue }  // under the same lock: the snapshot never shows an older one
            }
            refreshShotFields()
        }
    }

    /// The photos saved in this session, oldest first.
    public var saved: [WrittenPhoto] { savedPhotos.withLock { $0 } }

    /// What to show now. `takeNotices` hands the notices to this caller only (they are cleared).
    public func snapshot(takeNotices: Bool = false) -> Snapshot {
        published.withLock { snapshot in
            let copy = snapshot
            if takeNotices { snapshot.notices = [] }
            return copy
        }
    }

    /// Waits until a snapshot newer than `generation` exists (or `timeout` passes) and returns the latest.
    public func waitForChange(after generation: Int, timeout: Double) -> Snapshot {
        published.wait(timeout: timeout, until: { $0.generation > generation }, then: { $0 }) ?? snapshot()
    }

    /// Waits until `condition` holds for a snapshot; nil after `timeout`.
    public func wait(timeout: Double, until condition: (Snapshot) -> Bool) -> Snapshot? {
        published.wait(timeout: timeout, until: condition, then: { $0 })
    }

    /// A user's event: a key, a tap. False when it means nothing in the current phase (`use` with
    /// no photo under review …) and so changed nothing.
    @discardableResult
    public func send(_ event: ShootEvent) -> Bool {
        handle(event)
    }

    /// Stops the threads, releases the camera (the light goes off) and any unused name claim. Waits
    /// for a save in progress.
    public func close() {
        let first = inbox.withLock { inbox -> Bool in
            defer { inbox.closed = true }
            return !inbox.closed
        }
        guard first else { return }
        finished.wait(timeout: 60, until: { $0 >= 3 }, then: { _ in })
        releaseClaims()
        termination.withLock { $0 = nil }
    }

    private func releaseClaims() {
        for shot in shots.withLock({ $0.values }) { shot.claim?.release() }
    }

    // MARK: the state machine and its effects

    @discardableResult
    private func handle(_ event: ShootEvent) -> Bool {
        let (response, state) = session.withLock { session in (session.respond(to: event), session.state) }
        guard let effects = response else { return false }
        publish { $0.state = state }
        for effect in effects {
            switch effect {
            case .capture(let id): queue(.capture(id))
            case .renderShot(let id, let style): queue(.render(id, style: style))
            case .save(let id, let style): inbox.withLock { $0.saves.append((id, style)) }
            case .setFlash(let mode): queue(.flash(mode))
            case .setZoom(let factor): queue(.zoom(factor))
            case .switchCamera(let index): queue(.switchCamera(index))
            case .triggerFocus(let request): queue(.focus(request))
            case .discard(let id):
                guard let shot = shots.withLock({ $0.removeValue(forKey: id) }) else { break }
                shot.claim?.release()
                if !shot.saved, let number = shot.fields.sequence {
                    // A retaken photo gives its number back, so names do not skip one.
                    nextNumber.withLock { if $0 == number + 1 { $0 = number } }
                }
                publish { $0.picture = nil }
            case .exit: break
            }
        }
        inbox.withLock { _ in }  // the camera thread waits on the state too (live or not)
        return true
    }

    /// Stamps the shot under review again when the field policy changed after it was planned.
    /// Called after each change of either (the policy, a new shot), so one of them sees both. The
    /// session's lock is held while the shot changes: a `use` comes before (the save reads the old
    /// fields, and so did the review) or after (the saved photo has the new ones).
    private func refreshShotFields() {
        let policy = fields.withLock { $0 }
        let render = session.withLock { session -> (ShotID, Int)? in
            guard session.state.phase == .reviewing, let id = session.state.shot else { return nil }
            let changed = shots.withLock { shots -> Bool in
                guard var shot = shots[id], shot.policy != policy else { return false }
                var fresh = policy.fields(forCapture: shot.still)
                fresh.sequence = shot.fields.sequence
                fresh.filename = shot.fields.filename
                shot.fields = fresh
                shot.policy = policy
                shots[id] = shot
                return true
            }
            return changed ? (id, session.state.style) : nil
        }
        if let (id, style) = render { queue(.render(id, style: style)) }
    }

    private func queue(_ command: Command) {
        inbox.withLock { inbox in
            // A pending render of the same photo reads the newest size when it runs: one is enough.
            if case .render(let id, let style) = command, inbox.commands.contains(where: {
                if case .render(id, style) = $0 { true } else { false }
            }) { return }
            inbox.commands.append(command)
        }
    }

    private func publish(_ change: (inout Snapshot) -> Void) {
        published.withLock { snapshot in
            change(&snapshot)
            snapshot.generation += 1
        }
    }

    // MARK: the camera thread

    /// Takes commands in order; between them, while the state is live and a front end wants
    /// pictures, renders the live picture with the current style's stamp.
    private func runCamera(_ owned: (Camera, LazyWatermarker)) {
        var (camera, watermarker) = owned
        defer { camera.close() }
        var nextLive = 0.0
        while true {
            // Live pictures at most `livePictureRate` a second; commands are taken at once.
            let live = wantsLivePictures
            let timeout = live ? max(0, nextLive - WallClock.monotonic()) : 0.25
            let next = inbox.wait(timeout: timeout, until: { inbox in
                inbox.closed || !inbox.commands.isEmpty
            }, then: { inbox -> CameraWork in
                if inbox.closed { return .close }
                return .command(inbox.commands.removeFirst())
            }) ?? (live ? .live : .idle)
            switch next {
            case .command(let command): perform(command, camera: &camera, watermarker: watermarker)
            case .live:
                nextLive = WallClock.monotonic() + 1 / Self.livePictureRate
                renderLive(camera, watermarker: watermarker)
            case .idle: continue
            case .close: return
            }
        }
    }

    /// Live pictures a second: smooth in a terminal and a browser, and a core left for the rest.
    static let livePictureRate = 15.0

    private enum CameraWork { case command(Command), live, idle, close }

    private var wantsLivePictures: Bool {
        preview.withLock { $0 } != nil && session.withLock { $0.state.isLive }
    }

    private func perform(_ command: Command, camera: inout Camera, watermarker: LazyWatermarker) {
        switch command {
        case .capture(let id):
            do {
                let still = try camera.captureStill()
                noteCamera(camera)
                let shot = plan(still)
                shots.withLock { $0[id] = shot }
                handle(.captured(id))
                refreshShotFields()  // the fields panel may have changed while the still was taken
            } catch {
                publish { $0.lastError = error }
                handle(.captureFailed(settings.describe(error)))
            }
        case .render(let id, let style):
            guard let shot = shots.withLock({ $0[id] }), let size = preview.withLock({ $0 }) else { return }
            let picture = try? render(shot.still.photo, style: style, fields: shot.fields, fitting: size, watermarker: watermarker)
            publish { $0.picture = picture }
        case .flash(let mode):
            do { try camera.setFlash(mode) } catch { notice(settings.describe(error), warning: true) }
        case .zoom(let factor):
            camera.setZoom(factor)
            noteCamera(camera)
        case .focus(let request):
            camera.setFocus(request)
            noteCamera(camera)
        case .switchCamera(let index):
            camera.close()
            do {
                camera = try Camera.open(settings.devices[index], settings: settings.capture)
                let opened = camera
                publish {
                    $0.camera = opened.info.card
                    $0.frameSize = opened.frameSize
                    $0.zoomCrops = !opened.zoomsOptically
                }
                noteCamera(camera)
            } catch {
                notice(settings.describe(error), warning: true)
            }
        }
    }

    private func renderLive(_ camera: Camera, watermarker: LazyWatermarker) {
        guard let size = preview.withLock({ $0 }) else { return }
        do {
            let frame = try camera.previewFrame(maxSize: max(size.width, size.height))
            var (fields, gps) = self.fields.withLock { $0 }.liveFields(camera: camera.info.card)
            tellGPS(gps, shot: false)
            let number = nextNumber.withLock { $0 }
            fields.sequence = number
            fields.filename = plannedName(fields: fields, number: number)
            let style = session.withLock { $0.state.style }
            let picture = try render(Photo(bitmap: frame), style: style, fields: fields, fitting: size, watermarker: watermarker)
            noteCamera(camera)
            publish { $0.picture = picture }
        } catch {
            notice(settings.describe(error), warning: true)
            WallClock.sleep(0.5)  // a camera that fails every frame must not spin
        }
    }

    private func render(_ photo: Photo, style: Int, fields: Fields, fitting size: (width: Int, height: Int),
                        watermarker: LazyWatermarker) throws -> Bitmap {
        try Self.viewfinderPicture(photo, template: settings.styles[style], fields: fields, fitting: size,
                                   watermarker: watermarker.get())
    }

    /// The camera thread's watermarker, set up when the first picture is drawn: a shoot with no
    /// viewfinder (`--yes`) never sets up the fonts a second time.
    private final class LazyWatermarker {
        let fontConfig: String
        private var made: Watermarker?

        init(fontConfig: String) { self.fontConfig = fontConfig }

        func get() throws -> Watermarker {
            if let made { return made }
            let watermarker = try Watermarker(fontConfig: fontConfig)
            made = watermarker
            return watermarker
        }
    }

    /// `photo` fitted within `size` and stamped with `template`: the stamp drawn at the picture's
    /// own resolution, so it reads as it will in the photo. What each viewfinder frame costs
    /// (`stampcam bench` measures it).
    public static func viewfinderPicture(_ photo: Photo, template: Template, fields: Fields, fitting size: (width: Int, height: Int),
                                         watermarker: Watermarker) throws -> Bitmap {
        let scale = min(1, min(Double(size.width) / Double(photo.width), Double(size.height) / Double(photo.height)))
        var picture = Photo(bitmap: try photo.bitmap.scaled(width: max(1, Int(Double(photo.width) * scale)),
                                                            height: max(1, Int(Double(photo.height) * scale))))
        try watermarker.stamp(&picture, template: template, fields: fields)
        return picture.bitmap
    }

    /// The fields and name a new shot is stamped and saved with, its name claimed when the folder
    /// can be written (otherwise the save claims it, and says why it cannot).
    private func plan(_ taken: CapturedStill) -> Shot {
        // The fields as they are now (a browser may have changed them since the session began).
        let policy = self.fields.withLock { $0 }
        var (fields, gps) = policy.captureFields(for: taken)
        tellGPS(gps, shot: true)
        let still = Self.located(taken, fields: fields, gps: gps)
        var number = nextNumber.withLock { $0 }
        var claim: NameClaim?
        var name = plannedName(fields: fields, time: still.metadata.time, number: number)
        if (try? OutputFolder.prepare(settings.folder, mark: settings.markFolder)) != nil {
            for _ in 0..<1000 {
                fields.sequence = number
                name = plannedName(fields: fields, time: still.metadata.time, number: number)
                guard case .claimed(let claimed)? = try? NameClaim.claim(name, in: settings.folder, existing: .number) else { break }
                if claimed.name == name || settings.nameTemplate != nil {
                    claim = claimed
                    name = claimed.name
                    break
                }
                // Shot names count up: another number rather than a "-1" suffix.
                claimed.release()
                number += 1
            }
        }
        fields.sequence = number
        fields.filename = name
        nextNumber.withLock { $0 = max($0, number + 1) }
        return Shot(still: still, fields: fields, policy: policy, name: name, claim: claim)
    }

    private func plannedName(fields: Fields, time: Timestamp? = nil, number: Int) -> String {
        var fields = fields
        fields.sequence = number
        if let template = settings.nameTemplate {
            return PhotoName.make(template: template, input: "photo.jpg", fields: fields)
        }
        return PhotoName.shot(time: time ?? fields.time ?? FieldPolicy.clockTime(), number: number)
    }

    /// The still with the fix it was stamped with in its EXIF GPS tags (position, altitude,
    /// heading), so the saved photo and its original carry them too.
    private static func located(_ still: CapturedStill, fields: Fields, gps: FixStatus?) -> CapturedStill {
        guard case .usable? = gps, let latitude = fields.latitude, let longitude = fields.longitude else { return still }
        var record = still.metadata.exifRecord
        var position = GPSPosition(latitude: latitude, longitude: longitude, altitude: fields.altitude)
        position.heading = fields.heading
        record.gps = position
        var photo = still.photo
        photo.metadata = PhotoMetadata(exif: record.payload(), iccProfile: photo.metadata.iccProfile)
        return CapturedStill(photo: photo, metadata: still.metadata, cameraJPEG: still.cameraJPEG)
    }

    /// Tells the viewfinders when the GPS state changes (a fix found, lost, stale, inaccurate),
    /// once a change; a photo taken without a usable fix is told every time; and once, when GPS
    /// time and the clock disagree.
    private func tellGPS(_ status: FixStatus?, shot: Bool) {
        guard let status else { return }
        var notices: [Notice] = []
        gpsTold.withLock { told in
            switch status {
            case .usable(let fix):
                if told.state != "usable" {
                    var text = "GPS fix"
                    if let error = fix.horizontalError { text += ", ±\(max(1, Int(error.rounded()))) m" }
                    if let satellites = fix.satellites { text += ", \(satellites) satellites" }
                    notices.append(Notice(text: text, isWarning: false))
                }
                told.state = "usable"
                if !told.clock, let warning = self.fields.withLock({ $0 }).whereabouts.rules.clockWarning(fix) {
                    told.clock = true
                    notices.append(Notice(text: warning, isWarning: true))
                }
            case .unusable(let problem):
                if shot {
                    let shown = self.fields.withLock({ $0 }).given.location == nil ? "\"\(Whereabouts.noFixText)\"" : "the location given"
                    notices.append(Notice(text: "\(problem); the photo shows \(shown) instead of a position", isWarning: true))
                } else if told.state != problem.kind {
                    notices.append(Notice(text: problem.description, isWarning: true))
                }
                told.state = problem.kind
            }
        }
        if !notices.isEmpty { publish { $0.notices += notices } }
    }

    private struct GPSTold {
        var state: String?
        var clock = false
    }

    private func noteCamera(_ camera: Camera) {
        for note in camera.takeNotes() { notice(note, warning: false) }
    }

    private func notice(_ text: String, warning: Bool) {
        publish { $0.notices.append(Notice(text: text, isWarning: warning)) }
    }

    // MARK: the writer thread

    private func runWriter() {
        settings.writer.prepareForWriting(style: settings.styles[settings.style], fields: settings.fields.fieldsNow())
        guard let given = inbox.wait(until: { $0.closed || $0.watermarker != nil }, then: { $0.watermarker }) ?? nil else { return }
        let writer = PhotoWriter(watermarker: given.take(), settings: settings.writer)
        while let (id, style) = inbox.wait(until: { $0.closed || !$0.saves.isEmpty }, then: { inbox -> (ShotID, Int)? in
            guard !inbox.saves.isEmpty else { return nil }
            inbox.saving = true
            return inbox.saves.removeFirst()
        }) ?? nil {
            save(id, style: style, writer: writer)
            inbox.withLock { $0.saving = false }
        }
    }

    private func save(_ id: ShotID, style: Int, writer: PhotoWriter) {
        guard var shot = shots.withLock({ $0[id] }) else { return }
        do {
            let claim: NameClaim
            if let held = shot.claim {
                claim = held
            } else {
                try OutputFolder.prepare(settings.folder, mark: settings.markFolder)
                guard case .claimed(let claimed) = try NameClaim.claim(shot.name, in: settings.folder, existing: .number) else {
                    throw FileError.cannotCreate(path: settings.folder + "/" + shot.name, reason: "the name is taken")
                }
                claim = claimed
                if claimed.name != shot.name {
                    // The planned name was taken meanwhile: the stamp must name the file it is in.
                    shot.fields.filename = claimed.name
                    shot.name = claimed.name
                }
                shot.claim = claimed
                let updated = shot
                shots.withLock { $0[id] = updated }
            }
            var original: PhotoWriter.Original?
            if settings.keepOriginal {
                do { original = PhotoWriter.Original(jpeg: try shot.still.jpeg(quality: writer.settings.quality, optimize: writer.settings.optimize),
                                                     capture: shot.still.metadata.summary) } catch {
                    throw WriteError(cause: .image(error), saved: [])
                }
            }
            let written = try writer.write(shot.still.photo, style: settings.styles[style], fields: shot.fields,
                                           to: claim, original: original)
            nextNumber.withLock { $0 = max($0, PhotoName.nextShotNumber(in: settings.folder)) }
            shots.withLock { $0[id]?.saved = true }
            savedPhotos.withLock { $0.append(written) }
            publish { $0.lastSaved = written }
            handle(.saved(id, path: written.path))
            // Shared on a thread of its own: a slow upload holds up neither the viewfinder nor the next save.
            if settings.writer.exec != nil { inbox.withLock { $0.shares.append(written) } }
        } catch {
            publish { $0.lastError = error }
            handle(.saveFailed(id, settings.describe(error)))
        }
    }

    // MARK: the share thread

    private func runShare() {
        guard let exec = settings.writer.exec else { return }
        // Ends once closed with nothing left to share or to save (a save may still add a share).
        while let written = inbox.wait(until: { inbox in
            !inbox.shares.isEmpty || (inbox.closed && inbox.saves.isEmpty && !inbox.saving)
        }, then: { inbox -> WrittenPhoto? in
            guard !inbox.shares.isEmpty else { return nil }
            inbox.sharing = true
            return inbox.shares.removeFirst()
        }) ?? nil {
            if let problem = exec.share(written) { notice(problem, warning: true) }
            inbox.withLock { $0.sharing = false }
        }
    }

    private func waitForSaves(seconds: Double) {
        inbox.wait(timeout: seconds, until: { $0.saves.isEmpty && !$0.saving }, then: { _ in })
    }
}

/// Hands a value that is not Sendable (the camera, fonts) to exactly one other thread.
private final class Owned<Value>: @unchecked Sendable {
    private var value: Value?
    init(_ value: Value) { self.value = value }
    func take() -> Value {
        defer { value = nil }
        return value!
    }
}
