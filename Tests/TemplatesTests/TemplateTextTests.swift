import Testing
import Templates
import Values

@Suite struct TemplateTextTests {
    static func template(_ lines: [String], title: String? = nil) throws(TemplateError) -> Template {
        let quoted = lines.map { (try? JSONOutput.line($0)) ?? "" }.joined(separator: ", ")
        let titleJSON = title.map { #", "title": {"text": \#((try? JSONOutput.line($0)) ?? "")}"# } ?? ""
        return try Template(json: Array(#"{"version": 1, "id": "t", "blocks": [{"lines": [\#(quoted)]\#(titleJSON)}]}"#.utf8),
                            file: "t.json", folder: "/t")
    }

    @Test("unknown variables are errors naming the path, with the nearest known name")
    func unknownVariables() throws {
        let template = try Self.template(["{projcet}", "{user}", "Crew {crew|user}"], title: "{locaton}")
        #expect(template.textProblems(variables: []).map(\.description) == [
            "t.json: blocks[0].title.text: unknown variable {locaton} (did you mean {location}?)",
            "t.json: blocks[0].lines[0]: unknown variable {projcet} (did you mean {project}?)",
            "t.json: blocks[0].lines[2]: unknown variable {crew}: it is not built in and no value was given for it",
        ])
        // The fact a front end words its advice from (the command line: --set crew=VALUE).
        #expect(template.textProblems(variables: []).map(\.missingValue) == [nil, nil, "crew"])
        // Names given values (--set) are variables like the built-in ones, and are suggested too.
        #expect(template.textProblems(variables: ["crew", "projcet", "locaton"]).isEmpty)
        let typo = try Self.template(["{crwe}"])
        #expect(typo.textProblems(variables: ["crew"]).map(\.problem) == ["unknown variable {crwe} (did you mean {crew}?)"])
        #expect(typo.textProblems(variables: nil).isEmpty)  // names not known yet
    }

    @Test("a file's texts are checked when it is read", arguments: [
        (String(repeating: "<big>", count: 50) + "{user}" + String(repeating: "</big>", count: 50),
         "t.json: blocks[0].lines[0]: markup tags nest 50 deep; at most 8 are allowed"),
        ("<span foreground=\"{user}\">x</span>",
         "t.json: blocks[0].lines[0]: {user} is inside a markup tag; variables can stand only in text, not in tags or attributes"),
        (String(repeating: "x", count: 1001), "t.json: blocks[0].lines[0]: the text is 1001 characters long; a line may have at most 1000"),
    ])
    func loadTimeChecks(text: String, message: String) {
        #expect(throws: TemplateError.self) { try Self.template([text]) }
        do {
            _ = try Self.template([text])
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("markup nesting is counted by tags, not by characters: eight levels and self-closing tags pass")
    func nestingLimit() throws {
        let eight = String(repeating: "<span>", count: 8) + "{user}" + String(repeating: "</span>", count: 8)
        #expect(try Self.template([eight, "<b>a</b><i>b</i> <span alpha=\"50%\">c > d</span>"]).textProblems(variables: []).isEmpty)
        let nine = "<b>" + eight + "</b>"
        #expect(TextTemplate.problems(in: nine, variables: nil).map(\.description) == ["markup tags nest 9 deep; at most 8 are allowed"])
    }

    @Test("a block has at most 20 lines, a template at most 16 blocks")
    func counts() throws {
        #expect(throws: TemplateError(file: "t.json", path: "blocks[0].lines", problem: "21 lines; a block may have at most 20")) {
            try Self.template(Array(repeating: "x", count: 21))
        }
        _ = try Self.template(Array(repeating: "x", count: 20))
        let blocks = Array(repeating: #"{"lines": ["x"]}"#, count: 17).joined(separator: ",")
        #expect(throws: TemplateError(file: "t.json", path: "blocks", problem: "17 blocks; a template may have at most 16")) {
            try Template(json: Array(#"{"version": 1, "id": "t", "blocks": [\#(blocks)]}"#.utf8), file: "t.json", folder: "/t")
        }
    }
}

@Suite struct FieldValueTests {
    @Test("line breaks and tabs become a space, not nothing; ends are trimmed")
    func breaks() {
        let fields = Fields(user: "line1\nline2", project: "a\r\n\r\nb", location: "\tPier 4\t", extra: ["crew": "B\u{2029}C"])
        let (shown, truncations) = fields.prepared()
        #expect(shown.user == "line1 line2")
        #expect(shown.project == "a b")
        #expect(shown.location == "Pier 4")
        #expect(shown.extra["crew"] == "B C")
        #expect(truncations.isEmpty)
    }

    @Test("values longer than 200 characters are cut with '…' and a warning naming the field")
    func truncation() throws {
        let long = String(repeating: "0123456789", count: 200)
        let fields = Fields(user: String(repeating: "u", count: 200), note: long, extra: ["crew": long + "!"])
        let (shown, truncations) = fields.prepared()
        #expect(shown.user == String(repeating: "u", count: 200))  // exactly the limit: kept whole
        #expect(shown.note == String(long.prefix(199)) + "…")
        #expect(shown.note?.count == Fields.maxValueLength)
        #expect(truncations == [Fields.Truncation(name: "note", length: 2000, shown: 200),
                                Fields.Truncation(name: "crew", length: 2001, shown: 200)])
        #expect(truncations[0].description == "note: 2000 characters, cut to the first 199 and \"…\"")
        // The cut counts characters, never splitting one: a flag is two scalars.
        let flags = Fields(note: String(repeating: "🇫🇷", count: 300)).prepared()
        #expect(flags.fields.note == String(repeating: "🇫🇷", count: 199) + "…")
        #expect(flags.truncations.first?.length == 300)
        // Rendering a text alone does not cut: a file-name template (--name) needs the whole value.
        #expect(try TextTemplate("{note}").render(Fields(note: long)) { $0 } == long)
    }

    @Test("a 60 KB value is prepared without cleaning all of it, and its length is still reported")
    func huge() {
        let value = String(repeating: "x", count: 60_000)
        let (shown, truncations) = Fields(project: value).prepared()
        #expect(shown.project?.count == 200)
        #expect(truncations == [Fields.Truncation(name: "project", length: 60_000, shown: 200)])
    }
}
