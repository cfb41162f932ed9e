import Testing
import Templates
import Values

@Suite struct JSONReaderTests {
    static func parse(_ json: String) throws(TemplateError) -> Template {
        try Template(json: Array(json.utf8), file: "site.json", folder: "/t")
    }

    static func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try Template(json: bytes, file: "site.json", folder: "/t")
            return nil
        } catch {
            return error.description
        }
    }

    @Test("JSON nested 10,000 deep is refused with its path and the limit, without a crash")
    func deepNesting() {
        let json = #"{"version": 1, "id": "x", "blocks": "# + String(repeating: "[", count: 10_000)
            + String(repeating: "]", count: 10_000) + "}"
        let message = Self.message(Array(json.utf8))
        let path = "blocks" + String(repeating: "[0]", count: JSONValue.maxDepth - 1)
        #expect(message == "site.json: \(path): lists and objects nest more than 32 levels deep here "
            + "(a template needs at most 6) (line 1, column 68)")
    }

    @Test("errors say what is wrong in words, where, and in which value", arguments: [
        (#"{"version": 1e999, "id": "x", "blocks": [{"lines": ["a"]}]}"#,
         "site.json: version: the number 1e999 is too large (the largest is about 1.8e308) (line 1, column 13)"),
        (#"{"version": 1, "id": "x", "id": "y", "blocks": [{"lines": ["a"]}]}"#,
         "site.json: id: the key \"id\" appears twice in this object (each key may appear once) (line 1, column 27)"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a",]}]}"#,
         "site.json: blocks[0].lines: not valid JSON: a ',' before ']' (JSON allows no trailing comma) (line 1, column 53)"),
        (#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"],}]}"#,
         "site.json: blocks[0]: not valid JSON: a ',' before '}' (JSON allows no trailing comma) (line 1, column 54)"),
        ("{\"version\": 1,\n \"id\": 'x'}", "site.json: id: not valid JSON: expected a value, found ''' (line 2, column 8)"),
        (#"{"version": 01}"#, "site.json: version: not valid JSON: a number may not start with 0 (write 7, not 07) (line 1, column 14)"),
        (#"{"version": NaN}"#, "site.json: version: not valid JSON: expected a value, found 'N' (line 1, column 13)"),
        (#"{"version": 1 "id": "x"}"#, "site.json: not valid JSON: expected ',' or '}' after a member, found '\"' (line 1, column 15)"),
        (#"{"version": 1"#, "site.json: not valid JSON: the file ends inside an object (a missing '}'?) (line 1, column 14)"),
        (#"{"id": "x"#, "site.json: id: not valid JSON: a string is not closed (a missing '\"') (line 1, column 8)"),
        ("{\"id\": \"a\tb\"}", "site.json: id: not valid JSON: a control character (U+0009) inside a string; write a line break as \\n, a tab as \\t (line 1, column 10)"),
        (#"{"id": "\ud83c"}"#, "site.json: id: not valid JSON: \\uD83C is the first half of a surrogate pair without its second half (line 1, column 15)"),
        (#"{"id": "\q"}"#, "site.json: id: not valid JSON: '\\q' is not an escape (use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX) (line 1, column 9)"),
        (#"{"id": "\u0000"}"#, "site.json: id: \\u0000 (a NUL character) is not allowed in a template (line 1, column 15)"),
        (#"{} {}"#, "site.json: not valid JSON: '{' after the end of the JSON value (an extra '}' or ']', or a missing ',') (line 1, column 4)"),
        ("", "site.json: not valid JSON: the file is empty (line 1, column 1)"),
        ("  \n ", "site.json: not valid JSON: the file is empty (line 2, column 2)"),
    ])
    func errors(json: String, message: String) {
        #expect(Self.message(Array(json.utf8)) == message)
    }

    @Test("invalid UTF-8 names the byte, the value and the column counted in characters")
    func invalidUTF8() {
        let bytes = Array(#"{"version": 1, "id": "x", "blocks": [{"lines": ["é"#.utf8) + [0xFF, 0xFE]
            + Array(#""]}]}"#.utf8)
        #expect(Self.message(bytes)
            == "site.json: blocks[0].lines[0]: not valid JSON: invalid UTF-8 (byte 0xFF); save the file as UTF-8 (line 1, column 51)")
        // Overlong forms, encoded surrogates and a truncated sequence are refused too.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let json = Array(#"{"id": ""#.utf8) + bad + Array(#""}"#.utf8)
            #expect(Self.message(json)?.contains("invalid UTF-8 (byte 0x") == true, "\(bad)")
        }
        // Outside a string.
        #expect(Self.message([0x7B, 0xFF, 0x7D]) == "site.json: not valid JSON: expected a key in double quotes, "
            + "found byte 0xFF (not UTF-8; save the file as UTF-8) (line 1, column 2)")
    }

    @Test("a byte-order mark, escapes, surrogate pairs and exponents are read")
    func accepted() throws {
        let json = [0xEF, 0xBB, 0xBF] + Array(#"""
        {"version": 1.0e0, "id": "x", "name": "caf\u00e9 \ud83d\ude00 \"q\" \/ \\",
         "order": -2E+1, "blocks": [{"lines": ["a\tb", "{{x}}"]}]}
        """#.utf8)
        let template = try Template(json: json, file: "site.json", folder: "/t")
        #expect(template.name == "café 😀 \"q\" / \\")
        #expect(template.order == -20)
        #expect(template.blocks[0].lines.map(\.text) == ["a\tb", "{{x}}"])
    }
}
