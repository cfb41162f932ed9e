import Capture
import Platform

/// `stampcam devices`: the cameras, their formats, sizes, rates, controls and features; one
/// camera's controls; setting controls by name.
enum DevicesCommand: Command {
    static let spec = CommandSpec(
        name: "devices",
        usage: "devices [--json] | devices --device D [--controls] [--set NAME=VALUE...]",
        summary: marked("command", "List the cameras with their formats, sizes, frame rates, controls and flash/torch/zoom/focus; show or set one camera's controls."),
        options: [device, controls, set, json])

    static let device = Option.text("device", short: "d", value: "D", help: marked("option", "only this camera: /dev/videoN, N, or 'test'"))
    static let controls = Flag("controls", help: marked("option", "show only the camera's controls"))
    static let set = Option.keyValue("set", value: "NAME=VALUE",
                                     help: marked("option", "set a control, e.g. brightness=140 or exposure_auto='Manual Mode' (repeatable)"))
    static let json = Flag("json", help: marked("option", "print JSON instead of text"))

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        let assignments = try options.values(set).map { (name: $0.key, value: $0.value) }
        let json = options.flag(Self.json)
        do {
            guard let device = try options.value(device) else {
                guard assignments.isEmpty else { throw UsageError.missing("--device D to set controls", command: spec.name) }
                return try listAll(json: json, console: console)
            }
            if !assignments.isEmpty {
                let changed = try Cameras.setControls(device, assignments)
                for control in changed { console.out(DeviceText.control(control)) }
                return .success
            }
            let camera = try Cameras.describe(device)
            if json {
                console.out(DeviceJSON.text([camera], controlsOnly: options.flag(controls)))
            } else if options.flag(controls) {
                for control in camera.controls { console.out(DeviceText.control(control)) }
                if camera.controls.isEmpty { console.out("\(camera.path): no controls") }
            } else {
                DeviceText.camera(camera).forEach(console.out)
            }
            return .success
        } catch let error as CaptureError {
            throw Failure(capture: error)
        }
    }

    private static func listAll(json: Bool, console: Console) throws -> ExitCode {
        let (cameras, problems) = Cameras.list()
        for problem in problems { console.err("stampcam: " + problem.description) }
        let all = cameras + [try Cameras.describe(Cameras.testDevice)]
        if json {
            console.out(DeviceJSON.text(all, controlsOnly: false))
        } else {
            if cameras.isEmpty && problems.isEmpty { console.out("no camera found (the built-in test pattern is always there)") }
            for (index, camera) in all.enumerated() {
                if index > 0 { console.out("") }
                DeviceText.camera(camera).forEach(console.out)
            }
        }
        // Cameras that exist but cannot be used are the user's to fix: say so in the exit code too.
        return cameras.isEmpty && !problems.isEmpty ? Failure(capture: problems[0]).code : .success
    }
}
