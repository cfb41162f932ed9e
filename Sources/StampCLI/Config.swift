import Platform
import Templates

/// `$XDG_CONFIG_HOME/stampcam/config.json` (default `~/.config/stampcam/config.json`): defaults for
/// options, so a field worker does not retype their name. Keys are long option names
/// (`"user": "Li Wei"`, `"template": "site-report"`, `"output": "/media/card/photos"`); flags take
/// true. The command line wins: config values go in front of the user's arguments.
enum Config {
    /// Arguments for the config's settings that `command` has, e.g. `["--user", "Li Wei"]`. A file
    /// that does not exist means no settings; one that cannot be read or parsed is an error.
    static func arguments(for command: CommandSpec, file: String) throws(UsageError) -> [String] {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(file, limit: 1 << 20) } catch .system(.noEntry) { return [] } catch {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a readable settings file (\(Self.reason(error)))")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: bytes) } catch {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a JSON object of settings (\(error))")
        }
        guard case .object(let settings) = root else {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a JSON object of settings")
        }
        let known = Set(allOptionNames)
        var arguments: [String] = []
        for key in settings.keys.sorted() {
            guard known.contains(key) else {
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: "a setting (known: \(known.sorted().joined(separator: ", ")))")
            }
            guard let option = command.options.first(where: { $0.long == key }), option.fromConfig else { continue }
            switch settings[key] {
            case .string(let text)? where option.valueName != nil:
                arguments += ["--\(key)", text]
            case .number(let number)? where option.valueName != nil:
                arguments += ["--\(key)", number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)]
            case .bool(let flag)? where option.valueName == nil:
                if flag { arguments.append("--\(key)") }
            default:
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: option.valueName == nil ? "true or false" : "a string or a number")
            }
        }
        return arguments
    }

    private static func reason(_ error: FileSystem.ReadError) -> String {
        switch error {
        case .system(let errno): return errno.reason
        case .notRegular(let kind): return "it is \(kind)"
        case .tooLarge: return "it is larger than 1 MB"
        }
    }

    /// Every option any command has (a config may hold settings for other commands).
    static var allOptionNames: [String] {
        StampCLI.commands.flatMap { $0.options.map(\.long) }.filter { $0 != "help" }
    }
}
