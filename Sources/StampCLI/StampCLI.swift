import Library
import Platform
import Templates

/// The command-line program: picks the command, parses its options from its table, runs it and
/// turns every error into one line and an exit code.
public enum StampCLI {
    public static let version = "0.2.0"

    static var commandTypes: [any Command.Type] { [
        ShootCommand.self, ServeCommand.self, ApplyCommand.self, RestampCommand.self, StylesCommand.self,
        TemplatesCommand.self, DevicesCommand.self, TestCardCommand.self, SitesCommand.self, PlacesCommand.self,
        LogCommand.self, ExportCommand.self, ReportCommand.self, KeysCommand.self, VerifyCommand.self, TeamCommand.self,
        DoctorCommand.self, CompletionCommand.self, BenchCommand.self,
    ] }
    static var commands: [CommandSpec] { commandTypes.map { $0.spec } }

    static var overview: String {
        var text = "stampcam \(version) — " + L("a watermark camera: who, when, where and for which project, burned into the photo.") + "\n\n"
        text += L("usage:") + " stampcam COMMAND [options]\n\n" + L("commands:") + "\n"
        for command in commands { text += "  \(command.name.padding(12))\(command.translatedSummary)\n" }
        text += "\n" + L("'stampcam COMMAND --help' shows a command's options.") + "\n"
        return text
    }

    /// Runs one command line (without the program name) and returns the exit code. `environment`
    /// is where the configuration, the user's templates and the Pictures folder are looked up.
    public static func run(_ arguments: [String], console: Console = .standard,
                           environment: [String: String]) -> Int32 {
        let code = runCommand(arguments, console: console, environment: environment)
        // Results lost on the way out (a full disk, a closed pipe) are a failed command, whatever it did.
        guard let lost = console.finishOut() else { return code }
        console.err("stampcam: standard output: write failed: \(lost.reason) (the output is incomplete)")
        return code == ExitCode.success.rawValue ? ExitCode.ioError.rawValue : code
    }

    private static func runCommand(_ arguments: [String], console: Console, environment: [String: String]) -> Int32 {
        // `--lang` may also come before the command: `stampcam --lang es apply …` is `stampcam apply --lang es …`.
        var arguments = arguments
        if arguments.count > 2 && arguments[0] == "--lang" {
            arguments = [arguments[2], "--lang", arguments[1]] + arguments.dropFirst(3)
        } else if arguments.count > 1 && arguments[0].hasPrefix("--lang=") {
            arguments = [arguments[1], arguments[0]] + arguments.dropFirst(2)
        }
        do {
            let note = try RunLanguage.choose(Array(arguments.dropFirst()), configFile: ConfigFolder.locate(environment: environment) + "/config.json",
                                              environment: environment, resources: Resources.locate(environment: environment))
            if let note { console.err("stampcam: note: " + note) }
        } catch {
            console.err("stampcam: " + error.description)
            return ExitCode.usage.rawValue
        }
        guard let name = arguments.first else {
            // Line by line: a message line shows a newline inside it as `\x0A`.
            for line in overview.split(separator: "\n", omittingEmptySubsequences: false) { console.err(String(line)) }
            return ExitCode.usage.rawValue
        }
        switch name {
        case "-h", "--help", "help":
            if arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                console.out(command.help)
            } else {
                console.out(overview)
            }
            return ExitCode.success.rawValue
        case "--version":
            console.out("stampcam \(version)")
            return ExitCode.success.rawValue
        case "--man":
            console.out(ManPage.roff)  // for packagers: the manual page, from the same tables as --help
            return ExitCode.success.rawValue
        default:
            break
        }
        guard let commandType = commandTypes.first(where: { $0.spec.name == name }) else {
            let near = Variables.suggestion(for: name, among: commands.map(\.name))
            console.err("stampcam: " + UsageError.unknownCommand(name, suggestion: near).description)
            return ExitCode.usage.rawValue
        }
        do {
            let configFile = ConfigFolder.locate(environment: environment) + "/config.json"
            // doctor reports a broken config file instead of stopping at it.
            let defaults = commandType == DoctorCommand.self ? [] : try Config.arguments(for: commandType.spec, file: configFile)
            let options = try commandType.spec.parse(defaults + Array(arguments.dropFirst()))
            if options.flag(CommandSpec.help) {
                console.out(commandType.spec.help)
                return ExitCode.success.rawValue
            }
            guard let resources = Resources.locate(environment: environment) else {
                throw Failure("cannot find stampcam's data folder (fonts/, templates/); set STAMPCAM_DATA", code: .unavailable)
            }
            let context = Context(console: console, environment: environment, resources: resources)
            return try commandType.run(options, context: context).rawValue
        } catch {
            let failure = Failure(error, path: name)
            console.err("stampcam: " + failure.message)
            return failure.code.rawValue
        }
    }

    /// The process's own command line and environment, names kept byte for byte (see `PathEncoding`).
    public static func main() -> Int32 {
        // With `ulimit -f`, writing past the limit must fail with EFBIG, not kill us mid-batch.
        Signals.ignoreFileSizeLimit()
        return run(ProcessEnvironment.arguments, environment: ProcessEnvironment.current)
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

extension Array where Element == String {
    /// Labels as one column in a terminal: `least` columns wide, or one space past the widest
    /// label (a translated one may be longer; CJK characters take two).
    func column(least: Int) -> [String] {
        let width = Swift.max(least, (map(TextWidth.columns).max() ?? 0) + 1)
        return map { TextWidth.padded($0, width: width) }
    }
}
