import Capture
import Imaging
import Library
import Location
import Platform
import Synchronization
import Templates
import Values
import Watermark

/// The watermark camera, the same for every front end (the terminal, the browser): owns the camera,
/// the shoot state machine, the stamp renderer and the photo writer. A front end sends events
/// (keys, taps) and reads snapshots (state, the picture to show, notices); the camera and the disk
/// work on the controller's own threads, so a front end's loop never waits for a capture, a save or
/// the share command.
///
/// ```swift
/// let controller = try ShootController(settings: settings)
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
        /// The folder's shot numbers, shared with whatever else saves into it (`serve`'s uploads);
        /// nil counts on from the folder's photos alone.
        public var counter: ShotCounter?

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
        /// The values given that the current style does not show (`user`, `note`, an extra value's
        /// name …): `Template.fieldsNotShown`. Told as a notice when the style or the values change.
        public var fieldsNotShown: [String] = []
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
        /// Saved stamped by a try that could not write its original or sidecar (a full disk): the
        /// next "use" in the same style finishes it instead of saving another copy.
        var unfinished: PhotoWriter.UnfinishedPhoto?
    }

    private enum Command: Sendable {
        case capture(ShotID), render(ShotID, style: Int), flash(FlashMode), zoom(Double), focus(FocusRequest), switchCamera(Int)
    }

    /// Everything the threads (the front end's, the camera's, the writer's, the share command's)
    /// share: one value behind one lock. A change is worked out under the lock; camera I/O,
    /// drawing, writing and running commands happen outside it, on values taken out.
    private struct State: Sendable {
        var session: ShootSession
        /// What front ends read; its `fields` is the field policy in force.
        var snapshot: Snapshot
        /// The shot number the next photo gets (refreshed from the folder after each save).
        let counter: ShotCounter
        /// Work for the camera thread, in order.
        var commands: [Command] = []
        /// Shots to save, for the writer thread, and saved photos to share.
        var saves: [(ShotID, style: Int)] = []
        var shares: [WrittenPhoto] = []
        var saving = false
        var closed = false
        /// Threads started (camera, writer, share) and ended.
        var threadsStarted = 0
        var threadsEnded = 0
        var shots: [ShotID: Shot] = [:]
        /// The size live and review pictures are drawn at; nil draws none.
        var preview: (width: Int, height: Int)?
        /// The photos saved in this session, oldest first.
        var saved: [WrittenPhoto] = []
        /// What the viewfinders were last told about GPS (so a change is told once).
        var gpsTold = GPSTold()
        /// Stamp notes of saved photos already told (each is told once a session).
        var notesTold: Set<String> = []
        /// Finishes a save in flight and gives back the names held when the process is told to end.
        var termination: Signals.Registration?

        /// The camera streams for live pictures: a front end wants them and the phase is live.
        var wantsLivePictures: Bool { preview != nil && session.state.isLive }

        mutating func publish(_ change: (inout Snapshot) -> Void) {
            change(&snapshot)
            snapshot.generation += 1
        }

        mutating func queue(_ command: Command) {
            // A pending render of the same photo reads the newest size when it runs: one is enough.
            if case .render(let id, let style) = command, commands.contains(where: {
                if case .render(id, style) = $0 { true } else { false }
            }) { return }
            commands.append(command)
        }

        mutating func notice(_ text: String, warning: Bool) {
            publish { $0.notices.append(Notice(text: text, isWarning: warning)) }
        }

        /// Works out the given values `style` does not show; tells them when `always` (the style
        /// changed) or when they changed, so a chosen style never drops a value without a word.
        mutating func checkFieldsShown(_ style: Template, always: Bool) {
            let missing = style.fieldsNotShown(snapshot.fields.given)
            let changed = missing != snapshot.fieldsNotShown
            if changed { publish { $0.fieldsNotShown = missing } }
            if !missing.isEmpty && (always || changed) {
                notice("The style \(style.name) does not show " + missing.joined(separator: ", "), warning: false)
            }
        }

        /// Tells the viewfinders when the GPS state changes (a fix found, lost, stale, inaccurate),
        /// once a change; a photo taken without a usable fix is told every time; and once, when GPS
        /// time and the clock disagree.
        mutating func tellGPS(_ status: FixStatus?, shot: Bool) {
            guard let status else { return }
            let policy = snapshot.fields
            switch status {
            case .usable(let fix):
                if gpsTold.state != "usable" {
                    var text = "GPS fix"
                    if let error = fix.horizontalError { text += ", ±\(max(1, Int(clamping: error))) m" }
                    if let satellites = fix.satellites { text += ", \(satellites) satellites" }
                    notice(text, warning: false)
                }
                gpsTold.state = "usable"
                if !gpsTold.clock, let warning = policy.whereabouts.rules.clockWarning(fix) {
                    gpsTold.clock = true
                    notice(warning, warning: true)
                }
            case .unusable(let problem):
                if shot {
                    let shown = policy.given.location == nil ? "\"\(Whereabouts.noFixText)\"" : "the location given"
                    notice("\(problem); the photo shows \(shown) instead of a position", warning: true)
                } else if gpsTold.state != problem.kind {
                    notice(problem.description, warning: true)
                }
                gpsTold.state = problem.kind
            }
        }
    }

    private let settings: Settings
    private let state: ConditionLock<State>

    /// Opens the first camera and starts the camera, writer and share threads. The writer sets up
    /// the fonts saved photos are stamped with on its own thread.
    public convenience init(settings: Settings) throws {
        let fontConfig = settings.fontConfig
        try self.init(settings: settings, watermarker: { try Watermarker(fontConfig: fontConfig) })
    }

    /// Opens the first camera and starts the camera, writer and share threads. `watermarker` gives
    /// the fonts saved photos are stamped with: the writer thread calls it once, before its first
    /// save, and may wait there (fonts being set up on a thread of their own while the camera
    /// opens); a photo taken meanwhile is saved once they are ready. When it throws, saves fail
    /// with its error.
    public init(settings: Settings, watermarker: @escaping @Sendable () throws -> Watermarker) throws {
        self.settings = settings
        let camera = try Camera.open(settings.devices[0], settings: settings.capture)
        let (card, frameSize, zoomCrops) = (camera.info.card, camera.frameSize, !camera.zoomsOptically)
        let notes = camera.takeNotes().map { Notice(text: $0, isWarning: false) }
        let session = ShootState(styleCount: settings.styles.count, style: settings.style, flashModes: camera.flashModes,
                                 maxZoom: camera.zoomRange.upperBound, cameraCount: settings.devices.count,
                                 zoom: settings.capture.zoom)
        state = ConditionLock(State(
            session: ShootSession(session),
            snapshot: Snapshot(state: session, camera: card, frameSize: frameSize, folder: settings.folder,
                               styleNames: settings.styles.map(\.name), zoomCrops: zoomCrops, notices: notes,
                               fields: settings.fields,
                               fieldsNotShown: settings.styles[settings.style].fieldsNotShown(settings.fields.given)),
            counter: settings.counter ?? ShotCounter(folder: settings.folder)))
        // The camera goes to its thread: only that thread uses it from here on.
        try start { [self] in runCamera(camera) }
        try start { [self] in runWriter(watermarker: watermarker) }
        try start { [self] in runShare() }
        // A photo being written when the process is told to end is finished first; the names held
        // for photos not saved are given back.
        let termination = Signals.shared.onTermination(.workInFlight) { [self] in
            waitForSaves(seconds: 20)
            releaseClaims()
        }
        state.withLock { $0.termination = termination }
    }

    deinit { close() }

    /// The size live and review pictures are rendered at; nil (the default) renders none — the
    /// camera then streams only for stills. A photo under review is drawn again at a new size.
    public var previewSize: (width: Int, height: Int)? {
        get { state.withLock { $0.preview } }
        set {
            let size = newValue.map { (width: max(16, $0.width), height: max(16, $0.height)) }
            state.withLock { s in
                let changed = s.preview?.width != size?.width || s.preview?.height != size?.height
                s.preview = size
                if changed, size != nil, s.session.state.phase == .reviewing, let shot = s.session.state.shot {
                    s.queue(.render(shot, style: s.session.state.style))
                }
            }
        }
    }

    /// The values the stamp shows (user, project, location, note …) and the zone for times, for
    /// the live picture and every photo taken from now on; a photo under review is stamped again
    /// with them (its number and file name stay). Starts as `Settings.fields`.
    public var fieldPolicy: FieldPolicy {
        get { state.withLock { $0.snapshot.fields } }
        set {
            state.withLock { s in
                s.publish { $0.fields = newValue }
                s.checkFieldsShown(settings.styles[s.session.state.style], always: false)
            }
            refreshShotFields()
        }
    }

    /// The photos saved in this session, oldest first.
    public var saved: [WrittenPhoto] { state.withLock { $0.saved } }

    /// What to show now. `takeNotices` hands the notices to this caller only (they are cleared).
    public func snapshot(takeNotices: Bool = false) -> Snapshot {
        state.withLock { s in
            let copy = s.snapshot
            if takeNotices { s.snapshot.notices = [] }
            return copy
        }
    }

    /// Waits until a snapshot newer than `generation` exists (or `timeout` passes) and returns the latest.
    public func waitForChange(after generation: Int, timeout: Double) -> Snapshot {
        state.wait(timeout: timeout, until: { $0.snapshot.generation > generation }, then: { $0.snapshot }) ?? snapshot()
    }

    /// Waits until `condition` holds for a snapshot; nil after `timeout`.
    public func wait(timeout: Double, until condition: (Snapshot) -> Bool) -> Snapshot? {
        state.wait(timeout: timeout, until: { condition($0.snapshot) }, then: { $0.snapshot })
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
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        state.wait(timeout: 60, until: { $0.threadsEnded == $0.threadsStarted }, then: { _ in })
        releaseClaims()
        let termination = state.withLock { s in
            defer { s.termination = nil }
            return s.termination
        }
        termination?.cancel()
    }

    private func releaseClaims() {
        for claim in state.withLock({ $0.shots.values.compactMap(\.claim) }) { claim.release() }
    }

    // MARK: the state machine and its effects

    @discardableResult
    private func handle(_ event: ShootEvent) -> Bool {
        let unwanted = state.withLock { s -> [NameClaim]? in
            let styleBefore = s.session.state.style
            guard let effects = s.session.respond(to: event) else { return nil }
            let phase = s.session.state
            s.publish { $0.state = phase }
            if phase.style != styleBefore { s.checkFieldsShown(settings.styles[phase.style], always: true) }
            var unwanted: [NameClaim] = []
            for effect in effects {
                switch effect {
                case .capture(let id): s.queue(.capture(id))
                case .renderShot(let id, let style): s.queue(.render(id, style: style))
                case .save(let id, let style): s.saves.append((id, style))
                case .setFlash(let mode): s.queue(.flash(mode))
                case .setZoom(let factor): s.queue(.zoom(factor))
                case .switchCamera(let index): s.queue(.switchCamera(index))
                case .triggerFocus(let request): s.queue(.focus(request))
                case .discard(let id):
                    guard let shot = s.shots.removeValue(forKey: id) else { break }
                    if let claim = shot.claim { unwanted.append(claim) }
                    // A retaken photo gives its number back, so names do not skip one.
                    if !shot.saved, let number = shot.fields.sequence { s.counter.giveBack(number) }
                    s.publish { $0.picture = nil }
                case .exit: break
                }
            }
            return unwanted
        }
        guard let unwanted else { return false }
        for claim in unwanted { claim.release() }
        return true
    }

    /// Stamps the shot under review again when the field policy changed after it was planned.
    /// Called after each change of either (the policy, a new shot), so one of them sees both. The
    /// new fields are worked out outside the lock (the place names may be read from disk) and kept
    /// only when nothing changed meanwhile: a `use` in between saves the fields the review showed.
    private func refreshShotFields() {
        let stale = state.withLock { s -> (ShotID, Shot, FieldPolicy)? in
            guard s.session.state.phase == .reviewing, let id = s.session.state.shot, let shot = s.shots[id],
                  shot.policy != s.snapshot.fields else { return nil }
            return (id, shot, s.snapshot.fields)
        }
        guard let (id, shot, policy) = stale else { return }
        var fresh = policy.fields(forCapture: shot.still)
        fresh.sequence = shot.fields.sequence
        fresh.filename = shot.fields.filename
        state.withLock { s in
            guard s.session.state.phase == .reviewing, s.session.state.shot == id, s.snapshot.fields == policy,
                  var current = s.shots[id], current.policy == shot.policy else { return }
            current.fields = fresh
            current.policy = policy
            s.shots[id] = current
            s.queue(.render(id, style: s.session.state.style))
        }
    }

    // MARK: the camera thread

    /// Starts one of the controller's threads (`close` waits for those started).
    private func start(_ body: sending @escaping () -> Void) throws(Threads.StartError) {
        state.withLock { $0.threadsStarted += 1 }
        do {
            try Threads.detach {
                body()
                self.state.withLock { $0.threadsEnded += 1 }
            }
        } catch {
            state.withLock { $0.threadsStarted -= 1 }
            throw error
        }
    }

    /// Takes commands in order; between them, while the state is live and a front end wants
    /// pictures, renders the live picture with the current style's stamp.
    private func runCamera(_ camera: consuming Camera) {
        var camera = camera
        defer { camera.close() }
        let watermarker = LazyWatermarker(fontConfig: settings.fontConfig)
        var nextLive = 0.0
        while true {
            // Live pictures at most `livePictureRate` a second; commands are taken at once. A
            // change of whether pictures are wanted (a preview size, a phase) wakes the wait too.
            let live = state.withLock { $0.wantsLivePictures }
            let timeout = live ? max(0, nextLive - WallClock.monotonic()) : nil
            let next = state.wait(timeout: timeout, until: { s in
                s.closed || !s.commands.isEmpty || s.wantsLivePictures != live
            }, then: { s -> CameraWork in
                if s.closed { return .close }
                if s.commands.isEmpty { return .lookAgain }
                return .command(s.commands.removeFirst())
            }) ?? .live  // the time for the next live picture has come
            switch next {
            case .command(let command): perform(command, camera: &camera, watermarker: watermarker)
            case .live:
                nextLive = WallClock.monotonic() + 1 / Self.livePictureRate
                renderLive(camera, watermarker: watermarker)
            case .lookAgain: continue
            case .close: return
            }
        }
    }

    /// Live pictures a second: smooth in a terminal and a browser, and a core left for the rest.
    static let livePictureRate = 15.0

    private enum CameraWork { case command(Command), live, lookAgain, close }

    private func perform(_ command: Command, camera: inout Camera, watermarker: LazyWatermarker) {
        switch command {
        case .capture(let id):
            do {
                let still = try camera.captureStill()
                noteCamera(camera)
                let shot = plan(still)
                state.withLock { $0.shots[id] = shot }
                handle(.captured(id))
                refreshShotFields()  // the fields panel may have changed while the still was taken
            } catch {
                state.withLock { s in s.publish { $0.lastError = error } }
                handle(.captureFailed(settings.describe(error)))
            }
        case .render(let id, let style):
            guard let (shot, size) = state.withLock({ s in s.shots[id].flatMap { shot in s.preview.map { (shot, $0) } } }) else { return }
            let picture = try? render(shot.still.photo, style: style, fields: shot.fields, fitting: size, watermarker: watermarker)
            state.withLock { s in s.publish { $0.picture = picture } }
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
                let (card, frameSize, zoomCrops) = (camera.info.card, camera.frameSize, !camera.zoomsOptically)
                state.withLock { s in
                    s.publish {
                        $0.camera = card
                        $0.frameSize = frameSize
                        $0.zoomCrops = zoomCrops
                    }
                }
                noteCamera(camera)
            } catch {
                notice(settings.describe(error), warning: true)
            }
        }
    }

    private func renderLive(_ camera: Camera, watermarker: LazyWatermarker) {
        guard let size = state.withLock({ $0.preview }) else { return }
        do {
            let frame = try camera.previewFrame(maxSize: max(size.width, size.height))
            // The fields are worked out outside the lock: the GPS reading and the place names are read there.
            var (fields, gps) = state.withLock { $0.snapshot.fields }.liveFields(camera: camera.info.card)
            let (number, style) = state.withLock { s in
                s.tellGPS(gps, shot: false)
                return (s.counter.peek, s.session.state.style)
            }
            fields.sequence = number
            fields.filename = plannedName(fields: fields, number: number)
            let picture = try render(Photo(bitmap: frame), style: style, fields: fields, fitting: size, watermarker: watermarker)
            noteCamera(camera)
            state.withLock { s in s.publish { $0.picture = picture } }
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

    /// The camera thread's watermarker, made on that thread when the first picture is drawn: a
    /// shoot with no viewfinder (`shoot --yes`) never sets up the fonts a second time.
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
        let policy = state.withLock { $0.snapshot.fields }
        var (fields, gps) = policy.captureFields(for: taken)
        let counter = state.withLock { s in
            s.tellGPS(gps, shot: true)
            return s.counter
        }
        var number = counter.take()
        let still = Self.located(taken, fields: fields, gps: gps)
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
                number = counter.take()
            }
        }
        fields.sequence = number
        fields.filename = name
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

    private func noteCamera(_ camera: Camera) {
        let notes = camera.takeNotes()
        guard !notes.isEmpty else { return }
        state.withLock { s in for note in notes { s.notice(note, warning: false) } }
    }

    private func notice(_ text: String, warning: Bool) {
        state.withLock { $0.notice(text, warning: warning) }
    }

    // MARK: the writer thread

    private func runWriter(watermarker: () throws -> Watermarker) {
        let writer = Result { PhotoWriter(watermarker: try watermarker(), settings: settings.writer) }
        while let (id, style) = state.wait(until: { $0.closed || !$0.saves.isEmpty }, then: { s -> (ShotID, Int)? in
            guard !s.saves.isEmpty else { return nil }
            s.saving = true
            return s.saves.removeFirst()
        }) ?? nil {
            switch writer {
            case .success(let writer): save(id, style: style, writer: writer)
            case .failure(let error): failed(id, error)
            }
            state.withLock { $0.saving = false }
        }
    }

    private func save(_ id: ShotID, style: Int, writer: PhotoWriter) {
        guard var shot = state.withLock({ $0.shots[id] }) else { return }
        do {
            if let unfinished = shot.unfinished, unfinished.matches(style: settings.styles[style], fields: shot.fields) {
                saved(id, try writer.finish(unfinished))
                return
            }
            let claim: NameClaim
            if let held = shot.claim, !held.isReleased {
                claim = held
            } else {
                // Not claimed at the shutter (the folder could not be written then), or given back
                // by a save that failed: claimed now.
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
                state.withLock { $0.shots[id] = updated }
            }
            var original: PhotoWriter.Original?
            if settings.keepOriginal {
                do { original = PhotoWriter.Original(jpeg: try shot.still.jpeg(quality: writer.settings.quality, optimize: writer.settings.optimize),
                                                     capture: shot.still.metadata.summary) } catch {
                    throw WriteError(cause: .image(error), saved: [])
                }
            }
            let written = try writer.write(shot.still, style: settings.styles[style], fields: shot.fields,
                                           to: claim, original: original)
            saved(id, written)
        } catch {
            if let unfinished = (error as? WriteError)?.unfinished {
                // On disk and logged: counted as saved, and finished by the next try.
                state.withLock { s in
                    s.shots[id]?.unfinished = unfinished
                    s.saved.removeAll { $0.path == unfinished.path }
                    s.saved.append(WrittenPhoto(path: unfinished.path))
                }
            }
            failed(id, error)
        }
    }

    private func saved(_ id: ShotID, _ written: WrittenPhoto) {
        let next = PhotoName.nextShotNumber(in: settings.folder)
        // Shared on a thread of its own: a slow upload holds up neither the viewfinder nor the next save.
        let share = settings.writer.exec != nil
        state.withLock { s in
            s.counter.skip(to: next)
            s.shots[id]?.saved = true
            s.shots[id]?.unfinished = nil
            s.saved.removeAll { $0.path == written.path }
            s.saved.append(written)
            for note in written.stampNotes where s.notesTold.insert(note).inserted { s.notice(note, warning: true) }
            s.publish { $0.lastSaved = written }
            if share { s.shares.append(written) }
        }
        handle(.saved(id, path: written.path))
    }

    private func failed(_ id: ShotID, _ error: any Error) {
        state.withLock { s in s.publish { $0.lastError = error } }
        handle(.saveFailed(id, settings.describe(error)))
    }

    // MARK: the share thread

    private func runShare() {
        guard let exec = settings.writer.exec else { return }
        // Ends once closed with nothing left to share or to save (a save may still add a share).
        while let written = state.wait(until: { s in
            !s.shares.isEmpty || (s.closed && s.saves.isEmpty && !s.saving)
        }, then: { s -> WrittenPhoto? in
            s.shares.isEmpty ? nil : s.shares.removeFirst()
        }) ?? nil {
            if let problem = exec.share(written) { notice(problem, warning: true) }
        }
    }

    private func waitForSaves(seconds: Double) {
        state.wait(timeout: seconds, until: { $0.saves.isEmpty && !$0.saving }, then: { _ in })
    }
}

/// What the viewfinders were last told about GPS.
private struct GPSTold: Sendable {
    var state: String?
    var clock = false
}
