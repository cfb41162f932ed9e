/// One command-line option: the table row that drives both parsing and `--help`.
public struct OptionSpec: Sendable {
    public let long: String
    public let short: Character?
    /// Nil for a flag; the placeholder shown in help for an option that takes a value.
    public let valueName: String?
    public let help: String

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }
}

/// A command's name, usage line, summary and option table.
public struct CommandSpec: Sendable {
    public let name: String
    public let usage: String
    public let summary: String
    public let options: [OptionSpec]

    /// Every command also gets `-h, --help`.
    public init(name: String, usage: String, summary: String, options: [OptionSpec]) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = options + [OptionSpec("help", short: "h", help: "show this help")]
    }

    /// `--help` text generated from the table.
    public var help: String {
        var text = "usage: stampcam \(usage)\n\n\(summary)\n\noptions:\n"
        let rows = options.map { option -> (String, String) in
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)"
            if let value = option.valueName { left += " \(value)" }
            return (left, option.help)
        }
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        return text
    }

    /// Parses `arguments` (after the command name) against the table.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedOptions {
        var parsed = ParsedOptions()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var inlineValue: String?
            let option: OptionSpec?
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                option = options.first { $0.long == name }
            } else {
                let letters = argument.dropFirst()
                option = options.first { $0.short == letters.first }
                if letters.count > 1 { inlineValue = String(letters.dropFirst()) }  // -o/tmp/out
            }
            guard let option else { throw .unknownOption(argument, command: name) }
            let spelled = argument.hasPrefix("--") ? "--\(option.long)" : argument.prefix(2).description
            if option.valueName == nil {
                if inlineValue != nil { throw .unexpectedValue(option: spelled) }
                parsed.values[option.long, default: []].append("")
                continue
            }
            if let inlineValue {
                parsed.values[option.long, default: []].append(inlineValue)
            } else if index < arguments.count {
                parsed.values[option.long, default: []].append(arguments[index])
                index += 1
            } else {
                throw .missingValue(option: spelled)
            }
        }
        return parsed
    }
}

/// The result of parsing: option values by long name (repeatable options keep every value) and the
/// positional arguments in order.
public struct ParsedOptions: Equatable, Sendable {
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []

    public init(values: [String: [String]] = [:], positionals: [String] = []) {
        self.values = values
        self.positionals = positionals
    }

    /// The last value given for `long`: later options win, as in most tools.
    public func value(_ long: String) -> String? { values[long]?.last }

    public func flag(_ long: String) -> Bool { values[long] != nil }

    /// An integer option within `range`, or `default` when absent.
    public func integer(_ long: String, in range: ClosedRange<Int>, default fallback: Int) throws(UsageError) -> Int {
        guard let text = value(long) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw .badValue(option: "--\(long)", value: text,
                            expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
