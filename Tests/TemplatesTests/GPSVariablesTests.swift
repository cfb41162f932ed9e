import Templates
import Testing
import Values

/// How the GPS and place variables print.
struct GPSVariablesTests {
    static func render(_ text: String, _ fields: Fields) throws -> String? {
        try TextTemplate(text).render(fields, escape: { $0 })
    }

    static var fix: Fields {
        var fields = Fields(latitude: 60.1467, longitude: 24.9068, altitude: 12.4)
        fields.accuracy = 7.6
        fields.heading = 56
        fields.speed = 1.2
        fields.satellites = 9
        fields.gpsTime = Timestamp(iso8601: "2026-11-29T06:03:12Z")
        fields.site = "Quay"
        fields.address = "1 Quai Branly"
        fields.place = "Helsinki, Uusimaa, FI"
        return fields
    }

    @Test("each variable of a fix", arguments: [
        ("{alt}", "12 m"), ("{altitude}", "12 m"), ("{accuracy}", "±8 m"), ("{heading}", "56° NE"), ("{speed}", "4.3 km/h"),
        ("{satellites}", "9"), ("{gps_time}", "2026-11-29 06:03:12 UTC"), ("{gps_time:%H:%M}", "06:03"),
        ("{site}", "Quay"), ("{address}", "1 Quai Branly"), ("{place}", "Helsinki, Uusimaa, FI"), ("{location|site}", "Quay"),
    ])
    func values(_ text: String, _ expected: String) throws {
        #expect(try Self.render(text, Self.fix) == expected)
    }

    @Test("the compass point is in the stamp's language (German: Südost is SO)")
    func compassInLanguage() throws {
        let german = ["N": "N", "NE": "NO", "E": "O", "SE": "SO", "S": "S", "SW": "SW", "W": "W", "NW": "NW"]
        var fields = Self.fix
        fields.words = StampWords.translated { word, context in context == "compass point" ? german[word] ?? word : word }
        fields.heading = 135
        #expect(try Self.render("{heading}", fields) == "135° SO")
        fields.heading = 80
        #expect(try Self.render("{heading}", fields) == "80° O")
    }

    @Test("a line of GPS variables without a fix is left out; nonsense values print nothing")
    func empty() throws {
        #expect(try Self.render("Heading {heading}", Fields()) == nil)
        var wild = Fields()
        wild.heading = .nan
        wild.speed = -1
        wild.accuracy = .infinity
        #expect(try Self.render("{heading}{speed}{accuracy}", wild) == nil)
    }

    @Test("a fix's details go with its position when fields are merged; site and place fill in")
    func merged() {
        var own = Self.fix
        own.site = nil
        var given = Fields(latitude: 1, longitude: 2)
        given.site = "Given"
        let merged = given.filled(from: own)
        #expect(merged.latitude == 1 && merged.heading == nil && merged.accuracy == nil, "the given position has no heading")
        #expect(merged.site == "Given" && merged.place == "Helsinki, Uusimaa, FI")
        let fromFix = Fields().filled(from: Self.fix)
        #expect(fromFix.heading == 56 && fromFix.satellites == 9 && fromFix.gpsTime != nil)
    }

    @Test("{gps_time:FORMAT} is checked like the other times")
    func formatChecked() {
        #expect(TextTemplate.problems(in: "{gps_time:%Q}", variables: []).count == 1)
        #expect(TextTemplate.problems(in: "{heading:deg}", variables: []).map(\.description) == ["'{heading:deg}': heading takes no format"])
        #expect(TextTemplate.problems(in: "{site} {place} {alt}", variables: []).isEmpty)
    }
}
