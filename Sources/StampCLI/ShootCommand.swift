import Capture
import Imaging
import Library
import Location
import Platform
import Session
import Synchronization
import Templates
import Watermark

/// `stampcam shoot`: the watermark camera. On a terminal, a live preview with the stamp: shoot,
/// restyle, retake, use. With `--yes` (or off a terminal), takes the photos at once: one, or a series
/// with `--count` and `--interval`. Both drive the same `ShootController`.
enum ShootCommand: Command {
    static let yes = Flag("yes", short: "y", help: "take the photo at once, without the preview")
    static let count = Option.integer("count", value: "N", in: 1...100_000, help: "with --yes: take N photos (default 1)")
    static let interval = Option.number("interval", value: "SECONDS", in: 0...86_400, example: "0.5",
                                        help: "with --count: wait this long between photos (default 0)")
    static let output = Option.text("output", short: "o", value: "DIR",
                                    help: "folder for the photos (default $XDG_PICTURES_DIR/stampcam or ~/Pictures/stampcam)")
    static let name = StampOptions.name(help: "file name from template variables (default: YYYYMMDD-HHMMSS-NNNN.jpg)")
    static let keepOriginal = Flag("keep-original", help: "also save the unstamped photo and a sidecar JSON to re-stamp it later")
    static let exec = Option<ExecHook>("exec", value: "CMD",
                                       help: "run CMD (no shell) after each save with the photo's path ({} in CMD, else added at the end)") { text throws(UsageError) in
        do { return try ExecHook(text) } catch {
            throw .badValue(option: "--exec", value: text, expected: "a command (\(error))")
        }
    }
    static let quality = Option.integer("quality", value: "Q", in: 1...100, help: "JPEG quality 1-100 (default 92)")
    static let optimize = Flag("optimize", help: "Huffman tables made for each photo, as apply writes them: 1-10% smaller files, encoding up to twice as long")
    static let maxSize = Option.integer("max-size", value: "PX", in: 0...65535,
                                        help: "fit the photo's long side to PX pixels, as apply does; 0 keeps the camera's size (default 1024)")

    static let spec = CommandSpec(
        name: "shoot",
        usage: "shoot [--yes [--count N --interval S]] [--device D] [options] [-o DIR]",
        summary: "Take photos with the stamp: a live terminal preview, or at once with --yes.",
        options: [yes, count, interval, output, name, keepOriginal, exec, quality, optimize, maxSize] + CaptureOptions.all + StampOptions.all
            + CatalogOptions.writing,
        notes: """
            keys (on a terminal, without --yes):
              Space/Enter  take the photo           u/Enter  use (save) the photo under review
              ←/→          previous/next style      r        retake
              f            cycle the flash modes    c        next camera
              +/- (↑/↓)    zoom in/out              a        autofocus
              q/Esc        quit (asks first when a photo is not saved); Ctrl-C quits at once

            """)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        _ = try CaptureOptions.settings(options)  // a bad camera option is named before anything else
        let photos = try options.value(count) ?? 1
        let pause = try options.value(interval) ?? 0
        let interactive = !options.flag(yes)
        if interactive && !(Terminal.isTerminal(0) && Terminal.isTerminal(1)) {
            throw UsageError.missing("--yes when not on a terminal (the preview needs one)", command: spec.name)
        }
        // The fonts, the longest part of getting ready, are set up on a thread of their own from
        // here on, while the options are read and the camera opens and settles.
        let fonts = try Pending { [fontConfig = context.resources.fontConfig] in try Watermarker(fontConfig: fontConfig) }
        // Whatever ends the command, the fonts are not left half set up on the other thread.
        defer { fonts.wait() }
        let prepared = try controllerSettings(options, context: context, allCameras: interactive, styleCycle: interactive,
                                              oneFile: !interactive && photos == 1, fonts: fonts) { error, folder in
            Failure(error, path: folder).message
        }
        defer { prepared.finish(console: console) }
        if interactive {
            let controller = try ShootController(settings: prepared.settings, watermarker: try prepared.checkedWatermarker(context: context))
            defer { controller.close() }
            return ShootScreen(controller: controller, fields: prepared.given).run()
        }
        // gpsd sends a fix about once a second: the first photo waits for a usable one (at most 2 s).
        // Without gpsd, the shutter goes at once: the camera settles while the fonts are set up and
        // the style is checked, and a style with errors ends the run before anything is saved.
        let whereabouts = prepared.settings.fields.whereabouts
        let gps = whereabouts.live as? GPSDReceiver
        let controller = try ShootController(opening: prepared.settings, shutter: gps == nil)
        defer { controller.close() }
        controller.stamp(with: try prepared.checkedWatermarker(context: context, photosOf: controller.snapshot()))
        gps?.waitForFix(timeout: 2) { whereabouts.rules.judge($0, now: WallClock.monotonic()).fix != nil }
        return try series(controller, count: photos, interval: pause, shutterPressed: gps == nil, console: console)
    }

    /// The controller's settings and what the front end needs beside them.
    struct Prepared {
        var settings: ShootController.Settings
        /// The values given on the command line (the terminal shows them on its status line).
        var given: Fields
        var folderExisted: Bool
        /// The style chosen to start with, and the variables given for it.
        var chosen: Template
        var variables: Set<String>
        /// The watermarker that checked the styles, when they were checked (the style cycle); the
        /// controller stamps the photos with it.
        var checker: Watermarker?
        /// The catalog the photos go into (nil with --no-catalog).
        var logging: PhotoLogging?
        /// The fonts being set up, when that was started early.
        var fonts: Pending<Watermarker>?

        /// `checker`, or one made now that checks the chosen style (one line and exit 65 for a style
        /// with errors; its warnings said). Given the camera, the check lays the text out at the
        /// size of its photos, loading the fonts their stamp will use.
        /// Given the camera, the first stamp is also rehearsed on a blank photo of that size, while
        /// the camera settles: the real one then finds its glyphs drawn and its code paged in. Only
        /// with a second core online: on one, the rehearsal's own drawing takes turns with the camera
        /// and the shutter waits for it (`make bench-capture`, one virtual processor: ×1.46–1.58 of
        /// fswebcam's time without it, ×1.62–1.68 with it).
        func checkedWatermarker(context: Context, photosOf camera: ShootController.Snapshot? = nil) throws -> Watermarker {
            if let checker { return checker }
            let size = camera.map(photoSize)
            let checked = try ShootCommand.checkedWatermarker(chosen, given: given, variables: variables, context: context,
                                                              shortSide: size.map { Double(min($0.width, $0.height)) }, fonts: fonts)
            return checked
        }

        /// The size of the photos saved from this camera: its frames, cropped by a digital zoom,
        /// fitted to --max-size.
        private func photoSize(_ camera: ShootController.Snapshot) -> (width: Int, height: Int) {
            let crop = camera.zoomCrops ? max(1, settings.capture.zoom) : 1
            let frame = (width: Int((Double(camera.frameSize.width) / crop).rounded()),
                         height: Int((Double(camera.frameSize.height) / crop).rounded()))
            return LoadOptions(maxSize: settings.writer.maxSize).fittedSize(width: frame.width, height: frame.height)
        }

        /// After the controller is closed: says how many photos the catalog missed, and removes the
        /// folder when the run saved nothing (no camera, quit at once) and made it.
        func finish(console: Console) {
            CatalogOptions.tellMissed(logging, folder: settings.folder, console: console)
            if !folderExisted { OutputFolder.removeIfEmpty(settings.folder) }
        }
    }

    /// What `shoot` and `serve` give the controller: the style cycle (styles with errors left out,
    /// said once; with `styleCycle` false, the chosen style alone), the fields (with the live GPS fix when there is one), the folder (created), the
    /// cameras (with `allCameras`, every one for switching), the writer's settings. With `oneFile`,
    /// `-o photo.jpg` names the one photo's file (as fswebcam's does); otherwise such an `-o` is an
    /// error. Template and folder problems show before the camera is touched; without a cycle, the
    /// check that needs the fonts (`Prepared.checkedWatermarker`) is left to the caller.
    static func controllerSettings(_ options: ParsedOptions, context: Context, allCameras: Bool, styleCycle: Bool = true,
                                   oneFile: Bool, fonts: Pending<Watermarker>? = nil,
                                   describe: @escaping @Sendable (any Error, String) -> String) throws -> Prepared {
        let console = context.console
        let capture = try CaptureOptions.settings(options)
        var stamp = try StampOptions.values(options, context: context, live: true)
        try StampOptions.connectGPS(&stamp)
        // Without a cycle to go round (--yes), only the chosen style is read.
        let store = styleCycle ? try context.templates(extraFolders: stamp.templateFolders) : nil
        let chosen = try store?.resolve(stamp.templateChoice) ?? context.template(stamp.templateChoice, extraFolders: stamp.templateFolders)
        let variables = Set(stamp.fields.given.extra.keys)
        // Styles with errors are left out of the cycle (said once), so none fails in the middle of a
        // shoot. Without a cycle to go round (--yes) only the chosen style is set up.
        var styles: [Template] = []
        var checker: Watermarker?
        if let store {
            let checked = try checkedWatermarker(chosen, given: stamp.fields.given, variables: variables, context: context, fonts: fonts)
            checker = checked
            let usable = store.usableStyles(checkingWith: checked, variables: variables)
            for problem in usable.problems { console.err("stampcam: warning: left out of the style cycle: " + problem.description) }
            styles = usable.styles
        }
        if !styles.contains(where: { $0.id == chosen.id }) { styles.insert(chosen, at: 0) }  // a template file
        StampOptions.preparePlaces(&stamp, styles: styles, chosen: chosen, name: try options.value(name), console: console)
        var folder = try options.value(output) ?? PicturesFolder.locate(environment: context.environment)
        var singleFile: TextTemplate?
        if let given = try options.value(output), ApplyCommand.namesOneFile(given) {
            guard oneFile else {
                throw UsageError.badValue(option: "--output", value: given,
                                          expected: "usable without --yes or with --count above 1: it names one file; give a folder (-o DIR)")
            }
            // The file named wins over a --name (from the config file, say).
            let slash = given.lastIndex(of: "/")
            singleFile = try ApplyCommand.literalName(slash.map { String(given[given.index(after: $0)...]) } ?? given)
            folder = slash.map { $0 == given.startIndex ? "/" : String(given[..<$0]) } ?? "."
        }
        let folderExisted = FileSystem.exists(folder)
        try OutputFolder.prepare(folder, mark: singleFile == nil)
        let device = chooseDevice(try options.value(CaptureOptions.device), console: console)
        var devices = [device]
        if allCameras && device != Cameras.testDevice {
            devices += Cameras.list().cameras.map(\.path).filter { $0 != device }
        }
        var settings = ShootController.Settings(
            devices: devices, capture: capture, styles: styles,
            style: styles.firstIndex { $0.id == chosen.id } ?? 0, fields: stamp.fields, folder: folder,
            nameTemplate: try singleFile ?? options.value(name), keepOriginal: options.flag(keepOriginal),
            writer: PhotoWriter.Settings(quality: try options.value(quality) ?? 92, exec: try options.value(exec),
                                         version: StampCLI.version, maxSize: try options.value(maxSize) ?? 1024),
            fontConfig: context.resources.fontConfig,
            describe: { [folder] in describe($0, folder) })
        settings.markFolder = singleFile == nil
        let logging = try CatalogOptions.log(options, context: context, command: .shoot)
        settings.writer.log = logging
        settings.writer.optimize = options.flag(optimize)
        return Prepared(settings: settings, given: stamp.fields.given, folderExisted: folderExisted, chosen: chosen,
                        variables: variables, checker: checker, logging: logging, fonts: fonts)
    }

    /// A watermarker (the fonts set up) that has checked `chosen`: a style with errors is one line
    /// and exit 65; its warnings are said. `fonts`: that watermarker being made already.
    static func checkedWatermarker(_ chosen: Template, given: Fields, variables: Set<String>, context: Context,
                                   shortSide: Double? = nil, fonts: Pending<Watermarker>? = nil) throws -> Watermarker {
        let checker = try fonts?.take() ?? Watermarker(fontConfig: context.resources.fontConfig)
        for warning in try TemplateStore.requireValid(chosen, checkingWith: checker, variables: variables) {
            context.console.err("stampcam: " + warning.description)
        }
        if let warning = StampOptions.notShownWarning(chosen, given: given) { context.console.err("stampcam: " + warning) }
        return checker
    }

    /// `--yes`: shutter, use, and the next one after `interval` seconds; a Ctrl-C ends the series
    /// after the photo in hand is saved (exit 130). With `shutterPressed`, the first shutter was sent.
    static func series(_ controller: ShootController, count: Int, interval: Double, shutterPressed: Bool,
                       console: Console) throws -> ExitCode {
        let stop = Mutex(false)
        let interrupt = Signals.shared.interceptInterrupt { stop.withLock { $0 = true } }
        defer { interrupt.cancel() }
        var told = Set<String>()
        for number in 1...count {
            if number > 1 {
                let end = WallClock.monotonic() + interval
                while WallClock.monotonic() < end && !stop.withLock({ $0 }) { WallClock.sleep(min(0.1, end - WallClock.monotonic())) }
            }
            if stop.withLock({ $0 }) { return .interrupted }
            if number > 1 || !shutterPressed { controller.send(.shutter) }
            let taken = controller.wait(timeout: 600) { $0.state.phase != .capturing && $0.state.phase != .viewfinder }
            report(controller, console: console)
            guard let taken, taken.state.phase == .reviewing else { throw taken?.lastError ?? Failure("the camera gave no photo", code: .unavailable) }
            controller.send(.use)
            let saved = controller.wait(timeout: 600) { $0.state.phase != .saving }
            report(controller, console: console)
            guard let saved, case .saved = saved.state.phase, let written = saved.lastSaved else {
                throw saved?.lastError ?? Failure("the photo could not be saved", code: .ioError)
            }
            for warning in written.warnings { console.err("stampcam: warning: " + warning) }
            for note in written.stampNotes where told.insert(note).inserted { console.err("stampcam: warning: " + note) }
            console.out(written.path)
        }
        controller.close()  // waits for the share command of the last photo
        report(controller, console: console)
        return stop.withLock { $0 } ? .interrupted : .success
    }

    /// Camera notes and warnings since the last call, one line each.
    private static func report(_ controller: ShootController, console: Console) {
        for notice in controller.snapshot(takeNotices: true).notices {
            console.err("stampcam: " + (notice.isWarning ? "warning: " : "note: ") + notice.text)
        }
    }

    /// `--device`, else the first camera, else the test pattern (with a note saying so).
    static func chooseDevice(_ given: String?, console: Console) -> String {
        if let given { return given }
        let fallback = Cameras.defaultDevice()
        if let note = fallback.note { console.err("stampcam: note: \(note) (--device test)") }
        return fallback.device
    }
}
