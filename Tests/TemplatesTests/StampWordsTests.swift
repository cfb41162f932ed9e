import Templates
import Testing
import Values

/// Labels by key, long dates and month names in the words a stamp is given.
struct StampWordsTests {
    static let time = Timestamp(iso8601: "2026-11-05T09:03:12+08:00")

    /// Words as a catalogue would give them: a few German ones, the rest left English.
    static let german = StampWords.translated { word, context in
        let table = ["label\u{4}User": "Benutzer", "label\u{4}Note": "Notiz", "month\u{4}November": "November",
                     "weekday\u{4}Thursday": "Donnerstag", "weekday abbreviation\u{4}Thu": "Do.",
                     "date format\u{4}%-d %B %Y": "%-d. %B %Y", "time mark\u{4}file time": "Dateizeit"]
        return table[context + "\u{4}" + word] ?? word
    }

    static func render(_ text: String, _ fields: Fields) throws -> String? {
        try TextTemplate(text).render(fields, escape: { $0 })
    }

    @Test("{label:KEY} is the label in the stamp's words; English by default")
    func labels() throws {
        var fields = Fields(user: "Li Wei")
        #expect(try Self.render("{label:user}\t{user}", fields) == "User\tLi Wei")
        fields.words = Self.german
        #expect(try Self.render("{label:user}\t{user}", fields) == "Benutzer\tLi Wei")
        // A word the catalogue lacks stays English, that word only.
        #expect(try Self.render("{label:project} / {label:note}", fields) == "Project / Notiz")
    }

    @Test("a label is the template's text: a line of a label and an empty value disappears")
    func labelLineDisappears() throws {
        #expect(try Self.render("{label:note}\t{note}", Fields(user: "Li Wei")) == nil)
        #expect(try Self.render("{label:note}", Fields()) == "Note")
        #expect(try TextTemplate("{label:note}\t{note}").shownNames(Fields(note: "x")) == ["note"])
    }

    @Test("an unknown label key or a label without one is an error naming the keys")
    func badLabels() {
        #expect(throws: TextTemplate.ParseError.self) { try TextTemplate("{label:usr}") }
        #expect(throws: TextTemplate.ParseError.self) { try TextTemplate("{label}") }
        #expect(TextTemplate.problems(in: "{label:usr}", variables: []).first?.description.contains("user, by, inspector") == true)
    }

    @Test("{date:long} and %B, %A, %a in the stamp's words; %-d without the leading zero")
    func dates() throws {
        var fields = Fields(time: Self.time)
        #expect(try Self.render("{date:long}", fields) == "5 November 2026")
        #expect(try Self.render("{date:%a %A %e %d %-d %-m %-H}", fields) == "Thu Thursday  5 05 5 11 9")
        fields.words = Self.german
        #expect(try Self.render("{date:long}", fields) == "5. November 2026")
        #expect(try Self.render("{date:%a %A}", fields) == "Do. Donnerstag")
        // ISO stays the default.
        #expect(try Self.render("{datetime}", fields) == "2026-11-05 09:03")
        #expect(throws: TextTemplate.ParseError.self) { try TextTemplate("{date:%-}") }
    }

    @Test("a date form that is not a time format stays English")
    func badDateForm() {
        let words = StampWords.translated { word, context in context == "date format" ? "%Q" : word }
        #expect(words.longDate == StampWords.english.longDate)
    }

    @Test("the built-in time marks in the stamp's words; a template's own mark as written")
    func timeMarks() {
        var fields = Fields(time: Self.time, timeSource: Fields.fileTimeSource)
        fields.words = Self.german
        #expect(fields.timeMark(.standard) == "Dateizeit")
        #expect(fields.timeMark(TimeStyle(fileTimeMark: "mtime")) == "mtime")
    }
}
