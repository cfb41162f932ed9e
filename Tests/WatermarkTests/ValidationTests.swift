import Testing
import TestSupport
import Imaging
import Templates
@testable import Watermark

@Suite struct ValidationTests {
    static func classic(line: String) throws -> Template {
        var template = try Fixture.template("classic")
        template.blocks[0].lines[1].text = line
        return template
    }

    /// What `stamp` says about a template: nil when it draws, else its error.
    static func stampError(_ template: Template, fields: Fields = Fixture.fields) throws -> String? {
        do {
            _ = try Watermarker(fontConfig: Fixture.fontConfig).stampCard(template: template, fields: fields)
            return nil
        } catch let error as TemplateError {
            return error.description
        }
    }

    @Test("absurd markup is one error in check and in apply, naming the file, the line and the problem", arguments: [
        ("<span foreground=\"nocolor\">{user}</span>",
         "not valid Pango markup: Value of 'foreground' attribute on <span> tag on line 1 could not be parsed; should be a color specification, not 'nocolor'"),
        // One unit in the comparison: pixels, with the digits that tell a value from the limit.
        ("<span rise=\"2000000000\">{user}</span>",
         "rise=\"2000000000\" (in Pango units, 1024 to the pixel) is 1953125 pixels; at most 1000 pixels are allowed"),
        ("<span letter_spacing=\"-2000000000\">{user}</span>",
         "letter_spacing=\"-2000000000\" (in Pango units, 1024 to the pixel) is 1953125 pixels; at most 1000 pixels are allowed"),
        ("<span rise=\"1024001\">{user}</span>",
         "rise=\"1024001\" (in Pango units, 1024 to the pixel) is 1000.001 pixels; at most 1000 pixels are allowed"),
        ("<span font=\"Sans 100000\">{user}</span>",
         "font=\"Sans 100000\" sets a size, which does not follow the photo's size; leave the size out and use size=\"120%\", <big> or <small>"),
        ("<span size=\"20000\">{user}</span>",
         "an absolute text size (19.5 pt) does not follow the photo's size; use a relative one: size=\"larger\", size=\"120%\", <big> or <small>"),
        ("<span size=\"100000%\">{user}</span>",
         "markup scales text by 1000 (size=\"…%\", <big> or <small>); text may end up at most 15.6 times this line's size"),
        ("<span size=\"2000%\">{user}</span>",
         "markup makes text 20 times this line's size, 0.64 of the photo's short side (at most 0.5)"),
        (String(repeating: "<small>", count: 7) + "<span size=\"5%\">{user}</span>" + String(repeating: "</small>", count: 7),
         "markup makes text 0.05 times this line's size, 0.0016 of the photo's short side (at least 0.002)"),
        (String(repeating: "<big>", count: 200) + "{user}" + String(repeating: "</big>", count: 200),
         "the text is 2206 characters long; a line may have at most 1000"),
        (String(repeating: "<big>", count: 60) + "{user}" + String(repeating: "</big>", count: 60),
         "markup tags nest 60 deep; at most 8 are allowed"),
        ("<span line_height=\"50\">{user}</span>", "line_height=\"50\" is more than 3 times the line's height"),
        ("<span foreground=\"{user}\">x</span>",
         "{user} is inside a markup tag; variables can stand only in text, not in tags or attributes"),
        ("User {projcet}", "unknown variable {projcet} (did you mean {project}?)"),
    ])
    func absurd(line: String, problem: String) throws {
        let template = try Self.classic(line: line)
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let problems = watermarker.validate(template)
        #expect(problems.map(\.description) == ["classic.json: blocks[0].lines[1]: \(problem)"])
        #expect(try Self.stampError(template) == "classic.json: blocks[0].lines[1]: \(problem)")
    }

    @Test("the limit is the size the text ends at: 300% passes on a small line, not on a large one")
    func relativeLimit() throws {
        var template = try Self.classic(line: "<big><span size=\"300%\">{user}</span></big>")
        template.blocks[0].lines[1].font.size = 0.1
        #expect(try Watermarker(fontConfig: Fixture.fontConfig).validate(template).isEmpty)
        #expect(try Self.stampError(template) == nil)
        template.blocks[0].lines[1].font.size = 0.2
        #expect(try Self.stampError(template)
            == "classic.json: blocks[0].lines[1]: markup makes text 3 times this line's size, 0.6 of the photo's short side (at most 0.5)")
    }

    @Test("check and apply agree: a template stamps exactly when validate finds no error", arguments: [
        "{user}", "<b>{user}</b>", "<span alpha=\"65%\">User</span> {user}", "<sup>2</sup> <small>{user}</small>",
        "<span rise=\"4000\" letter_spacing=\"1024\">{user}</span>", "<span size=\"x-large\">{user}</span>",
        "<b>{user}", "<span size=\"12pt\">{user}</span>", "{crew}", "{unknown}", "<span font=\"Serif Bold\">{user}</span>",
        "<span font=\"Serif Bold 30\">{user}</span>", "<tt>{user}</tt>", "<span fgcolor=\"#ff000080\">{user}</span>",
    ])
    func agreement(line: String) throws {
        let template = try Self.classic(line: line)
        var fields = Fixture.fields
        fields.extra = ["crew": "B"]
        let errors = try Watermarker(fontConfig: Fixture.fontConfig).validate(template, variables: ["crew"]).filter(\.isError)
        let stampError = try Self.stampError(template, fields: fields)
        #expect((stampError == nil) == errors.isEmpty, "\(errors) vs \(stampError ?? "drawn")")
        if let stampError { #expect(stampError.hasPrefix(errors[0].description)) }
    }

    @Test("names given values are variables: {crew} is an error without a value, fine with one")
    func setNames() throws {
        let template = try Self.classic(line: "Crew {crew}")
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        #expect(watermarker.validate(template).map(\.problem)
            == ["unknown variable {crew}: it is not built in and no value was given for it"])
        #expect(watermarker.validate(template).map(\.missingValue) == ["crew"])
        #expect(watermarker.validate(template, variables: ["crew"]).isEmpty)
        #expect(throws: TemplateError.self) { try watermarker.stampCard(template: template, fields: Fixture.fields) }
        var fields = Fixture.fields
        fields.extra["crew"] = "B"
        #expect(try watermarker.stampCard(template: template, fields: fields).boxes.count == 1)
    }

    @Test("several errors: stamp throws the first and counts the rest")
    func severalErrors() throws {
        var template = try Self.classic(line: "{projcet}")
        template.blocks[0].lines[2].text = "<b>{user}"
        template.blocks[0].lines[3].text = "{nothing}"
        #expect(try Self.stampError(template)
            == "classic.json: blocks[0].lines[1]: unknown variable {projcet} (did you mean {project}?) (and 2 more problems in this template)")
    }

    @Test("the built-in styles have no problems at all")
    func builtIns() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        for id in Fixture.builtInIDs {
            #expect(watermarker.validate(try Fixture.template(id)).isEmpty, "\(id)")
        }
    }

    @Test("characters without a glyph are named, in the template's text and in the values drawn")
    func missingGlyphs() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let template = try Self.classic(line: "✅ {user} \u{E000}")  // an emoji, a private-use character
        #expect(watermarker.validate(template).map(\.description) == [
            "classic.json: blocks[0].lines[1]: warning: no configured font can show U+2705 ✅, U+E000 \u{E000} (add a font file to fonts/)",
        ])
        var fields = Fixture.fields
        fields.note = "done ✅\u{E001} ✅"
        let report = try watermarker.stampCard(template: try Fixture.template("site-report"), fields: fields)
        #expect(report.missingCharacters.map(\.value) == [0x2705, 0xE001])
        #expect(report.unknownGlyphs == 3)
        #expect(report.warnings == ["no configured font can show U+2705 ✅, U+E001 \u{E001} (add a font file to fonts/)"])
        #expect(Watermarker.describe("\u{301}") == "U+0301")  // a combining mark alone does not print
    }

    @Test("what Pango logs is collected, not printed: a CRITICAL comes back as text")
    func libraryLog() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let (_, messages) = LibraryLog.shared.collecting {
            // A negative size fails one of Pango's assertions, which GLib would print on stderr.
            _ = TextLayout(context: watermarker.text.context, markup: "x", font: Template.Font(), pixelSize: -5,
                           align: .left, overflow: .ellipsis)
        }
        #expect(messages.contains { $0.hasPrefix("Pango-CRITICAL: ") && $0.contains("size >= 0") }, "\(messages)")
        // Nested collection: the inner call gets its own messages, the outer one everything.
        let (inner, outer) = LibraryLog.shared.collecting {
            LibraryLog.shared.collecting {
                _ = TextLayout(context: watermarker.text.context, markup: "x", font: Template.Font(), pixelSize: -5,
                               align: .left, overflow: .ellipsis)
            }.messages
        }
        #expect(!inner.isEmpty && outer == inner)
    }

    @Test("a render of a valid template logs nothing")
    func quietRender() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        for id in Fixture.builtInIDs {
            #expect(try watermarker.stampCard(template: try Fixture.template(id), fields: Fixture.fields).libraryMessages.isEmpty)
        }
    }

    @Test("rise and letter spacing are limited to the line's font size when drawn")
    func clampedLengths() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let plain = try watermarker.stampCard(template: try Self.classic(line: "{user}"), fields: Fixture.fields)
        // 900 pixels of rise and spacing pass validation (below 1000) but are drawn as one line height.
        let raised = try watermarker.stampCard(template: try Self.classic(line: "<span rise=\"921600\">{user}</span>"),
                                               fields: Fixture.fields)
        let spaced = try watermarker.stampCard(template: try Self.classic(line: "<span letter_spacing=\"921600\">{user}</span>"),
                                               fields: Fixture.fields)
        let box = try #require(plain.boxes.first), raisedBox = try #require(raised.boxes.first)
        let spacedBox = try #require(spaced.boxes.first)
        #expect(raisedBox.y >= 0 && raisedBox.height < box.height + 20)
        #expect(spacedBox.width <= 480 * 0.75 + 1 && spacedBox.height < box.height * 2)
    }
}
