import Testing
import TestSupport
import Imaging
import Templates
import Watermark

@Suite struct FieldLimitTests {
    static func inside(_ box: (x: Double, y: Double, width: Double, height: Double), width: Double, height: Double) -> Bool {
        box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height
    }

    @Test("a 2000-character value keeps every block on the photo, the date included", arguments: Fixture.builtInIDs)
    func longValues(id: String) throws {
        var fields = Fixture.fields
        let long = String(repeating: "Northern bridge deck, pier four ", count: 63)  // 2016 characters
        (fields.user, fields.project, fields.location, fields.note) = (long, long, long, long)
        var photo = try Fixture.card()
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template(id),
                                                                           fields: fields)
        for box in report.boxes { #expect(Self.inside(box, width: 480, height: 270), "\(id): \(box)") }
        #expect(report.truncations.map(\.name) == ["user", "project", "location", "note"])
        #expect(report.truncations.allSatisfy { $0.length == 2016 && $0.shown == Fields.maxValueLength })
        #expect(report.warnings.contains("project: 2016 characters, cut to the first 199 and \"…\""))
    }

    @Test("a value that does not wrap (one 60 KB word) is cut and drawn on the photo")
    func unbrokenValue() throws {
        // Before the limits this took 27 s (classic) and 36 s (site-report) on a 1024×768 photo in a
        // debug build, the box starting 100,000 pixels above the photo; now 0.02 s.
        var fields = Fixture.fields
        fields.project = String(repeating: "x", count: 60_000)
        for id in ["classic", "site-report"] {
            var photo = try Fixture.card(width: 1024, height: 768)
            let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template(id),
                                                                               fields: fields)
            let box = try #require(report.boxes.first)
            #expect(Self.inside(box, width: 1024, height: 768), "\(id): \(box)")
            #expect(report.truncations == [Fields.Truncation(name: "project", length: 60_000, shown: 200)])
        }
    }

    @Test("a wrapping line takes at most three lines, then ends in '…'")
    func wrappedLines() throws {
        var template = try Fixture.template("classic")
        template.blocks[0].lines = [Template.Line(text: "{note}")]
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        func height(_ note: String) throws -> Double {
            try #require(try watermarker.stampCard(template: template, fields: Fields(note: note)).boxes.first).height
        }
        let one = try height("short"), words = String(repeating: "word ", count: 40)
        let three = try height(words)
        #expect(three > one + 15)  // two more lines of text
        #expect(try height(words + words) == three)
    }

    @Test("a block still taller than the photo shows each line once, then keeps its top on the photo")
    func tallBlock() throws {
        var template = try Fixture.template("classic")
        template.blocks[0].lines = Array(repeating: Template.Line(text: "{note}", font: Template.Font(size: 0.06)), count: 6)
        let fields = Fields(note: String(repeating: "word ", count: 30))
        let box = try #require(try Watermarker(fontConfig: Fixture.fontConfig).stampCard(template: template, fields: fields)
            .boxes.first)
        #expect(box.y >= 0)
        #expect(box.height < 270)  // six lines of one line each; three each would be 18
    }

    @Test("a newline in a value is drawn as a space, not as nothing")
    func newlines() throws {
        var template = try Fixture.template("classic")
        template.blocks[0].lines = [Template.Line(text: "{note}")]
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        func width(_ note: String) throws -> Double {
            try #require(try watermarker.stampCard(template: template, fields: Fields(note: note)).boxes.first).width
        }
        #expect(try width("line1\nline2") == width("line1 line2"))
        #expect(try width("line1\nline2") > width("line1line2"))
    }
}
