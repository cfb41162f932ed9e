import Capture
import Library
import Platform
import Session

/// `stampcam shoot`: the watermark camera. On a terminal, a live preview with the stamp: shoot,
/// restyle, retake, use. With `--yes` (or off a terminal), takes the photos at once: one, or a series
/// with `--count` and `--interval`. Both drive the same `ShootController`.
enum ShootCommand: Command {
    static let yes = Flag("yes", short: "y", help: marked("option", "take the photo at once, without the preview"))
    static let count = Option.integer("count", value: "N", in: 1...100_000, help: marked("option", "with --yes: take N photos (default 1)"))
    static let interval = Option.number("interval", value: "SECONDS", in: 0...86_400, example: "0.5",
                                        help: marked("option", "with --count: wait this long between photos (default 0)"))
    static let output = Option.text("output", short: "o", value: "DIR",
                                    help: marked("option", "folder for the photos (default $XDG_PICTURES_DIR/stampcam or ~/Pictures/stampcam)"))
    static let name = StampOptions.name(help: marked("option", "file name from template variables (default: YYYYMMDD-HHMMSS-NNNN.jpg)"))
    static let keepOriginal = Flag("keep-original", help: marked("option", "also save the unstamped photo and a sidecar JSON to re-stamp it later"))
    static let exec = Option<ExecHook>("exec", value: "CMD",
                                       help: marked("option", "run CMD (no shell) after each save with the photo's path ({} in CMD, else added at the end)")) { text throws(UsageError) in
        do { return try ExecHook(text) } catch {
            throw .badValue(option: "--exec", value: text, expected: "a command (\(error))")
        }
    }
    static let quality = Option.integer("quality", value: "Q", in: 1...100, help: marked("option", "JPEG quality 1-100 (default 92)"))
    // xgettext:no-c-format
    static let optimize = Flag("optimize", help: marked("option", "Huffman tables made for each photo, as apply writes them: 1-10% smaller files, encoding up to twice as long"))
    static let maxSize = Option.integer("max-size", value: "PX", in: 0...65535,
                                        help: marked("option", "fit the photo's long side to PX pixels, as apply does; 0 keeps the camera's size (default 1024)"))

    static let spec = CommandSpec(
        name: "shoot",
        usage: "shoot [--yes [--count N --interval S]] [--device D] [options] [-o DIR]",
        summary: marked("command", "Take photos with the stamp: a live terminal preview, or at once with --yes."),
        options: [yes, count, interval, output, name, keepOriginal, exec, quality, optimize, maxSize] + CaptureOptions.all + StampOptions.all
            + CatalogOptions.writing + SigningOptions.writing,
        notes: KeyHelp(heading: marked("key", "keys (on a terminal, without --yes):"), keys: [
            ("Space/Enter", marked("key", "take the photo")), ("u/Enter", marked("key", "use (save) the photo under review")),
            ("←/→", marked("key", "previous/next style")), ("r", marked("key", "retake")),
            ("f", marked("key", "cycle the flash modes")), ("c", marked("key", "next camera")),
            ("+/- (↑/↓)", marked("key", "zoom in/out")), ("a", marked("key", "autofocus")),
            ("q/Esc", marked("key", "quit (asks first when a photo is not saved); Ctrl-C quits at once")),
        ]))

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        _ = try CaptureOptions.settings(options)  // a bad camera option is named before anything else
        let photos = try options.value(count) ?? 1
        let pause = try options.value(interval) ?? 0
        let interactive = !options.flag(yes)
        if interactive && !(Terminal.isTerminal(0) && Terminal.isTerminal(1)) {
            throw UsageError.missing("--yes when not on a terminal (the preview needs one)", command: spec.name)
        }
        var choices = try Self.choices(options, context: context, viewfinder: interactive)
        choices.photos = interactive ? nil : photos
        let output = choices.output
        choices.describe = { Failure($0, path: output.folder).message }
        let setup = try ShootSetup(choices)
        defer { finish(setup, console: console) }
        tell(setup.notes, console: console)
        if interactive {
            tell(try setup.checkStyles(), setup: setup, console: console)
            let controller = try setup.makeController()
            defer { controller.close() }
            let code = ShootScreen(controller: controller, fields: choices.fields.given).run()
            controller.close()  // waits for a save in progress, which the count must include
            tellSaved(controller, setup: setup, console: console)
            return code
        }
        // The camera opens while the fonts are set up; the style is checked before the first photo.
        let controller = try setup.makeController()
        defer { controller.close() }
        tell(try setup.checkStyles(), setup: setup, console: console)
        let outcome = try ShootSeries(count: photos, interval: pause).run(controller) { event in
            switch event {
            case .notice(let notice):
                console.err("stampcam: " + (notice.isWarning ? "warning: " : "note: ") + notice.text)
            case .saved(let written):
                for warning in written.warnings { console.err("stampcam: warning: " + warning) }
                console.out(written.path)
            }
        }
        return outcome == .interrupted ? .interrupted : .success
    }

    /// What `shoot` and `serve` ask of the set-up: the options as typed values. `viewfinder`: the
    /// user looks through one (the terminal's, the browser's), so every camera and every usable
    /// style can be switched to.
    static func choices(_ options: ParsedOptions, context: Context, viewfinder: Bool,
                        command: String = spec.name) throws -> ShootSetup.Choices {
        let stamp = try StampOptions.values(options, context: context, live: true)
        let target = try options.value(output).map(OutputTarget.init(parsing:))
        var writer = PhotoWriter.Settings(quality: try options.value(quality) ?? 92, exec: try options.value(exec),
                                          version: StampCLI.version, maxSize: try options.value(maxSize) ?? 1024)
        writer.optimize = options.flag(optimize)
        writer.signer = try SigningOptions.signer(options, context: context, command: command)
        writer.verifyURL = try options.value(SigningOptions.verifyURL)
        return ShootSetup.Choices(
            style: stamp.templateChoice, templateFolders: context.templateFolders(extra: stamp.templateFolders),
            output: target ?? .folder(PicturesFolder.locate(environment: context.environment)),
            nameTemplate: try StampOptions.nameTemplate(options, name, given: stamp.fields.given), device: try options.value(CaptureOptions.device),
            allCameras: viewfinder, styleCycle: viewfinder, capture: try CaptureOptions.settings(options),
            fields: stamp.fields, gpsd: stamp.gpsd, keepOriginal: options.flag(keepOriginal), writer: writer,
            catalog: try CatalogOptions.writingPath(options, context: context), fontConfig: context.resources.fontConfig)
    }

    /// The set-up's notes, one line each.
    static func tell(_ notes: [ShootSetup.Note], console: Console) {
        for note in notes {
            switch note {
            case .noCamera: console.err("stampcam: note: no camera found; using the built-in test pattern (--device test)")
            case .noPlaceNames: console.err(StampOptions.placeNamesMissing)
            case .noGPSLibrary(let missing):
                console.err("stampcam: note: no live GPS: " + Failure(missing: missing).message)
            }
        }
    }

    /// What the style check found: the styles left out of the cycle, the chosen style's warnings,
    /// and the values given that it does not show.
    static func tell(_ check: ShootSetup.StyleCheck, setup: ShootSetup, console: Console) {
        for warning in check.warnings { console.err("stampcam: " + warning.description) }
        if let warning = StampOptions.notShownWarning(setup.chosen, given: setup.fields.given) { console.err("stampcam: " + warning) }
        for problem in check.leftOut {
            console.err("stampcam: warning: left out of the style cycle: " + problem.description + StampOptions.advice(missingValue: problem.missingValue))
        }
    }

    /// After the controller is closed: `2 photos saved in DIR`.
    static func tellSaved(_ controller: ShootController, setup: ShootSetup, console: Console) {
        let saved = controller.saved.count
        console.err("stampcam: \(saved) photo\(saved == 1 ? "" : "s") saved in \(setup.folder)")
    }

    /// After the controller is closed: how many photos the catalog missed; the folder the set-up
    /// made is removed when nothing was saved in it.
    static func finish(_ setup: ShootSetup, console: Console) {
        CatalogOptions.tellMissed(setup.logging, folder: setup.folder, console: console)
        if setup.choices.writer.signer == nil { console.err(SigningOptions.unsignedNote) }
        setup.finish()
    }
}
