import Foundation
import Testing
import TestSupport
import Imaging
import Templates
import Values
@testable import Watermark

/// A style never cuts the time; long lines wrap or the block stacks; a field that still cannot fit
/// is named in a warning. Judged on Pango's own layout of each line (line count, ellipsized).
@Suite struct StampFitTests {
    static let sizes = [(600, 900), (3000, 4000), (900, 600)]
    static let timeNames: Set = ["date", "time", "datetime", "tz"]

    /// A file time (the longest time line: "(file time)" after it), a long note and place.
    static var fields: Fields {
        var fields = Fixture.fields
        fields.timeSource = Fields.fileTimeSource
        fields.note = "Bridge 7 — Pier 4 formwork checked before the pour, north face"
        fields.location = "Pier 4, Nanjing Yangtze River Bridge approach viaduct, Pukou District"
        return fields
    }

    /// The stamped photo under .build, to look at.
    static func keep(_ photo: Photo, _ name: String) {
        let folder = TestFiles.packageRoot + "/.build/stamp-fit"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        photo.bitmap.writePNG(to: "\(folder)/\(name).png")
    }

    @Test("no built-in style cuts the time or a long note and place, portrait or landscape", arguments: Fixture.builtInIDs)
    func timeWhole(id: String) throws {
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        for (width, height) in Self.sizes {
            var photo = try Fixture.card(width: width, height: height)
            let report = try watermarker.stamp(&photo, template: try Fixture.template(id), fields: Self.fields)
            Self.keep(photo, "\(id)-\(width)x\(height)")
            let timeLines = report.lines.filter { !Self.timeNames.isDisjoint(with: $0.fields) }
            #expect(!timeLines.isEmpty, "\(id) \(width)x\(height)")
            #expect(timeLines.allSatisfy { !$0.cut }, "\(id) \(width)x\(height): \(timeLines)")
            #expect(report.cutFields.isEmpty, "\(id) \(width)x\(height): \(report.cutFields)")
            #expect(!report.warnings.contains { $0.contains("does not fit") }, "\(id) \(width)x\(height)")
        }
    }

    @Test("the banner on a portrait photo stacks its time under the note, which wraps")
    func bannerPortrait() throws {
        var fields = Self.fields
        fields.note = "Bridge 7 — Pier 4 formwork checked before the pour, north face and the east bearing"
        var photo = try Fixture.card(width: 600, height: 900)
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template("banner"),
                                                                           fields: fields)
        Self.keep(photo, "banner-wrapped-note")
        let note = try #require(report.lines.first { $0.fields == ["note"] })
        #expect(note.lineCount >= 2 && !note.cut)
        let time = try #require(report.lines.first { $0.fields.contains("datetime") })
        #expect(time.lineCount == 1 && !time.cut)
        // Stacked: the time's line is drawn below the note's, not beside it.
        let rects = report.textRects
        let noteIndex = try #require(report.lines.firstIndex { $0.fields == ["note"] })
        let timeIndex = try #require(report.lines.firstIndex { $0.fields.contains("datetime") })
        #expect(rects[timeIndex].y > rects[noteIndex].y)
    }

    @Test("a field that cannot fit even wrapped is named in a warning")
    func cutNamed() throws {
        var fields = Self.fields
        fields.note = String(repeating: "formwork checked ", count: 11)  // 187 characters
        var photo = try Fixture.card(width: 600, height: 900)
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template("banner"),
                                                                           fields: fields)
        Self.keep(photo, "banner-cut-note")
        #expect(report.cutFields == ["note"])
        #expect(report.warnings.contains(
            "note does not fit in the style 'banner' on this photo and is cut with \"…\" (shorten it, or choose a style with more room)"))
        let time = try #require(report.lines.first { $0.fields.contains("datetime") })
        #expect(!time.cut)
    }
}
