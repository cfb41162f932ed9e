import Testing
import TestSupport
import Imaging
import Templates
import Values
@testable import Watermark

/// A stamp in a right-to-left language (Arabic): its labelled lines run right to left.
@Suite struct RightToLeftTests {
    static func layout(_ markup: String, rightToLeft: Bool) throws -> TextLayout {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        return TextLayout(context: watermarker.text.context, markup: markup, font: Template.Font(), pixelSize: 20,
                          align: .left, overflow: .ellipsis, rightToLeft: rightToLeft)
    }

    @Test("in Arabic a line that starts with its label runs right to left; a date line left to right")
    func lineDirection() throws {
        #expect(try Self.layout("المستخدم\tLi Wei", rightToLeft: true).isRightToLeft)
        #expect(try !Self.layout("2026-11-29 14:03 +08:00", rightToLeft: true).isRightToLeft)
        // Elsewhere a line keeps the template's direction whatever script its values are in.
        #expect(try !Self.layout("المستخدم\tLi Wei", rightToLeft: false).isRightToLeft)
    }

    @Test("an Arabic stamp draws its label right of its value; the same stamp in English the other way")
    func labelOnTheRight() throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        // The label in red, the value in white, so each one's ink can be found.
        let json = ##"{"version": 1, "id": "t", "blocks": [{"anchor": "bottom-left", "font": {"size": 0.08}, "color": "#ffffff", "##
            + ##""lines": ["<span foreground=\"#ff0000\">{label:user}</span>\t{user}"]}]}"##
        let template = try Template(json: Array(json.utf8), file: "t", folder: ".")
        /// The mean x of the label's (red) and the value's (white) ink.
        func centres(_ fields: Fields) throws -> (label: Double, value: Double) {
            var photo = Photo(bitmap: try #require(Bitmap(width: 800, height: 400)))
            _ = try watermarker.stamp(&photo, template: template, fields: fields)
            var red = (0.0, 0.0), white = (0.0, 0.0)
            for y in 0..<400 {
                for x in 0..<800 {
                    let p = photo.bitmap.rgb(x: x, y: y)
                    if p.red > 160 && p.green < 90 { red = (red.0 + Double(x), red.1 + 1) }
                    if p.red > 160 && p.green > 160 && p.blue > 160 { white = (white.0 + Double(x), white.1 + 1) }
                }
            }
            return (red.0 / max(1, red.1), white.0 / max(1, white.1))
        }
        var arabic = Fields(user: "Li Wei")
        arabic.words = StampWords.translated(try Catalogue.translator("ar"))
        #expect(arabic.words.rightToLeft)
        let english = try centres(Fields(user: "Li Wei")), inArabic = try centres(arabic)
        #expect(english.label < english.value, "English: \(english)")
        #expect(inArabic.label > inArabic.value, "Arabic: \(inArabic)")
    }
}
