/// A command line we cannot run. The message names the bad argument.
public enum UsageError: Error, Equatable, CustomStringConvertible {
    /// A command that does not exist, with the one close to it (`shoto` for `shoot`), if any.
    case unknownCommand(String, suggestion: String? = nil)
    case unknownOption(String, command: String)
    /// An unknown option close to a real one (`--usr` for `--user`).
    case misspeltOption(String, command: String, suggestion: String)
    case missingValue(option: String)
    case unexpectedValue(option: String)
    case badValue(option: String, value: String, expected: String)
    /// A value of the right form outside what the option allows (`range` says what it allows).
    case outOfRange(option: String, value: String, range: String)
    case missing(String, command: String)
    /// A template variable that is neither built in nor given a value (`--name '{projcet}.jpg'`).
    case unknownVariable(option: String, name: String, suggestion: String?)
    /// Arguments that name nothing, where joined by spaces they name a file: a path left unquoted.
    case unquotedPath(pieces: [String], joined: String)

    public var description: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            if let suggestion { return "unknown command '\(name)' (did you mean '\(suggestion)'?)" }
            return "unknown command '\(name)' (see 'stampcam --help')"
        case .unknownOption(let option, let command):
            return "unknown option '\(option)' for '\(command)' (see 'stampcam \(command) --help')"
        case .misspeltOption(let option, let command, let suggestion):
            return "unknown option '\(option)' for '\(command)' (did you mean '\(suggestion)'?)"
        case .missingValue(let option):
            return "option '\(option)' needs a value"
        case .unexpectedValue(let option):
            return "option '\(option)' takes no value"
        case .badValue(let option, let value, let expected):
            return "option '\(option)': '\(value)' is not \(expected)"
        case .outOfRange(let option, let value, let range):
            return "option '\(option)': '\(value)' is out of range: \(range)"
        case .missing(let what, let command):
            return "'\(command)' needs \(what) (see 'stampcam \(command) --help')"
        case .unknownVariable(let option, let name, let suggestion):
            if let suggestion { return "option '\(option)': unknown variable {\(name)} (did you mean {\(suggestion)}?)" }
            return "option '\(option)': unknown variable {\(name)}: it is not built in; give it a value with --set \(name)=VALUE"
        case .unquotedPath(let pieces, let joined):
            let named = pieces.map { "'\($0)'" }.joined(separator: " ")
            return "\(named): no such files; did you mean '\(joined)'? quote it, as the shell splits a name at its spaces"
        }
    }
}
