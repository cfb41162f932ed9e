import Testing
import Templates
import Values

@Suite struct TimeStyleTests {
    static let fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), user: "Ana")

    static func render(_ text: String, _ style: TimeStyle = .standard, fields: Fields = fields) throws -> String? {
        try TextTemplate(text).render(fields, style: style)
    }

    @Test("one default: a date, a 24-hour clock without seconds; {tz} the zone")
    func standard() throws {
        #expect(try Self.render("{datetime} {tz}") == "2026-11-29 14:03 +08:00")
        #expect(try Self.render("{date}|{time}") == "2026-11-29|14:03")
        #expect(try Self.render("{time:%H:%M:%S}") == "14:03:12")  // a format of its own wins
    }

    @Test("a template's timeFormat changes the default for every line")
    func perTemplate() throws {
        let template = try Template(json: Array(#"""
            {"version": 1, "id": "t", "timeFormat": {"date": "%d.%m.%Y", "time": "%I:%M %p", "fileTimeMark": "Dateizeit"},
             "blocks": [{"lines": ["{datetime}"]}]}
            """#.utf8), file: "t.json", folder: "/t")
        #expect(template.timeStyle == TimeStyle(date: "%d.%m.%Y", time: "%I:%M %p", fileTimeMark: "Dateizeit"))
        #expect(try Self.render("{datetime}", template.timeStyle) == "29.11.2026 02:03 PM")
        let quiet = try Template(json: Array(#"{"version": 1, "id": "t", "timeFormat": {"fileTimeMark": false}, "blocks": [{"lines": ["a"]}]}"#.utf8),
                                 file: "t.json", folder: "/t")
        #expect(quiet.timeStyle.fileTimeMark == nil && quiet.timeStyle.date == "%Y-%m-%d")
        #expect(throws: TemplateError.self) {
            try Template(json: Array(#"{"version": 1, "id": "t", "timeFormat": {"date": "%Q"}, "blocks": [{"lines": ["a"]}]}"#.utf8),
                         file: "t.json", folder: "/t")
        }
    }

    @Test("a time of unknown zone shows no zone: {tz} is empty, never made up")
    func noZone() throws {
        var fields = Self.fields
        fields.time = Timestamp(exif: "2022:08:14 16:28:00")
        #expect(try Self.render("{datetime} {tz}", fields: fields) == "2022-08-14 16:28 ")
    }

    @Test("only a file time is a file time")
    func fileTime() {
        var fields = Self.fields
        #expect(!fields.timeIsFileTime)
        fields.timeSource = Fields.fileTimeSource
        #expect(fields.timeIsFileTime)
    }

    @Test("which given fields a style shows, and which it does not")
    func shownFields() throws {
        let minimal = try Template(json: Array(#"{"version": 1, "id": "m", "blocks": [{"lines": ["{datetime} {tz}"]}]}"#.utf8),
                                   file: "m.json", folder: "/t")
        let given = Fields(user: "Ana", project: "P", location: "Pier", note: "n", latitude: 1, longitude: 2)
        #expect(minimal.fieldsNotShown(given) == ["user", "project", "location", "note", "gps"])
        #expect(minimal.shownFieldNames == ["time", "zone"])
        #expect(minimal.fieldsNotShown(Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12Z"))).isEmpty)
        let place = try Template(json: Array(#"{"version": 1, "id": "p", "blocks": [{"lines": ["{location|coords}", "{user} {crew}"]}]}"#.utf8),
                                 file: "p.json", folder: "/t")
        #expect(place.fieldsNotShown(given) == ["project", "note"])
        #expect(place.shownFieldNames == ["user", "location", "GPS", "{crew}"])
    }
}
