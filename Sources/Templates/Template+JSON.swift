import Values

extension Template {
    /// Reads a template from JSON. Unknown keys, wrong types, out-of-range values, unknown versions
    /// and JSON that is not well-formed are errors naming `file`, the JSON path and, for the latter,
    /// the line and column. `folder` is where relative logo paths point.
    public init(json: [UInt8], file: String, folder: String) throws(TemplateError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw TemplateError(file: file, path: error.path, problem: "\(error.problem) (line \(error.line), column \(error.column))")
        }
        let root = Node(value: value, path: "", file: file)
        let keys = try root.object(["version", "id", "name", "description", "order", "tone", "timeFormat", "blocks"])
        let version = try keys.required("version").integer(in: 1...1000)
        guard version == Template.formatVersion else {
            throw try keys.required("version").fail(
                "unknown version \(version) (this stampcam reads version \(Template.formatVersion))")
        }
        let id = try keys.required("id").string()
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw try keys.required("id").fail("expected letters, digits, '-' or '_'")
        }
        self.id = id
        self.version = version
        name = try keys["name"]?.string() ?? id
        description = try keys["description"]?.string() ?? ""
        order = try keys["order"]?.integer(in: -1_000_000...1_000_000) ?? 1000
        tone = try keys["tone"]?.choice(Tone.self) ?? .none
        timeStyle = try keys["timeFormat"].map { node throws(TemplateError) in try TimeStyle(node) } ?? .standard
        let blockNodes = try keys.required("blocks").array()
        guard !blockNodes.isEmpty else { throw try keys.required("blocks").fail("expected at least one block") }
        guard blockNodes.count <= Template.maxBlocks else {
            throw try keys.required("blocks").fail("\(blockNodes.count) blocks; a template may have at most \(Template.maxBlocks)")
        }
        blocks = try blockNodes.map { node throws(TemplateError) in try Block(node) }
        self.folder = folder
        self.file = file
    }
}

extension Template.Block {
    static let keys: Set<String> = [
        "anchor", "margin", "maxWidth", "fullWidth", "box", "title", "lines", "aside", "overflow",
        "lineSpacing", "tabWidth", "font", "color", "shadow", "outline", "logo", "qr",
    ]

    init(_ node: Node) throws(TemplateError) {
        let keys = try node.object(Self.keys)
        anchor = try keys["anchor"]?.choice(Template.Anchor.self) ?? .bottomLeft
        if let margin = keys["margin"] {
            if case .array = margin.value {
                let pair = try margin.array()
                guard pair.count == 2 else { throw margin.fail("expected a number or [x, y]") }
                self.margin = (try pair[0].number(in: 0...0.5), try pair[1].number(in: 0...0.5))
            } else {
                let value = try margin.number(in: 0...0.5)
                self.margin = (value, value)
            }
        } else {
            margin = (0.025, 0.025)
        }
        maxWidth = try keys["maxWidth"]?.number(in: 0.05...1) ?? 0.9
        fullWidth = try keys["fullWidth"]?.bool() ?? false
        overflow = try keys["overflow"]?.choice(Template.Overflow.self) ?? .wrap
        lineSpacing = try keys["lineSpacing"]?.number(in: 0...3) ?? 0.2
        tabWidth = try keys["tabWidth"]?.number(in: 0.5...40) ?? 4
        let font = try keys["font"].map { node throws(TemplateError) in try Template.Font(node, base: Template.Font()) }
            ?? Template.Font()
        let color = try keys["color"]?.color() ?? .white
        box = try keys["box"].map { node throws(TemplateError) in try Template.Box(node) }
        title = try keys["title"].map { node throws(TemplateError) in try Template.Title(node, font: font) }
        lines = try keys["lines"]?.lineArray().map { node throws(TemplateError) in
            try Template.Line(node, font: font, color: color)
        } ?? []
        aside = try keys["aside"]?.lineArray().map { node throws(TemplateError) in
            try Template.Line(node, font: font, color: color)
        } ?? []
        guard !lines.isEmpty || !aside.isEmpty || title != nil else {
            throw node.fail("expected at least one of lines, aside or title")
        }
        shadow = try keys["shadow"].map { node throws(TemplateError) in
            let shadow = try node.object(["color", "offset"])
            return Template.Shadow(color: try shadow["color"]?.color() ?? Template.Color(red: 0, green: 0, blue: 0, alpha: 0.7),
                                   offset: try shadow["offset"]?.number(in: 0...1) ?? 0.06)
        }
        outline = try keys["outline"].map { node throws(TemplateError) in
            let outline = try node.object(["color", "width"])
            return Template.Outline(color: try outline["color"]?.color() ?? .black,
                                    width: try outline["width"]?.number(in: 0...1) ?? 0.08)
        }
        logo = try keys["logo"].map { node throws(TemplateError) in
            let logo = try node.object(["file", "size", "position"])
            let file = try logo.required("file").string()
            guard !file.isEmpty else { throw try logo.required("file").fail("expected the name of a PNG file") }
            return Template.Logo(file: file,
                                 size: try logo["size"]?.number(in: 0.01...1) ?? 0.08,
                                 position: try logo["position"]?.choice(Template.Logo.Position.self) ?? .left)
        }
        // The photo's QR code, laid out as a logo is; a block has one or the other.
        if let node = keys["qr"] {
            guard logo == nil else { throw node.fail("a block has a logo or a QR code, not both") }
            let qr = try node.object(["size", "position"])
            logo = Template.Logo(file: "", size: try qr["size"]?.number(in: 0.05...1) ?? 0.14,
                                 position: try qr["position"]?.choice(Template.Logo.Position.self) ?? .right, qr: true)
        }
    }
}

extension TimeStyle {
    /// `{"date": "%d.%m.%Y", "time": "%H:%M", "fileTimeMark": "file time"}`; `fileTimeMark` may be
    /// false (no mark) or a text.
    init(_ node: Node) throws(TemplateError) {
        let keys = try node.object(["date", "time", "fileTimeMark"])
        func format(_ key: String, _ standard: String) throws(TemplateError) -> String {
            guard let node = keys[key] else { return standard }
            let text = try node.string()
            if let problem = TimeFormat.problem(in: text) { throw node.fail(problem) }
            return text
        }
        var mark: String? = TimeStyle.defaultFileTimeMark
        if let node = keys["fileTimeMark"] {
            if case .bool = node.value {
                mark = try node.bool() ? TimeStyle.defaultFileTimeMark : nil
            } else {
                let text = try node.string()
                guard text.count <= 40 else { throw node.fail("a mark of at most 40 characters, like \"file time\"") }
                mark = text.isEmpty ? nil : text
            }
        }
        self.init(date: try format("date", TimeStyle.standard.date), time: try format("time", TimeStyle.standard.time),
                  fileTimeMark: mark)
    }
}

extension Template.Font {
    /// A font object; keys left out keep `base`'s values.
    init(_ node: Node, base: Template.Font) throws(TemplateError) {
        let keys = try node.object(["family", "size", "weight"])
        family = try keys["family"]?.string() ?? base.family
        size = try keys["size"]?.number(in: 0.002...0.5) ?? base.size
        weight = try keys["weight"]?.choice(Template.Weight.self) ?? base.weight
    }
}

extension Template.Box {
    init(_ node: Node) throws(TemplateError) {
        let keys = try node.object(["color", "opacity", "radius", "padding"])
        color = try keys["color"]?.color() ?? .black
        opacity = try keys["opacity"]?.number(in: 0...1) ?? 0.55
        radius = try keys["radius"]?.number(in: 0...0.5) ?? 0.01
        padding = try keys["padding"]?.number(in: 0...0.5) ?? 0.018
    }
}

extension Template.Title {
    init(_ node: Node, font: Template.Font) throws(TemplateError) {
        let keys = try node.object(["text", "color", "background", "font"])
        text = try keys.required("text").variableText()
        color = try keys["color"]?.color() ?? .white
        background = try keys["background"]?.color() ?? Template.Color(red: 0.9, green: 0.35, blue: 0.05)
        var titleFont = font
        titleFont.weight = .bold
        self.font = try keys["font"].map { node throws(TemplateError) in try Template.Font(node, base: titleFont) }
            ?? titleFont
    }
}

extension Template.Line {
    /// A line is a string, or an object with text, align, font and color.
    init(_ node: Node, font: Template.Font, color: Template.Color) throws(TemplateError) {
        if case .string = node.value {
            self.init(text: try node.variableText(), align: .left, font: font, color: color)
            return
        }
        let keys = try node.object(["text", "align", "font", "color"])
        self.init(text: try keys.required("text").variableText(),
                  align: try keys["align"]?.choice(Template.Alignment.self) ?? .left,
                  font: try keys["font"].map { node throws(TemplateError) in try Template.Font(node, base: font) } ?? font,
                  color: try keys["color"]?.color() ?? color)
    }
}

/// A value in the JSON tree with its path, for strict reading with precise errors.
struct Node {
    let value: JSONValue
    let path: String
    let file: String

    func fail(_ problem: String) -> TemplateError {
        TemplateError(file: file, path: path, problem: problem)
    }

    private func expected(_ what: String) -> TemplateError {
        fail("expected \(what), found \(value.kind)")
    }

    /// The members of an object, refusing keys outside `allowed`.
    func object(_ allowed: Set<String>) throws(TemplateError) -> Members {
        guard case .object(let members) = value else { throw expected("an object") }
        for key in members.keys.sorted() where !allowed.contains(key) {
            throw child(key, members[key]!).fail("unknown key (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
        return Members(parent: self, members: members)
    }

    func child(_ key: String, _ value: JSONValue) -> Node {
        let shown = JSONValue.displayedKey(key)
        return Node(value: value, path: path.isEmpty ? shown : "\(path).\(shown)", file: file)
    }

    func array() throws(TemplateError) -> [Node] {
        guard case .array(let items) = value else { throw expected("a list") }
        return items.enumerated().map { Node(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    func string() throws(TemplateError) -> String {
        guard case .string(let text) = value else { throw expected("a string") }
        return text
    }

    /// A string of text with `{variables}`, checked for well-formed braces and formats, its length
    /// and the structure of its markup (`TextTemplate.problems`).
    func variableText() throws(TemplateError) -> String {
        let text = try string()
        if let problem = TextTemplate.problems(in: text, variables: nil).first { throw fail(problem.description) }
        return text
    }

    /// The lines of a block: a list of at most `Template.maxLinesPerBlock`.
    func lineArray() throws(TemplateError) -> [Node] {
        let items = try array()
        guard items.count <= Template.maxLinesPerBlock else {
            throw fail("\(items.count) lines; a block may have at most \(Template.maxLinesPerBlock)")
        }
        return items
    }

    func bool() throws(TemplateError) -> Bool {
        guard case .bool(let flag) = value else { throw expected("true or false") }
        return flag
    }

    func number(in range: ClosedRange<Double>) throws(TemplateError) -> Double {
        guard case .number(let number) = value else { throw expected("a number") }
        guard range.contains(number) else { throw fail("\(number) is outside \(range.lowerBound)…\(range.upperBound)") }
        return number
    }

    func integer(in range: ClosedRange<Int>) throws(TemplateError) -> Int {
        let number = try number(in: Double(range.lowerBound)...Double(range.upperBound))
        guard number.rounded() == number else { throw fail("expected a whole number, found \(number)") }
        return Int(number)
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws(TemplateError) -> Choice
        where Choice.RawValue == String
    {
        let text = try string()
        guard let choice = Choice(rawValue: text) else {
            throw fail("'\(text)' is not one of: \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    func color() throws(TemplateError) -> Template.Color {
        let text = try string()
        guard let color = Template.Color(hex: text) else { throw fail("'\(text)' is not a colour like #rrggbb or #rrggbbaa") }
        return color
    }

    /// An object's members by key.
    struct Members {
        let parent: Node
        let members: [String: JSONValue]

        subscript(key: String) -> Node? {
            members[key].map { parent.child(key, $0) }
        }

        func required(_ key: String) throws(TemplateError) -> Node {
            guard let node = self[key] else { throw parent.fail("missing key '\(key)'") }
            return node
        }
    }
}
