import Library
import Platform
import Templates
import Values

/// One command-line option's row: drives parsing, `--help`, the config file and completion.
public struct OptionSpec: Sendable {
    public let long: String
    public let short: Character?
    /// Nil for a flag; the placeholder shown in help for an option that takes a value.
    public let valueName: String?
    /// In English, marked for translation (context "option"): `translatedHelp` is what a user reads.
    public let help: String
    /// Whether the config file may give it (false for the filters of `log`, `export` and `report`:
    /// a default project for new photos must not hide the others from a listing).
    public var fromConfig = true

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String) {
        self.long = long
        self.short = short
        self.valueName = value
        self.help = help
    }

    /// `help` in the current language.
    public var translatedHelp: String { Translation.text(help, context: "option") }
}

/// Anything that declares an option row (typed options and flags), so a command's table is built
/// from the same values its code reads.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

/// An option declared once as a value: its row and how its text becomes a `Value`. Read with
/// `options.value(Declared.output)`: a typo does not compile, a bad value is a `UsageError` naming it.
struct Option<Value>: OptionDeclaration, Sendable {
    var spec: OptionSpec
    let convert: @Sendable (String) throws(UsageError) -> Value

    init(_ long: String, short: Character? = nil, value: String, help: String,
         convert: @escaping @Sendable (String) throws(UsageError) -> Value) {
        spec = OptionSpec(long, short: short, value: value, help: help)
        self.convert = convert
    }

    /// The error for `text` given to this option when `expected` was wanted.
    func bad(_ text: String, expected: String) -> UsageError {
        .badValue(option: "--\(spec.long)", value: text, expected: expected)
    }
}

/// An option without a value.
struct Flag: OptionDeclaration, Sendable {
    var spec: OptionSpec

    init(_ long: String, short: Character? = nil, help: String) {
        spec = OptionSpec(long, short: short, help: help)
    }
}

extension Option {
    /// The same option, taken from the command line only (never from the config file).
    func commandLineOnly() -> Option {
        var option = self
        option.spec.fromConfig = false
        return option
    }
}

extension Option where Value == String {
    /// Any text.
    static func text(_ long: String, short: Character? = nil, value: String, help: String) -> Option {
        Option(long, short: short, value: value, help: help) { $0 }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    static func integer(_ long: String, short: Character? = nil, value: String, in range: ClosedRange<Int>,
                        help: String) -> Option {
        Option(long, short: short, value: value, help: help) { (text) throws(UsageError) in
            guard let number = Int(text), range.contains(number) else {
                throw .badValue(option: "--\(long)", value: text,
                                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }
}

extension Option where Value == Double {
    /// A finite number within `range` (so no later conversion can overflow).
    static func number(_ long: String, short: Character? = nil, value: String, in range: ClosedRange<Double>,
                       example: String, help: String) -> Option {
        Option(long, short: short, value: value, help: help) { (text) throws(UsageError) in
            guard let number = decimalNumber(text), number.isFinite, range.contains(number) else {
                throw .badValue(option: "--\(long)", value: text,
                                expected: "a number from \(plain(range.lowerBound)) to \(plain(range.upperBound)), like \(example)")
            }
            return number
        }
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// `KEY=VALUE`, split at the first `=`; the key must not be empty.
struct KeyValue: Equatable, Sendable {
    let key: String
    let value: String
}

extension Option where Value == KeyValue {
    static func keyValue(_ long: String, value: String, help: String) -> Option {
        Option(long, value: value, help: help) { (text) throws(UsageError) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw .badValue(option: "--\(long)", value: text, expected: value)
            }
            return KeyValue(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
    }
}

/// A command's name, usage line, summary and option table.
public struct CommandSpec: Sendable {
    public let name: String
    public let usage: String
    /// In English, marked for translation (context "command"): `translatedSummary` is what a user reads.
    public let summary: String
    public let options: [OptionSpec]
    /// More help after the options (the keys of the interactive camera).
    public let notes: KeyHelp?

    /// `summary` in the current language.
    public var translatedSummary: String { Translation.text(summary, context: "command") }

    static let help = Flag("help", short: "h", help: marked("option", "show this help"))

    /// Every command also gets `--lang` (see `RunLanguage`) and `-h, --help`.
    init(name: String, usage: String, summary: String, options: [any OptionDeclaration], notes: KeyHelp? = nil) {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.options = (options + [RunLanguage.option, Self.help]).map(\.spec)
        self.notes = notes
    }

    /// `--help` text generated from the table, in the current language.
    public var help: String {
        var text = L("usage:") + " stampcam \(usage)\n\n\(translatedSummary)\n\n" + L("options:") + "\n"
        let rows = options.map { option -> (String, String) in
            var left = option.short.map { "-\($0), " } ?? "    "
            left += "--\(option.long)"
            if let value = option.valueName { left += " \(value)" }
            return (left, option.translatedHelp)
        }
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        if let notes { text += "\n" + notes.text }
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
            // A negative number (a southern latitude: -33.86,151.21) is a value, not an option.
            let isNumber = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") || isNumber {
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
            guard let option else {
                let spelled = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
                if spelled.hasPrefix("--"), let near = Variables.suggestion(for: String(spelled.dropFirst(2)), among: options.map(\.long)) {
                    throw .misspeltOption(spelled, command: name, suggestion: "--" + near)
                }
                throw .unknownOption(argument, command: name)
            }
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

/// Keys and what they do, two to a line under a heading; the texts are English, marked for
/// translation (context "key"), and translated when shown, the columns measured as a terminal
/// shows them (a CJK character takes two).
public struct KeyHelp: Sendable {
    public struct Key: Sendable {
        public let keys: String
        public let action: String
    }
    public let heading: String
    public let keys: [Key]

    init(heading: String, keys: [(String, String)]) {
        self.heading = heading
        self.keys = keys.map { Key(keys: $0.0, action: $0.1) }
    }

    /// In the current language: each row's first keys and action, then its second keys four
    /// columns after the widest first action.
    public var text: String {
        let actions = keys.map { Translation.text($0.action, context: "key") }
        let firsts = Array(stride(from: 0, to: keys.count, by: 2)), paired = firsts.filter { $0 + 1 < keys.count }
        func widest(_ indices: [Int], _ text: (Int) -> String) -> Int { indices.map { TextWidth.columns(text($0)) }.max() ?? 0 }
        let keyWidth = widest(firsts) { keys[$0].keys } + 2
        let actionWidth = widest(paired) { actions[$0] } + 4
        let secondKeyWidth = widest(paired) { keys[$0 + 1].keys } + 2
        var text = Translation.text(heading, context: "key") + "\n"
        for first in firsts {
            text += "  " + TextWidth.padded(keys[first].keys, width: keyWidth)
            text += first + 1 < keys.count
                ? TextWidth.padded(actions[first], width: actionWidth) + TextWidth.padded(keys[first + 1].keys, width: secondKeyWidth) + actions[first + 1] + "\n"
                : actions[first] + "\n"
        }
        return text
    }
}

/// The result of parsing: option texts by long name (repeatable options keep every value) and the
/// positional arguments in order. Read through the declared options.
public struct ParsedOptions: Equatable, Sendable {
    var values: [String: [String]] = [:]
    public var positionals: [String] = []

    init(values: [String: [String]] = [:], positionals: [String] = []) {
        self.values = values
        self.positionals = positionals
    }

    /// The last value given: later options win, as in most tools (and over the config file's).
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        guard let text = values[option.spec.long]?.last else { return nil }
        return try option.convert(text)
    }

    /// Every value given, in order (repeatable options).
    func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
        var result: [Value] = []
        for text in values[option.spec.long] ?? [] { result.append(try option.convert(text)) }
        return result
    }

    func flag(_ flag: Flag) -> Bool { values[flag.spec.long] != nil }
}
