import Foundation
import Library
import Templates

/// `$XDG_CONFIG_HOME/stampcam/config.json` (default `~/.config/stampcam/config.json`): defaults for
/// options, so a field worker does not retype their name. Keys are long option names
/// (`"user": "Li Wei"`, `"template": "site-report"`, `"output": "/media/card/photos"`); flags take
/// true. The command line wins: config values go in front of the user's arguments.
enum Config {
    static var path: String { ConfigFolder.locate() + "/config.json" }

    /// Arguments for the config's settings that `command` has, e.g. `["--user", "Li Wei"]`.
    static func arguments(for command: CommandSpec, file: String = path) throws(UsageError) -> [String] {
        guard let data = FileManager.default.contents(atPath: file) else { return [] }
        guard case .object(let settings)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw .badValue(option: "config", value: file, expected: "a JSON object of settings")
        }
        let known = Set(allOptionNames)
        var arguments: [String] = []
        for key in settings.keys.sorted() {
            guard known.contains(key) else {
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: "a setting (known: \(known.sorted().joined(separator: ", ")))")
            }
            guard let option = command.options.first(where: { $0.long == key }) else { continue }
            switch settings[key] {
            case .string(let text)? where option.valueName != nil:
                arguments += ["--\(key)", text]
            case .number(let number)? where option.valueName != nil:
                arguments += ["--\(key)", number == number.rounded() ? String(Int(number)) : String(number)]
            case .bool(let flag)? where option.valueName == nil:
                if flag { arguments.append("--\(key)") }
            default:
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: option.valueName == nil ? "true or false" : "a string or a number")
            }
        }
        return arguments
    }

    /// Every option any command has (a config may hold settings for other commands).
    static var allOptionNames: [String] {
        StampCLI.commands.flatMap { $0.options.map(\.long) }.filter { $0 != "help" }
    }
}
