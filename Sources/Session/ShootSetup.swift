import Capture
import Imaging
import Library
import Location
import Platform
import Templates
import Watermark

/// Starts a shoot session the same way for every front end (`shoot`, `serve` …). From the choices
/// a front end made, as typed values, it reads the styles, makes the folder, connects to gpsd,
/// keeps the place names only when a style shows them, finds the cameras and the catalog, and
/// sets up the fonts on a thread of their own while the camera opens. What the user should hear
/// comes back as facts (`notes`, `StyleCheck`, errors); the front end words them.
///
/// ```swift
/// let setup = try ShootSetup(choices)          // styles read, folder made, gpsd asked; fonts started
/// defer { setup.finish() }
/// let controller = try setup.makeController()  // the camera opens while the fonts are set up
/// defer { controller.close() }
/// let check = try setup.checkStyles()          // waits for the fonts; throws the chosen style's error
/// ```
public final class ShootSetup: Sendable {
    /// What a front end decided for the session.
    public struct Choices: Sendable {
        /// A style id or a template file; nil for the default style.
        public var style: String?
        public var templateFolders: TemplateStore.Folders
        /// Where the photos go; a file only for a session of one photo.
        public var output: OutputTarget
        /// How saved photos are named; nil for `YYYYMMDD-HHMMSS-NNNN.jpg`. A file `output` names its own.
        public var nameTemplate: TextTemplate?
        /// The camera to open; nil for the first one found, else the built-in test pattern.
        public var device: String?
        /// Every camera found can be switched to (a viewfinder), not just the one opened.
        public var allCameras: Bool
        /// Whether the session has a camera at all: `serve --team` without `--device` has none
        /// (the phones bring their own), and none is looked for.
        public var usesCamera = true
        /// Every usable style can be cycled through (a viewfinder), not just the chosen one.
        public var styleCycle: Bool
        /// How many photos the session takes; nil for as many as the user takes.
        public var photos: Int?
        public var capture: CaptureSettings
        /// The values and rules for the stamp's fields; a live GPS mode asks gpsd at `gpsd`.
        public var fields: FieldPolicy
        public var gpsd: (host: String, port: String)
        /// Also save the unstamped photo and a sidecar.
        public var keepOriginal: Bool
        /// How photos are written; its `log` is set from `catalog`.
        public var writer: PhotoWriter.Settings
        /// The catalog file the photos are logged in; nil logs them nowhere.
        public var catalog: String?
        /// fonts/fonts.conf.
        public var fontConfig: String
        /// Turns an error into the line the front end shows (see `ShootController.Settings.describe`).
        public var describe: @Sendable (any Error) -> String

        public init(style: String? = nil, templateFolders: TemplateStore.Folders, output: OutputTarget,
                    nameTemplate: TextTemplate? = nil, device: String? = nil, allCameras: Bool = false, styleCycle: Bool = false,
                    photos: Int? = nil, capture: CaptureSettings = CaptureSettings(), fields: FieldPolicy = FieldPolicy(),
                    gpsd: (host: String, port: String) = ("localhost", GPSDReceiver.defaultPort), keepOriginal: Bool = false,
                    writer: PhotoWriter.Settings = PhotoWriter.Settings(), catalog: String? = nil, fontConfig: String,
                    describe: @escaping @Sendable (any Error) -> String = { "\($0)" }) {
            self.style = style
            self.templateFolders = templateFolders
            self.output = output
            self.nameTemplate = nameTemplate
            self.device = device
            self.allCameras = allCameras
            self.styleCycle = styleCycle
            self.photos = photos
            self.capture = capture
            self.fields = fields
            self.gpsd = gpsd
            self.keepOriginal = keepOriginal
            self.writer = writer
            self.catalog = catalog
            self.fontConfig = fontConfig
            self.describe = describe
        }
    }

    /// Something the user should know about the session, said once at its start.
    public enum Note: Sendable, Equatable {
        /// No camera was found: the built-in test pattern (`Cameras.testDevice`) stands in.
        case noCamera
        /// The chosen style or the file name shows `{place}`, and no place names are installed.
        case noPlaceNames
        /// gpsd answers but libgps cannot be loaded: the photos go without a live position.
        case noGPSLibrary(MissingLibrary)
    }

    /// A set-up that cannot be (beside the errors of the layers below: a style, a folder, gpsd).
    public enum Problem: Error, Sendable, Equatable {
        /// The output names one file, and the session takes several photos (or as many as the user takes).
        case oneFileForSeveralPhotos(OutputTarget)
    }

    /// The styles as checked with the fonts: what the session cycles through, and what the user
    /// should hear about them.
    public struct StyleCheck: Sendable {
        /// The style cycle (the chosen style alone without one) and the index of the chosen style.
        public var styles: [Template]
        public var style: Int
        /// The errors of the styles left out of the cycle.
        public var leftOut: [TemplateProblem]
        /// The chosen style's warnings.
        public var warnings: [TemplateProblem]
    }

    public let choices: Choices
    /// The style the session starts with.
    public let chosen: Template
    /// The folder the photos are saved in (made by the set-up).
    public let folder: String
    /// The cameras, the one opened first.
    public let devices: [String]
    /// `choices.fields` with gpsd's live fix when it answers, and the place names only when a
    /// style or the file name shows them.
    public let fields: FieldPolicy
    /// Where the photos are logged; nil for nowhere.
    public let logging: PhotoLogging?
    /// What to tell the user at the start.
    public let notes: [Note]
    private let nameTemplate: TextTemplate?
    private let folderExisted: Bool
    /// The fonts, set up on a thread of their own, which then checks the styles with them: the
    /// watermarker goes to the controller's writer, the check (or why there is none) comes here.
    private let fonts: Pending<Watermarker>
    private let check = ConditionLock<Result<StyleCheck, any Error>?>(nil)

    /// Everything that can fail before the camera is touched: the styles (an unknown id, a file
    /// that cannot be read), the output (`Problem`), gpsd when it is required (`LocationError`),
    /// the folder (`FileError`). Then the fonts start being set up on a thread of their own.
    public init(_ choices: Choices) throws {
        self.choices = choices
        if case .file = choices.output, choices.photos != 1 { throw Problem.oneFileForSeveralPhotos(choices.output) }
        // Without a cycle to go round, only the chosen style is read.
        let store = choices.styleCycle ? try TemplateStore(choices.templateFolders) : nil
        chosen = try store?.resolve(choices.style) ?? TemplateStore.resolve(choices.style, in: choices.templateFolders)
        // The file named wins over a name template (from a config file, say).
        nameTemplate = choices.output.nameTemplate ?? choices.nameTemplate

        var fields = choices.fields
        var notes: [Note] = []
        if fields.whereabouts.mode.isLive {
            (fields.whereabouts.live, notes) = try Self.gpsd(at: choices.gpsd, mode: fields.whereabouts.mode)
        }
        let cycle = store?.catalog.entries.map(\.template) ?? [chosen]
        if fields.keepPlaceNames(ifShownBy: cycle, chosen: chosen, name: nameTemplate) { notes.append(.noPlaceNames) }
        fields.keepGridReferences(ifShownBy: cycle + [chosen], name: nameTemplate)
        self.fields = fields

        folder = choices.output.folder
        folderExisted = FileSystem.exists(FilePath(folder))
        try OutputFolder.prepare(folder, mark: choices.output.fileName == nil)

        let device: String
        if !choices.usesCamera {
            device = ""
        } else if let given = choices.device {
            device = given
        } else {
            let found = Cameras.defaultDevice()
            device = found.device
            if found.note != nil { notes.append(.noCamera) }
        }
        var devices = choices.usesCamera ? [device] : []
        if choices.usesCamera && choices.allCameras && device != Cameras.testDevice {
            devices += Cameras.list().cameras.map(\.path).filter { $0 != device }
        }
        self.devices = devices
        self.notes = notes
        logging = choices.catalog.map { PhotoLogging(log: CatalogLog(path: $0), command: .shoot) }

        let variables = Set(fields.given.extra.keys)
        fonts = try Pending { [chosen, check, fontConfig = choices.fontConfig] in
            do {
                let watermarker = try Watermarker(fontConfig: fontConfig)
                let checked = Result { () throws(TemplateError) -> StyleCheck in
                    try Self.check(chosen, cycle: store, variables: variables, with: watermarker)
                }
                check.withLock { $0 = checked.mapError { $0 } }
                return watermarker
            } catch {
                check.withLock { $0 = .failure(error) }
                throw error
            }
        }
    }

    /// The chosen style checked (its first error thrown, as a `TemplateError`), and with a cycle,
    /// the catalog's styles with errors left out, so none fails in the middle of a shoot. Waits
    /// for the fonts; throws their error (`WatermarkError`) when they could not be set up.
    public func checkStyles() throws -> StyleCheck {
        try check.wait(until: { $0 != nil }, then: { $0! })!.get()
    }

    /// The controller's settings: with a style cycle, once the styles are checked (`checkStyles`).
    public func controllerSettings() throws -> ShootController.Settings {
        let check = choices.styleCycle ? try checkStyles() : StyleCheck(styles: [chosen], style: 0, leftOut: [], warnings: [])
        var writer = choices.writer
        writer.log = logging
        var settings = ShootController.Settings(
            devices: devices, capture: choices.capture, styles: check.styles, style: check.style, fields: fields,
            folder: folder, nameTemplate: nameTemplate, keepOriginal: choices.keepOriginal, writer: writer,
            fontConfig: choices.fontConfig, describe: choices.describe)
        settings.markFolder = choices.output.fileName == nil
        return settings
    }

    /// Opens the first camera and starts the controller; its writer takes the watermarker being set
    /// up here once it is ready. Without a style cycle this does not wait for the fonts.
    public func makeController(counter: ShotCounter? = nil) throws -> ShootController {
        let fonts = self.fonts
        var settings = try controllerSettings()
        settings.counter = counter
        return try ShootController(settings: settings, watermarker: { try fonts.take() })
    }

    /// The settings the team's phones' photos are saved with: the controller's (its style, fields,
    /// folder, catalog, `--name`, `--keep-original`, `--exec`), the shot numbers shared with it,
    /// at `maxSize` (0: their own size).
    public func uploadSettings(style: Template, counter: ShotCounter, maxSize: Int) throws -> PhotoUploads.Settings {
        let controller = try controllerSettings()
        var writer = controller.writer
        writer.maxSize = maxSize
        var settings = PhotoUploads.Settings(folder: folder, style: style, fields: fields, writer: writer,
                                             load: LoadOptions(maxSize: maxSize), fontConfig: choices.fontConfig)
        settings.nameTemplate = nameTemplate
        settings.keepOriginal = choices.keepOriginal
        settings.counter = counter
        return settings
    }

    /// After the controller is closed: waits for the fonts' thread (none is left setting them up
    /// as the process ends), and removes the folder when this set-up made it and nothing was saved.
    public func finish() {
        fonts.wait()
        if !folderExisted { OutputFolder.removeIfEmpty(folder) }
    }

    /// gpsd, listened to from now on; nil when it cannot be used and `mode` (`auto`) can do
    /// without (the photos go without a position), with a note when that is for want of libgps.
    private static func gpsd(at address: (host: String, port: String), mode: GPSMode) throws -> (GPSDReceiver?, [Note]) {
        do {
            return (try GPSDReceiver(host: address.host, port: address.port), [])
        } catch let error as LocationError where mode == .auto {
            if case .libraryMissing(let missing) = error { return (nil, [.noGPSLibrary(missing)]) }
            return (nil, [])
        }
    }

    private static func check(_ chosen: Template, cycle store: TemplateStore?, variables: Set<String>,
                              with watermarker: Watermarker) throws(TemplateError) -> StyleCheck {
        let warnings = try TemplateStore.requireValid(chosen, checkingWith: watermarker, variables: variables)
        guard let store else { return StyleCheck(styles: [chosen], style: 0, leftOut: [], warnings: warnings) }
        var (styles, leftOut) = store.usableStyles(checkingWith: watermarker, variables: variables)
        // The chosen style is the one asked for: a template file with a catalog style's id stands in for it.
        let index = styles.firstIndex { $0.id == chosen.id }
        if let index { styles[index] = chosen } else { styles.insert(chosen, at: 0) }
        return StyleCheck(styles: styles, style: index ?? 0, leftOut: leftOut, warnings: warnings)
    }
}
