import Values

/// Text with `{variable}` and `{variable:format}` placeholders, parsed once. `{a|b}` shows `b` when
/// `a` is empty (`{location|coords}`). `{{` and `}}` are literal braces.
public struct TextTemplate: Sendable, Equatable {
    public struct Reference: Sendable, Equatable {
        public var name: String
        public var format: String?
    }

    public enum Segment: Sendable, Equatable {
        case literal(String)
        /// The first non-empty of these.
        case variable([Reference])
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    public let segments: [Segment]

    /// A template that is `text` itself: its braces are characters, not variables.
    public init(literal text: String) {
        segments = text.isEmpty ? [] : [.literal(text)]
    }

    public init(_ text: String) throws(ParseError) {
        var segments: [Segment] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{" && next < text.endIndex && text[next] == "{" {
                literal.append("{")
                index = text.index(after: next)
            } else if character == "}" && next < text.endIndex && text[next] == "}" {
                literal.append("}")
                index = text.index(after: next)
            } else if character == "}" {
                throw ParseError(description: "unmatched '}' in \"\(text)\" (write '}}' for a brace)")
            } else if character == "{" {
                guard let close = text[next...].firstIndex(of: "}") else {
                    throw ParseError(description: "unclosed '{' in \"\(text)\"")
                }
                let body = text[next..<close]
                let references = try body.split(separator: "|", omittingEmptySubsequences: false).map {
                    alternative throws(ParseError) in try Self.reference(alternative, in: body)
                }
                if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
                segments.append(.variable(references))
                index = text.index(after: close)
            } else {
                literal.append(character)
                index = next
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    private static func reference(_ text: Substring, in body: Substring) throws(ParseError) -> Reference {
        let name: Substring, format: String?
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            format = String(text[text.index(after: colon)...])
        } else {
            name = text
            format = nil
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw ParseError(description: "'{\(body)}' is not a variable name")
        }
        if let format, let problem = Variables.check(name: String(name), format: format) {
            throw ParseError(description: problem)
        }
        if name == "label" && format == nil {
            throw ParseError(description: "'{label}' names no label: write {label:user}, {label:project} …")
        }
        return Reference(name: String(name), format: format)
    }

    /// The most characters a template text may have: a stamp line, not a document (layout cost grows
    /// with the square of a line's length).
    public static let maxLength = 1000

    /// How deep markup tags may nest (`<b><i>…</i></b>` is two): the built-in styles need two.
    public static let maxMarkupDepth = 8

    /// Every variable name the text uses, alternatives included, in order of appearance.
    public var variableNames: [String] {
        segments.flatMap { segment -> [String] in
            guard case .variable(let references) = segment else { return [] }
            return references.map(\.name)
        }
    }

    /// One thing wrong with a template text.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, in words.
        public var description: String
        /// The variable that has no value (neither built in nor given one), when that is the
        /// problem: a front end says how to give it one.
        public var missingValue: String?

        public init(_ description: String, missingValue: String? = nil) {
            self.description = description
            self.missingValue = missingValue
        }
    }

    /// What is wrong with `text` as a template text; empty when nothing is. The same checks run
    /// when a template file is read and when a template is validated before stamping.
    /// `variables`: the names that have values besides the built-in ones; every other name is an
    /// error. Nil skips that check (while reading a file, before values are known).
    public static func problems(in text: String, variables: Set<String>?) -> [Problem] {
        let length = text.count
        guard length <= maxLength else {
            return [Problem("the text is \(length) characters long; a line may have at most \(maxLength)")]
        }
        let template: TextTemplate
        do {
            template = try TextTemplate(text)
        } catch {
            return [Problem(error.description)]
        }
        var problems = template.markupStructureProblems().map { Problem($0) }
        if let variables {
            var reported: Set<String> = []
            for name in template.variableNames
                where !Variables.isBuiltIn(name) && !variables.contains(name) && reported.insert(name).inserted {
                let candidates = Variables.builtIn.map(\.name) + variables.sorted()
                if let suggestion = Variables.suggestion(for: name, among: candidates) {
                    problems.append(Problem("unknown variable {\(name)} (did you mean {\(suggestion)}?)"))
                } else {
                    problems.append(Problem("unknown variable {\(name)}: it is not built in and no value was given for it",
                                            missingValue: name))
                }
            }
        }
        return problems
    }

    /// A variable inside a tag (`<span foreground="{colour}">`), and tags nested too deep. Only the
    /// template's own text is scanned: values are escaped, so they never open a tag.
    func markupStructureProblems() -> [String] {
        var problems: [String] = []
        var depth = 0, deepest = 0
        var tag: String?        // the tag being read, from its '<'
        var quote: Character?   // inside an attribute value
        for segment in segments {
            switch segment {
            case .variable(let references):
                if tag != nil, let name = references.first?.name {
                    problems.append("{\(name)} is inside a markup tag; variables can stand only in text, not in tags or attributes")
                }
            case .literal(let literal):
                for character in literal {
                    guard var open = tag else {
                        if character == "<" { tag = "<" }
                        continue
                    }
                    open.append(character)
                    tag = open
                    if let current = quote {
                        if character == current { quote = nil }
                    } else if character == "\"" || character == "'" {
                        quote = character
                    } else if character == ">" {
                        if open.hasPrefix("</") {
                            depth -= 1
                        } else if !open.hasPrefix("<!") && !open.hasPrefix("<?") && !open.hasSuffix("/>") {
                            depth += 1
                            deepest = max(deepest, depth)
                        }
                        tag = nil
                    }
                }
            }
        }
        if deepest > Self.maxMarkupDepth {
            problems.append("markup tags nest \(deepest) deep; at most \(Self.maxMarkupDepth) are allowed")
        }
        return problems
    }

    /// The text with every variable replaced by `placeholder`: for checking the markup around them.
    public func skeleton(placeholder: String = "x") -> String {
        segments.map { segment in
            if case .literal(let text) = segment { return text }
            return placeholder
        }.joined()
    }

    /// Whether a placeholder is a label (`{label:user}`): the words of the template, not a value.
    static func isLabel(_ references: [Reference]) -> Bool {
        references.first?.name == "label"
    }

    /// Whether the text shows the time (`{date}`, `{time}`, `{datetime}`).
    public var showsTime: Bool {
        variableNames.contains { Variables.timeNames.contains($0) }
    }

    /// The names of the variables whose values the text shows with `fields`: of each `{a|b}`, the
    /// first with a value. Names what a line that does not fit is cutting.
    public func shownNames(_ fields: Fields) -> [String] {
        segments.compactMap { segment -> String? in
            guard case .variable(let references) = segment, !Self.isLabel(references) else { return nil }
            return references.first { !Variables.value(name: $0.name, format: $0.format, fields: fields).isEmpty }?.name
        }
    }

    /// The text with each variable's value escaped by `escape`, or nil when the text has variables and
    /// all of them are empty (so "User: {user}" disappears instead of printing "User: "; a label is
    /// text, not a value: "{label:user} {user}" disappears too). Times without a format of their
    /// own are written as `style` says.
    public func render(_ fields: Fields, style: TimeStyle = .standard, escape: (String) -> String = Markup.escape) -> String? {
        var output = ""
        var variables = 0, empty = 0
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .variable(let references) where Self.isLabel(references):
                output += escape(Variables.value(name: "label", format: references[0].format, fields: fields))
            case .variable(let references):
                variables += 1
                let value = references.lazy.map { Variables.value(name: $0.name, format: $0.format, fields: fields, style: style) }
                    .first { !$0.isEmpty } ?? ""
                if value.isEmpty { empty += 1 }
                output += escape(value)
            }
        }
        return variables > 0 && empty == variables ? nil : output
    }
}
