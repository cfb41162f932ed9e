import Foundation
import Imaging
import Templates
import Testing
import TestSupport
@testable import Watermark

/// What a professional checks on a stamp: every value where it belongs, columns straight, text
/// readable on any photo, every script printed.
@Suite struct StampQualityTests {
    /// A new one each time: a watermarker holds fonts and is not shared between threads.
    static var watermarker: Watermarker { get throws { try Watermarker(fontConfig: Fixture.fontConfig) } }

    /// The shapes of a stamp's text (white on black), and where each line went.
    static func shapes(_ template: Template, fields: Fields, width: Int = 960, height: Int = 540) throws
        -> (bitmap: Bitmap, lines: [(x: Double, y: Double, width: Double, height: Double)]) {
        var photo = Photo(bitmap: try #require(Bitmap(width: width, height: height)))
        let report = try watermarker.stamp(&photo, template: template, fields: fields, mode: .textMask)
        return (photo.bitmap, report.textRects)
    }

    /// Columns with ink in a row band, left to right.
    static func inkedColumns(_ bitmap: Bitmap, rows: Range<Int>, columns: Range<Int>) -> [Int] {
        columns.filter { x in rows.contains { y in bitmap.rgb(x: x, y: y).red > 100 } }
    }

    /// Where the last run of ink in a row band starts (a one-letter value after its label).
    static func lastRunStart(_ bitmap: Bitmap, rows: Range<Int>, columns: Range<Int>) -> Int? {
        let inked = inkedColumns(bitmap, rows: rows, columns: columns)
        guard var start = inked.last else { return nil }
        for x in inked.reversed() where x >= start - 3 { start = x }
        return start
    }

    static func rows(_ rect: (x: Double, y: Double, width: Double, height: Double)) -> Range<Int> {
        Int(rect.y)..<Int(rect.y + rect.height)
    }

    @Test("the sRGB → linear table agrees with the formula everywhere, blended values and the ends included")
    func linearTable() {
        var worst = 0.0
        for step in 0...25_500 {
            let value = Double(step) / 100
            worst = max(worst, abs(Legibility.linear(value) - Legibility.exactLinear(value)))
        }
        #expect(worst < 1e-6, "worst difference \(worst)")
        #expect(Legibility.linear(255) == 1 && Legibility.linear(0) == 0)
        #expect(abs(Legibility.linear(128) - 0.2158605) < 1e-6)  // WCAG's formula, worked by hand
    }

    @Test("white text reads over a backdrop with up to 1% white pixels, not one more (the search stops at the first too many)")
    func toleratedShare() {
        // 1000 black pixels behind white text read; white ones under it do not.
        func backdrop(white: Int) -> [Legibility.Sample] {
            [Legibility.Sample(color: .white, backdrop: Array(repeating: (255.0, 255.0, 255.0), count: white)
                + Array(repeating: (0.0, 0.0, 0.0), count: 1000 - white))]
        }
        #expect(Legibility.isLegible(backdrop(white: 10), cover: .black, opacity: 0))
        #expect(!Legibility.isLegible(backdrop(white: 11), cover: .black, opacity: 0))
        // A cover dark enough brings the white pixels down to where the text reads over them.
        #expect(Legibility.isLegible(backdrop(white: 11), cover: .black, opacity: 0.95))
    }

    @Test("labelled values (User, Location, Project, Note …) start at one x", arguments: ["classic", "site-report"])
    func valueColumn(id: String) throws {
        // No time: the lines left are the labelled ones (site-report's project is in its title).
        let fields = Fields(user: "X", project: "X", location: "X", note: "X")
        let (bitmap, lines) = try Self.shapes(try Fixture.template(id), fields: fields)
        let starts = lines.compactMap { Self.lastRunStart(bitmap, rows: Self.rows($0), columns: 0..<960) }
        #expect(starts.count == (id == "classic" ? 4 : 3))
        #expect(starts.max()! - starts.min()! <= 1, "value columns: \(starts)")
    }

    @Test("a wrapped value stays in its column: its second line starts under the value, not the label")
    func hangingIndent() throws {
        var fields = Fixture.fields
        fields.note = String(repeating: "north wall crack ", count: 8)
        fields.code = nil  // site-report's code line would come after the note
        for id in ["classic", "site-report"] {
            let (bitmap, lines) = try Self.shapes(try Fixture.template(id), fields: fields)
            let note = try #require(lines.last)  // the Note line, wrapped
            #expect(note.height > lines[lines.count - 2].height * 1.6, "\(id): the note wraps")
            let firstLine = Int(note.y)..<Int(note.y) + 14, lastLine = Int(note.y + note.height) - 12..<Int(note.y + note.height)
            let label = try #require(Self.inkedColumns(bitmap, rows: firstLine, columns: 0..<960).first)
            let wrapped = try #require(Self.inkedColumns(bitmap, rows: lastLine, columns: 0..<960).first)
            #expect(wrapped > label + 40, "\(id): wrapped text starts at \(wrapped), the label at \(label)")
        }
    }

    @Test("site-report: a long project wraps to two title lines, then ends in …")
    func titleWraps() throws {
        var long = Fixture.fields
        long.project = String(repeating: "Northern bridge deck ", count: 10)
        let template = try Fixture.template("site-report")
        let short = try #require(try Self.watermarker.stampCard(template: template, fields: Fixture.fields).boxes.first)
        let wrapped = try #require(try Self.watermarker.stampCard(template: template, fields: long).boxes.first)
        let titleLine = 0.034 * 270
        #expect(wrapped.height > short.height + titleLine, "a second title line")
        #expect(wrapped.height < short.height + 2.5 * titleLine, "not a third")
        #expect(wrapped.width <= 480 * 0.62 + 1)
    }

    @Test("big-clock: the clock's digits start where the lines under it start")
    func clockAligned() throws {
        let (bitmap, lines) = try Self.shapes(try Fixture.template("big-clock"), fields: Fixture.fields)
        let clock = try #require(Self.inkedColumns(bitmap, rows: Self.rows(lines[0]), columns: 0..<960).first)
        let date = try #require(Self.inkedColumns(bitmap, rows: Self.rows(lines[1]), columns: 0..<960).first)
        #expect(abs(clock - date) <= 2, "clock ink at \(clock), date at \(date)")
    }

    @Test("right-to-left values keep their line's place: a Hebrew project stays left in banner, a Hebrew user in big-clock")
    func rightToLeft() throws {
        var fields = Fixture.fields
        fields.project = "גשר הצפון 7"
        fields.user = "אברהם כהן"
        let (banner, bannerLines) = try Self.shapes(try Fixture.template("banner"), fields: fields)
        let project = bannerLines[0]
        let projectStart = try #require(Self.inkedColumns(banner, rows: Self.rows(project), columns: 0..<960).first)
        #expect(projectStart < 40, "the project starts at \(projectStart)")
        let time = try #require(bannerLines.first { $0.x > 480 })
        #expect(project.x + project.width < time.x, "the project does not run into the time")
        let (clock, clockLines) = try Self.shapes(try Fixture.template("big-clock"), fields: fields)
        let userLine = clockLines[3]
        let userStart = try #require(Self.inkedColumns(clock, rows: Self.rows(userLine), columns: 0..<960).first)
        let dateStart = try #require(Self.inkedColumns(clock, rows: Self.rows(clockLines[1]), columns: 0..<960).first)
        #expect(abs(userStart - dateStart) <= 3, "user at \(userStart), date at \(dateStart)")
    }

    @Test("Hindi, Thai, Korean (bold too), Chinese and Hebrew print with real glyphs", arguments: Fixture.builtInIDs)
    func scripts(id: String) throws {
        var fields = Fixture.fields
        fields.project = "परियोजना सेतु 7"
        fields.user = "สมชาย ใจดี"
        fields.location = "서울 강남구 김민준"
        fields.note = "北桥 北橋 גשר"
        let report = try Self.watermarker.stampCard(template: try Fixture.template(id), fields: fields)
        #expect(report.missingCharacters.isEmpty, "\(report.missingCharacters)")
        var bold = try Fixture.template(id)
        for index in bold.blocks[0].lines.indices { bold.blocks[0].lines[index].font.weight = .bold }
        #expect(try Self.watermarker.stampCard(template: bold, fields: fields).unknownGlyphs == 0)
    }

    @Test("a file time ('(file time)') and a time set by hand ('(set by hand)') are marked once, in the smallest line that shows the time; other times are not",
          arguments: [Fields.fileTimeSource, Fields.givenTimeSource])
    func timeMark(source: String) throws {
        for id in Fixture.builtInIDs {
            let template = try Fixture.template(id)
            var marked = Fixture.fields
            marked.timeSource = source
            let shapes = try Self.shapes(template, fields: marked), plain = try Self.shapes(template, fields: Fixture.fields)
            let widths = zip(shapes.lines, plain.lines).map { $0.width - $1.width }
            #expect(widths.filter { $0 > 20 }.count == 1, "\(id): \(widths)")
            #expect(widths.allSatisfy { $0 >= -1 })
        }
    }

    @Test("the marks' words; a style may turn the file time's mark off")
    func timeMarkWords() throws {
        #expect(Fields(time: Fixture.fields.time, timeSource: Fields.givenTimeSource).timeMark(.standard) == "set by hand")
        #expect(Fields(time: Fixture.fields.time, timeSource: "command line").timeMark(.standard) == nil)
        var quiet = try Fixture.template("classic")
        quiet.timeStyle.fileTimeMark = nil
        var fileTime = Fixture.fields
        fileTime.timeSource = Fields.fileTimeSource
        #expect(try Self.shapes(quiet, fields: fileTime).lines.map(\.width) == (try Self.shapes(quiet, fields: Fixture.fields).lines.map(\.width)))
    }

    @Test("a line that says where its time came from ('{time_source}': file time) is not marked '(file time)' again")
    func timeMarkNotRepeated() throws {
        var saysSource = try Fixture.template("classic")
        saysSource.blocks[0].lines[0].text = "{datetime} {time_source}"
        var literal = saysSource
        literal.blocks[0].lines[0].text = "{datetime} file time"
        var fileTime = Fixture.fields
        fileTime.timeSource = Fields.fileTimeSource
        var camera = Fixture.fields
        camera.timeSource = "camera clock"
        let marked = try Self.shapes(saysSource, fields: fileTime).lines[0].width
        #expect(abs(marked - (try Self.shapes(literal, fields: camera).lines[0].width)) < 1)
    }

    @Test("the styles that show a location show a site's address; banner and site-report show the site's name too",
          arguments: ["classic", "banner", "site-report", "big-clock", "geo"])
    func siteShown(id: String) throws {
        let template = try Fixture.template(id)
        var site = Fixture.fields
        site.address = "Via Roma 1"
        let plain = try Self.shapes(template, fields: Fixture.fields).lines.count
        #expect(try Self.shapes(template, fields: site).lines.count == plain + 1, "\(id): the address")
        site.site = "Arezzo works"
        if ["banner", "site-report"].contains(id) {
            #expect(try Self.shapes(template, fields: site).lines.count == plain + 2, "\(id): the site's name")
        }
    }

    @Test("every style reads at 4.5:1 on snow, at night and on stripes", arguments: Fixture.builtInIDs)
    func legibleOnHardPhotos(id: String) throws {
        let template = try Fixture.template(id)
        for (name, photo) in LegibilityProbe.hardPhotos() {
            let lines = try LegibilityProbe.lines(photo, template: template, fields: Fixture.fields, watermarker: try Self.watermarker)
            #expect(!lines.isEmpty)
            for line in lines where line.pixels > 0 {
                #expect(line.legible >= 0.9, "\(id) on \(name): \(line)")
            }
        }
    }

    @Test("the probe can fail: white text with no box or backing on snow is measured unreadable")
    func probeCanFail() throws {
        var template = try Fixture.template("minimal")
        template.blocks[0].shadow = nil
        let snow = try #require(LegibilityProbe.hardPhotos().first).photo
        // What an unchecked renderer drew: the text straight on the photo (the probe sees no backing
        // in the render without text, so it compares white with snow).
        var whole = snow
        let report = try Self.watermarker.stamp(&whole, template: template, fields: Fixture.fields, mode: .normal)
        #expect(report.backings == 1, "the renderer added a backing")
        var white = template
        white.blocks[0].lines[0].color = Template.Color(red: 0.93, green: 0.93, blue: 0.93)
        white.blocks[0].box = Template.Box(color: .white, opacity: 0.0, radius: 0, padding: 0)
        let lines = try LegibilityProbe.lines(snow, template: white, fields: Fixture.fields, watermarker: try Self.watermarker)
        // A box (even a transparent one) is trusted up to 0.95 opacity: a white box cannot help white text.
        #expect(lines.allSatisfy { $0.legible < 0.5 }, "\(lines)")
    }
}
