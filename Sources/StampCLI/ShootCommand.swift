import Capture
import Foundation
import Imaging
import Library
import Templates

/// `stampcam shoot`: the watermark camera. On a terminal, a live preview with the stamp: shoot,
/// restyle, retake, use. With `--yes` (or off a terminal), takes the photos at once: one, or a series
/// with `--count` and `--interval`. Each photo is stamped and saved under a new name; the path printed.
enum ShootCommand: Command {
    static let spec = CommandSpec(
        name: "shoot",
        usage: "shoot [--yes [--count N --interval S]] [--device D] [options] [-o DIR]",
        summary: "Take photos with the stamp: a live terminal preview, or at once with --yes.",
        options: [
            OptionSpec("yes", short: "y", help: "take the photo at once, without the preview"),
            OptionSpec("count", value: "N", help: "with --yes: take N photos (default 1)"),
            OptionSpec("interval", value: "SECONDS", help: "with --count: wait this long between photos (default 0)"),
        ] + ShotWriter.options + CaptureOptions.table + FieldOptions.table)

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        let capture = try CaptureOptions(options)
        let count = try options.integer("count", in: 1...100_000, default: 1)
        let interval = try interval(options)
        let interactive = !options.flag("yes")
        if interactive && !(Terminal.isTerminal(0) && Terminal.isTerminal(1)) {
            throw UsageError.missing("--yes when not on a terminal (the preview needs one)", command: spec.name)
        }
        // Template and folder problems show before the camera is touched.
        let stamper = try Stamper(resources: resources, fieldOptions: try FieldOptions(options),
                                  load: LoadOptions(maxSize: 0),
                                  quality: try options.integer("quality", in: 1...100, default: 92))
        let writer = try ShotWriter(options, stamper: stamper)
        try OutputFolders.create(writer.folder)
        let device = chooseDevice(capture.device, console: console)
        if interactive {
            let others = Cameras.list().cameras.map(\.path).filter { $0 != device && device != Cameras.testDevice }
            let screen = try Failure.capturing { try ShootScreen(devices: [device] + others, settings: capture.settings,
                                                                 writer: writer) }
            return screen.run()
        }
        let camera = try Failure.capturing { try Camera.open(device, settings: capture.settings) }
        defer { camera.close() }
        for number in 1...count {
            if number > 1 && interval > 0 { usleep(useconds_t(interval * 1_000_000)) }
            let still = try Failure.capturing { try camera.captureStill() }
            for note in camera.takeNotes() { console.err("stampcam: note: " + note) }
            let path = try writer.save(still, style: stamper.template) { console.err("stampcam: warning: " + $0) }
            console.out(path)
        }
        return .success
    }

    /// `--device`, else the first camera, else the test pattern (with a note saying so).
    static func chooseDevice(_ given: String?, console: Console) -> String {
        if let given { return given }
        let fallback = Cameras.defaultDevice()
        if let note = fallback.note { console.err("stampcam: note: " + note) }
        return fallback.device
    }

    static func interval(_ options: ParsedOptions) throws(UsageError) -> Double {
        guard let text = options.value("interval") else { return 0 }
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
            throw .badValue(option: "--interval", value: text, expected: "seconds from 0 to 86400, like 0.5")
        }
        return seconds
    }
}
