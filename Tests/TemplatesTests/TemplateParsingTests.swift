import Testing
import Templates

@Suite struct TemplateParsingTests {
    static func parse(_ json: String) throws(TemplateError) -> Template {
        try Template(json: Array(json.utf8), file: "site.json", folder: "/t")
    }

    static let minimal = #"{"version": 1, "id": "site", "blocks": [{"lines": ["{time}"]}]}"#

    @Test("a minimal template gets the documented defaults")
    func defaults() throws {
        let template = try Self.parse(Self.minimal)
        #expect(template.id == "site" && template.name == "site" && template.order == 1000 && template.tone == .none)
        let block = try #require(template.blocks.first)
        #expect(block.anchor == .bottomLeft && block.margin == (0.025, 0.025) && block.maxWidth == 0.9)
        #expect(block.box == nil && block.title == nil && block.overflow == .wrap)
        #expect(block.lines == [Template.Line(text: "{time}", align: .left, font: Template.Font(), color: .white)])
    }

    @Test("every key is read", arguments: [0])
    func full(_: Int) throws {
        let template = try Self.parse("""
        {"version": 1, "id": "full", "name": "Full", "description": "d", "order": 3, "tone": "sepia",
         "blocks": [{"anchor": "top-right", "margin": [0.01, 0.02], "maxWidth": 0.5, "fullWidth": true,
           "font": {"family": "Serif", "size": 0.05, "weight": "bold"}, "color": "#102030",
           "box": {"color": "#ffffff", "opacity": 0.5, "radius": 0.02, "padding": 0.03},
           "title": {"text": "{project}", "background": "#ff0000", "color": "#00ff0080", "font": {"size": 0.06}},
           "lines": [{"text": "a", "align": "center", "font": {"weight": "normal"}, "color": "#000000"}, "b"],
           "aside": ["{time}"], "overflow": "ellipsis", "lineSpacing": 0.5, "tabWidth": 6,
           "shadow": {"color": "#000000", "offset": 0.1}, "outline": {"color": "#ffffff", "width": 0.05},
           "logo": {"file": "logo.png", "size": 0.1, "position": "right"}}]}
        """)
        let block = template.blocks[0]
        #expect(template.tone == .sepia && template.order == 3 && block.anchor == .topRight && block.fullWidth)
        #expect(block.margin == (0.01, 0.02) && block.tabWidth == 6 && block.overflow == .ellipsis)
        #expect(block.lines[0].font == Template.Font(family: "Serif", size: 0.05, weight: .normal))
        #expect(block.lines[1].font.weight == .bold && block.lines[1].color == Template.Color(hex: "#102030"))
        #expect(block.title?.font == Template.Font(family: "Serif", size: 0.06, weight: .bold))
        #expect(block.title?.color.alpha == Double(0x80) / 255)
        #expect(block.logo == Template.Logo(file: "logo.png", size: 0.1, position: .right))
    }

    @Test("errors name the file and the JSON path", arguments: [
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"]}, {"lines": ["b"], "font": {"size": "big"}}]}"#,
         "site.json: blocks[1].font.size: expected a number, found a string"),
        (#"{"version": 2, "id": "x", "blocks": [{"lines": ["a"]}]}"#,
         "site.json: version: unknown version 2 (this stampcam reads version 1)"),
        (#"{"id": "x", "blocks": [{"lines": ["a"]}]}"#, "site.json: missing key 'version'"),
        (#"{"version": 1, "id": "x", "colour": "red", "blocks": [{"lines": ["a"]}]}"#,
         "site.json: colour: unknown key (expected one of: blocks, description, id, name, order, timeFormat, tone, version)"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"], "anchor": "middle"}]}"#,
         "site.json: blocks[0].anchor: 'middle' is not one of: top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"], "box": {"opacity": 2}}]}"#,
         "site.json: blocks[0].box.opacity: 2.0 is outside 0.0…1.0"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"], "color": "red"}]}"#,
         "site.json: blocks[0].color: 'red' is not a colour like #rrggbb or #rrggbbaa"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": [{"text": "{datetime:%Q}"}]}]}"#,
         "site.json: blocks[0].lines[0].text: '%Q' is not a time format directive"),
        (#"{"version": 1, "id": "x", "blocks": []}"#, "site.json: blocks: expected at least one block"),
        (#"{"version": 1, "id": "x", "blocks": [{}]}"#, "site.json: blocks[0]: expected at least one of lines, aside or title"),
        (#"{"version": 1, "id": "a b", "blocks": [{"lines": ["a"]}]}"#, "site.json: id: expected letters, digits, '-' or '_'"),
        (#"{"version": 1.5, "id": "x", "blocks": [{"lines": ["a"]}]}"#, "site.json: version: expected a whole number, found 1.5"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": [3]}]}"#, "site.json: blocks[0].lines[0]: expected an object, found a number"),
    ])
    func errors(json: String, message: String) {
        #expect(throws: TemplateError.self) { try Self.parse(json) }
        do {
            _ = try Self.parse(json)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("broken JSON names the file")
    func brokenJSON() {
        do {
            _ = try Self.parse(#"{"version": 1,"#)
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix("site.json: not valid JSON"))
        }
    }
}

@Suite struct CatalogTests {
    static func entry(_ id: String, order: Int, source: TemplateCatalog.Source = .builtIn, name: String? = nil) throws -> TemplateCatalog.Entry {
        let json = #"{"version": 1, "id": "\#(id)", "name": "\#(name ?? id)", "order": \#(order), "blocks": [{"lines": ["x"]}]}"#
        return TemplateCatalog.Entry(template: try Template(json: Array(json.utf8), file: "\(id).json", folder: "/"),
                                     source: source, file: "\(id).json")
    }

    @Test("cycle order by order then id; later layers override by id; next and previous wrap")
    func cycle() throws {
        let catalog = TemplateCatalog(layers: [
            try Self.entry("classic", order: 10), try Self.entry("banner", order: 20), try Self.entry("geo", order: 60),
            try Self.entry("banner", order: 20, source: .user, name: "My banner"), try Self.entry("aaa", order: 1000, source: .user),
        ])
        #expect(catalog.entries.map(\.template.id) == ["classic", "banner", "geo", "aaa"])
        #expect(catalog.entry(id: "banner")?.template.name == "My banner")
        #expect(catalog.entry(id: "banner")?.source == .user)
        #expect(catalog.cycle(from: "classic", step: 1)?.template.id == "banner")
        #expect(catalog.cycle(from: "aaa", step: 1)?.template.id == "classic")
        #expect(catalog.cycle(from: "classic", step: -1)?.template.id == "aaa")
    }
}
