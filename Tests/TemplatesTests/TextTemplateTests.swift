import Testing
import Templates
import Values

@Suite struct TextTemplateTests {
    static let fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "EXIF", user: "Ana",
                               project: "Bridge 7", location: nil, note: "", latitude: 48.8925, longitude: -2.35,
                               altitude: 35.4, camera: "Canon EOS 1000D", filename: "IMG_1.jpg", sequence: 7,
                               extra: ["crew": "B"])

    /// Renders without markup escaping (escaping has its own test).
    static func render(_ text: String, _ fields: Fields = fields) throws -> String? {
        try TextTemplate(text).render(fields) { $0 }
    }

    @Test("variables and formats", arguments: [
        ("{date} {time}", "2026-11-29 14:03"),
        ("{datetime}", "2026-11-29 14:03"),
        ("{datetime:%d.%m.%y %H:%M} {tz}", "29.11.26 14:03 +08:00"),
        ("{date:%A, %e %B %Y (%a %b) day %j}", "Sunday, 29 November 2026 (Sun Nov) day 333"),
        ("{time:%I:%M %p %z}", "02:03 PM +0800"),
        ("{time:%F %T %R %%}", "2026-11-29 14:03:12 14:03 %"),
        ("{lat} {lon}", "48.89250 -2.35000"),
        ("{coords}", "48.89250° N, 2.35000° W"),
        ("{coords:dms}", "48°53'33.0\"N 2°21'00.0\"W"),
        ("{lat:dms}", "48°53'33.0\"N"),
        ("{altitude}", "35 m"),
        ("#{seq} #{seq:04}", "#7 #0007"),
        ("{camera} / {filename} / {time_source}", "Canon EOS 1000D / IMG_1.jpg / EXIF"),
        ("crew {crew}", "crew B"),
        ("{location|coords}", "48.89250° N, 2.35000° W"),
        ("{user|coords}", "Ana"),
        ("{{literal}} {user}", "{literal} Ana"),
    ])
    func renders(text: String, expected: String) throws {
        #expect(try Self.render(text) == expected)
    }

    @Test("a line whose variables are all empty is dropped; static text stays")
    func emptyLines() throws {
        #expect(try Self.render("User: {user}", Fields()) == nil)
        #expect(try Self.render("Note: {note}") == nil)  // empty string counts as empty
        #expect(try Self.render("{user} {location}") == "Ana ")
        #expect(try Self.render("Photo log", Fields()) == "Photo log")
        #expect(try Self.render("{unknown_key}") == nil)
    }

    @Test("values are escaped for markup; the template's own markup is kept")
    func escaping() throws {
        var fields = Self.fields
        fields.user = "<b>&\"x'</b>"
        #expect(try TextTemplate("<i>User</i> {user}").render(fields) == "<i>User</i> &lt;b&gt;&amp;&quot;x&#39;&lt;/b&gt;")
    }

    @Test("control characters in values cannot break a line in two: they become one space")
    func controlCharacters() throws {
        var fields = Self.fields
        fields.user = "Ana\nSmith\t"
        #expect(try Self.render("{user}", fields) == "Ana Smith")
        fields.user = "line1\r\nline2\u{2028}line3\u{85}end\u{7F}"
        #expect(try Self.render("{user}", fields) == "line1 line2 line3 end")
    }

    @Test("malformed placeholders are errors", arguments: [
        ("{user", "unclosed '{' in \"{user\""),
        ("user}", "unmatched '}' in \"user}\" (write '}}' for a brace)"),
        ("{}", "'{}' is not a variable name"),
        ("{us er}", "'{us er}' is not a variable name"),
        ("{datetime:%Q}", "'%Q' is not a time format directive"),
        ("{time:%H%}", "a time format ends with a lone '%'"),
        ("{coords:utm}", "'{coords:utm}': format must be decimal or dms"),
        ("{user:upper}", "'{user:upper}': user takes no format"),
        ("{seq:x}", "'{seq:x}': format must be a width such as 04"),
    ])
    func errors(text: String, message: String) {
        #expect(throws: TextTemplate.ParseError(description: message)) { try TextTemplate(text) }
    }
}
