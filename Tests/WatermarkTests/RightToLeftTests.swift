import Testing
import TestSupport
import Imaging
import Templates
import Values
@testable import Watermark

/// A stamp in a right-to-left language (Arabic, Hebrew): every line runs right to left and starts on
/// the right, labels and values in mirrored columns, values in their own direction, never hyphenated.
@Suite struct RightToLeftTests {
    static func layout(_ markup: String, rightToLeft: Bool, width: Double? = nil, maxLines: Int? = 1,
                       overflow: Template.Overflow = .ellipsis) throws -> TextLayout {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let layout = TextLayout(context: watermarker.text.context, markup: markup, font: Template.Font(), pixelSize: 20,
                                align: .left, overflow: overflow, maxLines: maxLines, rightToLeft: rightToLeft)
        if let width { layout.constrain(width: width) }
        return layout
    }

    static var arabic: Fields {
        get throws {
            var fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+02:00"), timeSource: "EXIF",
                                user: "أحمد الخطيب", project: "مشروع الجسر ٧", location: "Tyynenmerenkatu 7, Helsinki",
                                note: "الجدار الشمالي متصدع بالقرب من النافذة")
            fields.code = "K7MN-4XRT-9P"
            fields.words = StampWords.translated(try Catalogue.translator("ar"))
            return fields
        }
    }

    @Test("in an Arabic stamp every line runs right to left, one that starts with a date too; elsewhere left to right")
    func lineDirection() throws {
        #expect(try Self.layout("المستخدم\tLi Wei", rightToLeft: true).isRightToLeft)
        #expect(try Self.layout("2026-11-29 14:03 +08:00", rightToLeft: true).isRightToLeft)
        // Elsewhere a line keeps the template's direction whatever script its values are in.
        #expect(try !Self.layout("المستخدم\tLi Wei", rightToLeft: false).isRightToLeft)
        #expect(try !Self.layout("2026-11-29 14:03 +08:00", rightToLeft: false).isRightToLeft)
    }

    @Test("wrapped text breaks between words only, in any script, and adds no hyphen", arguments: [
        "Tyynenmerenkatu Mannerheimintie Pohjoisesplanadi Aleksanterinkatu",
        "أحمد الخطيب الجدار الشمالي متصدع بالقرب من النافذة",
        "Мостостроительная организация северного района",
    ])
    func wrapsAtWords(text: String) throws {
        for rightToLeft in [false, true] {
            let layout = try Self.layout(Markup.escape(text), rightToLeft: rightToLeft, width: 230, maxLines: 6, overflow: .wrap)
            let (laidOut, starts) = layout.wrapping
            #expect(starts.count > 1)
            for (line, start) in starts.enumerated().dropFirst() {
                // A line starts after a space: the one before it ended at a word's end.
                #expect(start > 0 && laidOut[start - 1] == UInt8(ascii: " "), "line \(line) of '\(text)' starts inside a word")
            }
            #expect(!layout.isEllipsized)
        }
    }

    @Test("a word longer than the line is not broken: the text is one line ending in …")
    func longWordIsCut() throws {
        let layout = try Self.layout("Pohjoisesplanadinkatuyhdistelmärakennus", rightToLeft: false, width: 120, maxLines: 3,
                                     overflow: .wrap)
        #expect(layout.lineCount == 1)
        #expect(layout.isEllipsized)
        #expect(layout.size.width <= 121)
    }

    /// The inked columns of `color` in `photo`: (min x, max x), or nil where there is none.
    static func inkSpan(_ photo: Photo, where matches: (UInt8, UInt8, UInt8) -> Bool) -> (Int, Int)? {
        var low = Int.max, high = Int.min
        for y in 0..<photo.bitmap.height {
            for x in 0..<photo.bitmap.width {
                let p = photo.bitmap.rgb(x: x, y: y)
                if matches(p.red, p.green, p.blue) { low = min(low, x); high = max(high, x) }
            }
        }
        return low <= high ? (low, high) : nil
    }

    @Test("an Arabic stamp puts the label on the right with its value just left of it; in English the other way")
    func labelOnTheRight() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        // The label in red, the value in white, so each one's ink can be found.
        let json = ##"{"version": 1, "id": "t", "blocks": [{"anchor": "bottom-left", "font": {"size": 0.08}, "color": "#ffffff", "##
            + ##""maxWidth": 0.9, "lines": ["<span foreground=\"#ff0000\">{label:user}</span>\t{user}"]}]}"##
        let template = try Template(json: Array(json.utf8), file: "t", folder: ".")
        func spans(_ fields: Fields) throws -> (label: (Int, Int), value: (Int, Int)) {
            var photo = Photo(bitmap: try #require(Bitmap(width: 800, height: 400)))
            _ = try watermarker.stamp(&photo, template: template, fields: fields)
            let red = try #require(Self.inkSpan(photo) { r, g, _ in r > 160 && g < 90 })
            let white = try #require(Self.inkSpan(photo) { r, g, b in r > 160 && g > 160 && b > 160 })
            return (red, white)
        }
        var arabic = Fields(user: "Li Wei")
        arabic.words = StampWords.translated(try Catalogue.translator("ar"))
        #expect(arabic.words.rightToLeft)
        let english = try spans(Fields(user: "Li Wei")), inArabic = try spans(arabic)
        #expect(english.label.1 < english.value.0, "English: \(english)")
        #expect(inArabic.value.1 < inArabic.label.0, "Arabic: \(inArabic)")
        // The value sits in the column next to the label, not at the far side of the box.
        let fontSize = 0.08 * 400
        #expect(Double(inArabic.label.0 - inArabic.value.1) < 1.5 * fontSize, "Arabic: \(inArabic)")
    }

    @Test("in Arabic every line of a style starts at the box's right edge", arguments: ["geo", "classic", "site-report", "banner"])
    func linesStartOnTheRight(id: String) throws {
        var photo = try Fixture.card(width: 960, height: 540)
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template(id),
                                                                           fields: try Self.arabic)
        let box = try #require(report.boxes.first)
        let rights = report.textRects.filter { $0.width > 0 }.map { $0.x + $0.width }
        let right = try #require(rights.max())
        // Each line's ink ends within a few pixels of the rightmost (a glyph's side bearing), far from the left.
        for lineRight in rights where lineRight > box.x + box.width / 2 || id != "banner" {
            #expect(right - lineRight < 6, "\(id): a line ends at \(lineRight), the rightmost at \(right)")
        }
    }

    @Test("a portrait site report in Arabic keeps every value readable: none one letter a line, none outside the card")
    func portraitSiteReport() throws {
        var photo = try Fixture.card(width: 540, height: 960)
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template("site-report"),
                                                                           fields: try Self.arabic)
        let box = try #require(report.boxes.first)
        for rect in report.textRects where rect.width > 0 {
            #expect(rect.x >= box.x - 1 && rect.x + rect.width <= box.x + box.width + 1, "\(rect) is outside the card \(box)")
        }
        let time = try #require(report.lines.first { $0.fields.contains("datetime") })
        #expect(time.lineCount <= 3)
        #expect(report.cutFields.isEmpty, "cut: \(report.cutFields)")
    }
}
