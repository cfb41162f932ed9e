import Testing
import TestSupport
import Imaging
import Templates
import Values
import Watermark

/// Shared set-up: fonts from fonts/fonts.conf, templates from templates/.
enum Fixture {
    static let fontConfig = TestFiles.packageRoot + "/fonts/fonts.conf"

    static func template(_ id: String) throws -> Template {
        let folder = TestFiles.packageRoot + "/templates"
        return try Template(json: try TestFiles.bytes("\(folder)/\(id).json"), file: "\(id).json", folder: folder)
    }

    static func card(width: Int = 480, height: Int = 270) throws -> Photo {
        Photo(bitmap: try #require(TestCard.draw(width: width, height: height)))
    }

    static let fields: Fields = {
        var fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), timeSource: "EXIF",
                            user: "Li Wei 李伟", project: "Bridge 7 <north> & pier", location: "Pier 4, Nanjing",
                            note: "crack width 0.3 mm", latitude: 32.0603, longitude: 118.7969, altitude: 12,
                            camera: "Canon EOS 1000D", filename: "IMG_0001.jpg", sequence: 7)
        // The grid reference Session would add (GeoConvert's numbers for this position).
        fields.grid = GridPosition(zone: 50, isNorth: true, easting: 669627.866, northing: 3548531.726, latitude: 32.0603)
        // What the writer and the GPS fix add: the verification code, the fix's accuracy and time.
        fields.code = "K7MN-4XRT-9P"
        fields.pixelsSHA256 = String(repeating: "ab", count: 32)
        fields.accuracy = 6
        fields.gpsTime = Timestamp(iso8601: "2026-11-29T06:03:11Z")
        return fields
    }()

    static let builtInIDs = ["classic", "banner", "site-report", "big-clock", "minimal", "geo", "evidence"]
}

@Suite struct GoldenTests {
    @Test("each built-in style matches its golden image", arguments: Fixture.builtInIDs)
    func golden(id: String) throws {
        var photo = try Fixture.card()
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template(id),
                                                                           fields: Fixture.fields)
        #expect(report.unknownGlyphs == 0)
        #expect(!report.boxes.isEmpty)
        let problem = Golden.mismatch(photo.bitmap, golden: TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/\(id).png")
        #expect(problem == nil, "\(problem ?? "")")
    }

    @Test("the golden comparison can fail: classic does not match banner's golden")
    func goldenCanFail() throws {
        guard !Golden.recording else { return }
        var photo = try Fixture.card()
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: try Fixture.template("classic"),
                                                             fields: Fixture.fields)
        let golden = try #require(Bitmap(pngFile: TestFiles.packageRoot + "/Tests/WatermarkTests/Goldens/banner.png"))
        #expect(try #require(PixelCompare.meanDifference(golden, photo.bitmap)) > 1)
    }
}

@Suite struct RenderingTests {
    @Test("a render is a pure function of photo, template and fields", arguments: Fixture.builtInIDs)
    func deterministic(id: String) throws {
        var first = try Fixture.card(), second = try Fixture.card()
        let template = try Fixture.template(id)
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&first, template: template, fields: Fixture.fields)
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&second, template: template, fields: Fixture.fields)
        #expect(PixelCompare.meanDifference(first.bitmap, second.bitmap) == 0)
    }

    @Test("the stamp lands where the template anchors it and nowhere else")
    func placement() throws {
        let plain = try Fixture.card(width: 800, height: 450)
        var stamped = try Fixture.card(width: 800, height: 450)
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&stamped, template: try Fixture.template("classic"),
                                                                           fields: Fixture.fields)
        let box = try #require(report.boxes.first)
        #expect(box.x < 40 && box.y + box.height > 420)  // bottom-left, inside the margin
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 20..<200, y: 380..<430) > 20)
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 500..<800, y: 0..<300) == 0)
    }

    @Test("sizes follow the short side: the stamp's relative height is the same at 640 px and 4000 px",
          arguments: Fixture.builtInIDs)
    func scales(id: String) throws {
        let template = try Fixture.template(id)
        var small = try Fixture.card(width: 640, height: 360), large = try Fixture.card(width: 4000, height: 2250)
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let smallBox = try #require(try watermarker.stamp(&small, template: template, fields: Fixture.fields).boxes.first)
        let largeBox = try #require(try watermarker.stamp(&large, template: template, fields: Fixture.fields).boxes.first)
        let smallShare = smallBox.height / 360, largeShare = largeBox.height / 2250
        #expect(abs(smallShare - largeShare) < 0.02, "\(id): \(smallShare) vs \(largeShare)")
        #expect(abs(smallBox.width / 640 - largeBox.width / 4000) < 0.02)
    }

    @Test("CJK and Arabic print with real glyphs; emoji does not crash")
    func scripts() throws {
        var fields = Fixture.fields
        fields.user = "王小明 山田太郎 김민준 Сергей"
        fields.location = "القاهرة، مصر"
        var photo = try Fixture.card()
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        #expect(try watermarker.stamp(&photo, template: try Fixture.template("classic"), fields: fields).unknownGlyphs == 0)
        fields.note = "done ✅🏗️"
        _ = try watermarker.stampCard(template: try Fixture.template("site-report"), fields: fields)
    }

    @Test("a 200-character project name wraps in classic and in banner (no longer cut to one line there)")
    func longText() throws {
        var fields = Fixture.fields
        fields.project = String(repeating: "Northern bridge deck ", count: 10)
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let classic = try watermarker.stampCard(template: try Fixture.template("classic"), fields: fields)
        let normal = try watermarker.stampCard(template: try Fixture.template("classic"), fields: Fixture.fields)
        let wrapped = try #require(classic.boxes.first), short = try #require(normal.boxes.first)
        #expect(wrapped.width <= 480 * 0.75 + 1)
        #expect(wrapped.height > short.height * 1.2)  // two extra lines
        let banner = try #require(try watermarker.stampCard(template: try Fixture.template("banner"),
                                                        fields: fields).boxes.first)
        let bannerShort = try #require(try watermarker.stampCard(template: try Fixture.template("banner"),
                                                             fields: Fixture.fields).boxes.first)
        #expect(banner.height > bannerShort.height)  // wrapped, not ellipsized
        #expect(banner.width <= 480)
    }

    @Test("field values are escaped: '<b>&amp;</b>' prints as typed, not as a bold '&'")
    func escaping() throws {
        // Only the user is set, so the user line alone decides the box's width.
        let typed = Fields(user: "<b>&amp;</b>"), ampersand = Fields(user: "&")
        let watermarker = try Watermarker(fontConfig: Fixture.fontConfig)
        let classic = try Fixture.template("classic")
        let typedBox = try #require(try watermarker.stampCard(template: classic, fields: typed).boxes.first)
        let ampersandBox = try #require(try watermarker.stampCard(template: classic, fields: ampersand).boxes.first)
        // The same text as template markup (never escaped) is what a broken escape would draw: a bold '&'.
        var asMarkup = classic
        asMarkup.blocks[0].lines = [Template.Line(text: "<b>&amp;</b>")]
        let markupBox = try #require(try watermarker.stampCard(template: asMarkup, fields: Fields(user: "x")).boxes.first)
        #expect(typedBox.width > ampersandBox.width * 2)  // thirteen characters against one
        #expect(typedBox.width > markupBox.width * 2)     // the comparison fails when values become markup
    }

    @Test("mono and sepia tones change the photo; none leaves it")
    func tones() throws {
        var template = try Fixture.template("minimal")
        template.tone = .mono
        var photo = try Fixture.card()
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: template, fields: Fields())
        let pixel = photo.bitmap.rgb(x: 300, y: 40)  // a coloured bar
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
        template.tone = .sepia
        var sepia = try Fixture.card()
        try Watermarker(fontConfig: Fixture.fontConfig).stamp(&sepia, template: template, fields: Fields())
        let warm = sepia.bitmap.rgb(x: 30, y: 40)
        #expect(warm.red > warm.green && warm.green > warm.blue)
    }

    @Test("no values at all: nothing is drawn")
    func empty() throws {
        let plain = try Fixture.card()
        var stamped = try Fixture.card()
        let report = try Watermarker(fontConfig: Fixture.fontConfig).stamp(&stamped, template: try Fixture.template("classic"),
                                                                           fields: Fields())
        #expect(report.boxes.isEmpty)
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap) == 0)
    }

    @Test("a missing font configuration or logo is an error naming it")
    func missingFiles() throws {
        #expect(throws: WatermarkError.fontConfiguration(path: "/nonexistent/fonts.conf")) {
            try Watermarker(fontConfig: "/nonexistent/fonts.conf")
        }
        var template = try Fixture.template("classic")
        template.blocks[0].logo = Template.Logo(file: "missing.png", size: 0.1, position: .left)
        #expect(throws: WatermarkError.logo(path: template.folder + "/missing.png", reason: "file not found")) {
            try Watermarker(fontConfig: Fixture.fontConfig).stampCard(template: template, fields: Fixture.fields)
        }
    }

    @Test("a logo is drawn inside the box")
    func logo() throws {
        let folder = try TestFiles.temporaryFolder("logo")
        var square = try #require(Bitmap(width: 64, height: 64))
        for y in 0..<64 { for x in 0..<64 { square.setRGB(x: x, y: y, (255, 0, 255)) } }
        #expect(square.writePNG(to: folder + "/logo.png"))
        var template = try Fixture.template("classic")
        template.folder = folder
        template.blocks[0].logo = Template.Logo(file: "logo.png", size: 0.1, position: .left)
        var photo = try Fixture.card()
        let box = try #require(try Watermarker(fontConfig: Fixture.fontConfig).stamp(&photo, template: template,
                                                                                      fields: Fixture.fields).boxes.first)
        let inside = photo.bitmap.rgb(x: Int(box.x) + 12, y: Int(box.y) + 12)
        #expect(inside.red > 200 && inside.green < 60 && inside.blue > 200)
    }

    @Test("markup problems in a template are found before rendering")
    func markupCheck() throws {
        var template = try Fixture.template("classic")
        template.blocks[0].lines[1].text = "<b>User {user}"
        #expect(try Watermarker(fontConfig: Fixture.fontConfig).validate(template).map(\.description)
            == ["classic.json: blocks[0].lines[1]: not valid Pango markup: the tag <b> is not closed"])
        #expect(try Watermarker(fontConfig: Fixture.fontConfig).validate(try Fixture.template("classic")).isEmpty)
    }
}

extension Watermarker {
    /// Stamps a fresh test card and returns what was drawn.
    func stampCard(template: Template, fields: Fields) throws -> Report {
        var card = try Fixture.card()
        return try stamp(&card, template: template, fields: fields)
    }
}
