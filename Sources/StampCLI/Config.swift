import Platform
import Templates
import Values

/// `$XDG_CONFIG_HOME/stampcam/config.json` (default `~/.config/stampcam/config.json`): defaults for
/// options, so a field worker does not retype their name. Keys are long option names
/// (`"user": "Li Wei"`, `"template": "site-report"`, `"output": "/media/card/photos"`); flags take
/// true. The command line wins: config values go in front of the user's arguments. Besides
/// options, `"projects": ["Bridge 7", "Pier 4"]` is the pick list of `serve`'s fields panel.
enum Config {
    /// Keys that are settings but not options.
    static let listKeys = ["projects"]
    /// Settings that say yes to what a flag turns off: `"sign": false` is `--no-sign`.
    static let negatedFlags = ["sign": "no-sign"]

    /// Arguments for the config's settings that `command` has, e.g. `["--user", "Li Wei"]`. A file
    /// that does not exist means no settings; one that cannot be read or parsed is an error.
    static func arguments(for command: CommandSpec, file: String) throws(UsageError) -> [String] {
        let settings = try read(file)
        // Every command's option table is built only to check a config that has settings.
        guard !settings.isEmpty else { return [] }
        let known = Set(allOptionNames + listKeys + negatedFlags.keys)
        var arguments: [String] = []
        for key in settings.keys.sorted() {
            if listKeys.contains(key) {
                _ = try list(key, in: settings, file: file)  // checked for every command, used by some
                continue
            }
            if let flag = negatedFlags[key] {
                guard case .bool(let on)? = settings[key] else {
                    throw .badValue(option: "config", value: "\(file): \(key)", expected: "true or false")
                }
                if !on && command.options.contains(where: { $0.long == flag }) { arguments.append("--" + flag) }
                continue
            }
            guard known.contains(key) else {
                if let near = Variables.suggestion(for: key, among: known.sorted()) {
                    throw .badValue(option: "config", value: "\(file): \(key)", expected: "a setting (did you mean '\(near)'?)")
                }
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: "a setting (known: \(known.sorted().joined(separator: ", ")))")
            }
            guard let option = command.options.first(where: { $0.long == key }), option.fromConfig else { continue }
            switch settings[key] {
            case .string(let text)? where option.valueName != nil:
                arguments += ["--\(key)", text]
            case .number(let number)? where option.valueName != nil:
                arguments += ["--\(key)", Self.decimal(number)]
            case .bool(let flag)? where option.valueName == nil:
                if flag { arguments.append("--\(key)") }
            default:
                throw .badValue(option: "config", value: "\(file): \(key)",
                                expected: option.valueName == nil ? "true or false" : "a string or a number")
            }
        }
        return arguments
    }

    /// A JSON number as a user would type it: in plain decimal, as the options read numbers
    /// (Swift would write `1e-05`).
    static func decimal(_ number: Double) -> String {
        if number == number.rounded() && abs(number) < 1e15 { return String(Int(number)) }
        var text = fixedPoint(number, places: 9)
        while text.hasSuffix("0") && text.contains(".") { text.removeLast() }
        return text
    }

    /// The config's project pick list (`"projects": [...]`); empty without one.
    static func projects(file: String) throws(UsageError) -> [String] {
        try list("projects", in: try read(file), file: file)
    }

    /// The settings object; empty when the file does not exist.
    /// The config file's settings as written; none when it does not exist.
    static func settings(_ file: String) throws(UsageError) -> [String: JSONValue] { try read(file) }

    private static func read(_ file: String) throws(UsageError) -> [String: JSONValue] {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(FilePath(file), limit: 1 << 20) } catch .system(.noEntry) { return [:] } catch {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a readable settings file (\(Self.reason(error)))")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: bytes) } catch {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a JSON object of settings (\(error))")
        }
        guard case .object(let settings) = root else {
            throw .badValue(option: "config", value: PathEncoding.display(file), expected: "a JSON object of settings")
        }
        return settings
    }

    /// A list of texts, at most 1000 of them.
    private static func list(_ key: String, in settings: [String: JSONValue], file: String) throws(UsageError) -> [String] {
        guard let value = settings[key] else { return [] }
        guard case .array(let items) = value, items.count <= 1000 else {
            throw .badValue(option: "config", value: "\(PathEncoding.display(file)): \(key)", expected: "a list of at most 1000 texts")
        }
        var texts: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                throw .badValue(option: "config", value: "\(PathEncoding.display(file)): \(key)", expected: "a list of texts, like [\"Bridge 7\", \"Pier 4\"]")
            }
            if !texts.contains(text) { texts.append(text) }
        }
        return texts
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
