import Capture

/// `stampcam devices`: the cameras, their formats, sizes, rates, controls and features; one
/// camera's controls; setting controls by name.
enum DevicesCommand: Command {
    static let spec = CommandSpec(
        name: "devices",
        usage: "devices [--json] | devices --device D [--controls] [--set NAME=VALUE...]",
        summary: "List the cameras with their formats, sizes, frame rates, controls and flash/torch/zoom/focus; show or set one camera's controls.",
        options: [
            OptionSpec("device", short: "d", value: "D", help: "only this camera: /dev/videoN, N, or 'test'"),
            OptionSpec("controls", help: "show only the camera's controls"),
            OptionSpec("set", value: "NAME=VALUE", help: "set a control, e.g. brightness=140 or exposure_auto='Manual Mode' (repeatable)"),
            OptionSpec("json", help: "print JSON instead of text"),
        ])

    static func run(_ options: ParsedOptions, resources: Resources, console: Console) throws -> ExitCode {
        let assignments = try (options.values["set"] ?? []).map { pair throws(UsageError) -> (name: String, value: String) in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .badValue(option: "--set", value: pair, expected: "NAME=VALUE")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
        let json = options.flag("json")
        return try Failure.capturing {
            guard let device = options.value("device") else {
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
                console.out(DeviceJSON.text([camera], controlsOnly: options.flag("controls")))
            } else if options.flag("controls") {
                for control in camera.controls { console.out(DeviceText.control(control)) }
                if camera.controls.isEmpty { console.out("\(camera.path): no controls") }
            } else {
                DeviceText.camera(camera).forEach(console.out)
            }
            return .success
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
