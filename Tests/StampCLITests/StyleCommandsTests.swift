import Foundation
import Testing
import TestSupport
import Imaging

@Suite struct StyleCommandsTests {
    /// The 640x480 site photo, in a folder of its own.
    static func photo() throws -> String { try Fixtures.site.write(to: try TestFiles.temporaryFolder("site")) }
    static let builtIn = ["classic", "banner", "site-report", "big-clock", "minimal", "geo", "evidence"]

    @Test("styles lists the six built-in styles in cycle order, classic the default")
    func list() {
        let result = CLI.run(["styles"])
        #expect(result.code == 0)
        #expect(result.out.map { String($0.prefix { $0 != " " }) } == Self.builtIn)
        #expect(result.out.first?.contains("(default) [built-in]") == true)
    }

    @Test("a user template with a built-in's id overrides it; --template-dir adds more")
    func overrides() throws {
        let folder = try TestFiles.temporaryFolder("tpl")
        var classic = String(decoding: try TestFiles.bytes(TestFiles.packageRoot + "/templates/classic.json"), as: UTF8.self)
        classic = classic.replacingOccurrences(of: "\"name\": \"Classic\"", with: "\"name\": \"My classic\"")
        try TestFiles.write(Array(classic.utf8), to: folder + "/mine.json")
        let extra = classic.replacingOccurrences(of: "\"id\": \"classic\"", with: "\"id\": \"zzz\"")
        try TestFiles.write(Array(extra.utf8), to: folder + "/extra.json")
        let result = CLI.run(["styles", "--template-dir", folder])
        #expect(result.out.count == 8)
        #expect(result.out.first?.contains("My classic (default) [template-dir]") == true)
        #expect(result.out.contains { $0.hasPrefix("zzz ") })
    }

    @Test("--sheet renders every style into one contact sheet")
    func sheet() throws {
        let photo = try Self.photo()
        let out = try TestFiles.temporaryFolder("sheet")
        let result = CLI.run(["styles", "--sheet", photo, "-o", out + "/sheet.jpg", "--project", "P"])
        #expect(result.code == 0)
        #expect(result.out == [out + "/sheet.jpg"])
        let sheet = try Photo(jpeg: try TestFiles.bytes(out + "/sheet.jpg"), options: LoadOptions(maxSize: 0))
        #expect(sheet.width > 3 * 640 && sheet.height > 2 * 480)  // 3 columns, 2 rows of 640x480 tiles
    }

    @Test("--template FILE: a copy of classic.json, changed, is used")
    func templateFile() throws {
        let photo = try Self.photo()
        let folder = try TestFiles.temporaryFolder("tplfile")
        var json = String(decoding: try TestFiles.bytes(TestFiles.packageRoot + "/templates/classic.json"), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"anchor\": \"bottom-left\"", with: "\"anchor\": \"top-right\"")
        try TestFiles.write(Array(json.utf8), to: folder + "/corner.json")
        let result = CLI.run(["apply", photo, "-o", folder + "/out", "--template", folder + "/corner.json", "--user", "Ana"])
        #expect(result.code == 0)
        let stamped = try Photo(jpeg: try TestFiles.bytes(folder + "/out/site.jpg"), options: LoadOptions(maxSize: 0))
        let plain = try Photo(jpeg: try TestFiles.bytes(photo), options: LoadOptions(maxSize: 0))
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 500..<630, y: 15..<60) > 20)
        #expect(PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 10..<150, y: 420..<470) < 6)
    }

    @Test("a bad template: one line naming file and path, exit 65; an unknown id: exit 64 listing the styles")
    func badTemplate() throws {
        let photo = try Self.photo()
        let folder = try TestFiles.temporaryFolder("badtpl")
        try TestFiles.write(Array(#"{"version": 1, "id": "x", "blocks": [{"lines": ["a"], "font": {"size": "big"}}]}"#.utf8),
                            to: folder + "/site.json")
        let bad = CLI.run(["apply", photo, "-o", folder + "/out", "--template", folder + "/site.json"])
        #expect(bad.code == 65)
        #expect(bad.err == ["stampcam: site.json: blocks[0].font.size: expected a number, found a string"])
        let unknown = CLI.run(["apply", photo, "-o", folder + "/out", "--template", "fancy"])
        #expect(unknown.code == 64)
        #expect(unknown.err.first?.contains("classic, banner, site-report, big-clock, minimal, geo, evidence") == true)
    }

    @Test("templates check: built-ins pass; a broken file fails; uncovered characters warn")
    func check() throws {
        let all = CLI.run(["templates", "check"])
        #expect(all.code == 0)
        #expect(all.out.count == 7)
        let folder = try TestFiles.temporaryFolder("check")
        try TestFiles.write(Array(#"{"version": 1, "id": "x", "blocks": [{"lines": ["<b>{user}"]}]}"#.utf8), to: folder + "/m.json")
        let markup = CLI.run(["templates", "check", folder + "/m.json"])
        #expect(markup.code == 65)
        #expect(markup.err == ["stampcam: \(folder)/m.json: blocks[0].lines[0]: not valid Pango markup: the tag <b> is not closed"])
        let glyphs = CLI.run(["templates", "check", TestFiles.packageRoot + "/templates/classic.json", "--user", "✅\u{E000}"])  // no configured font has these
        #expect(glyphs.code == 0)
        #expect(glyphs.err == ["stampcam: \(TestFiles.packageRoot)/templates/classic.json: warning: no configured font can show U+2705 ✅, U+E000 \u{E000} (add a font file to fonts/)"])
        let cjk = CLI.run(["templates", "check", TestFiles.packageRoot + "/templates/classic.json", "--user", "李伟 القاهرة"])
        #expect(cjk.err.isEmpty)
    }

    @Test("a variable with no value: the command line says how to give one (--set), in check and in apply")
    func missingValueAdvice() throws {
        let folder = try TestFiles.temporaryFolder("crew")
        try TestFiles.write(Array(#"{"version": 1, "id": "x", "blocks": [{"lines": ["{crew}"]}]}"#.utf8), to: folder + "/c.json")
        let check = CLI.run(["templates", "check", folder + "/c.json"])
        #expect(check.code == 65)
        #expect(check.err == ["stampcam: \(folder)/c.json: blocks[0].lines[0]: unknown variable {crew}: it is not built in and no value was given for it (--set crew=VALUE)"])
        let apply = CLI.run(["apply", try Self.photo(), "-o", folder + "/out", "--template", folder + "/c.json"])
        #expect(apply.code == 65)
        #expect(apply.err.first?.hasSuffix("no value was given for it (--set crew=VALUE)") == true, "\(apply.err)")
    }

    @Test("field options: --set, --gps, --tz, --note reach the template")
    func fieldOptions() throws {
        let photo = try Self.photo()
        let folder = try TestFiles.temporaryFolder("fields")
        try TestFiles.write(Array(#"{"version": 1, "id": "t", "blocks": [{"lines": ["{crew} {coords} {datetime} {tz} {note}"]}]}"#.utf8),
                            to: folder + "/t.json")
        let ok = CLI.run(["apply", photo, "-o", folder + "/out", "--template", folder + "/t.json", "--set", "crew=B",
                          "--gps", "1.5,-2.25", "--tz", "Asia/Tokyo", "--time", "2026-11-29T14:03:12Z", "--note", "n"])
        #expect(ok.code == 0)
        for (flag, value) in [("--gps", "95,0"), ("--tz", "Mars/Olympus"), ("--set", "novalue"), ("--time", "noon")] {
            let result = CLI.run(["apply", photo, "-o", folder + "/out", flag, value])
            #expect(result.code == 64, "\(flag) \(value)")
            #expect(result.err.first?.contains("'\(value)' is ") == true)  // not …, or out of range
        }
    }
}

@Suite struct FieldOptionsTests {
    @Test("--tz converts EXIF and command-line times; a zone-less EXIF time is labelled, not shifted")
    func zones() throws {
        let options = try StampCLITestAccess.fieldOptions(["--tz", "+09:00"])
        var metadata = PhotoMetadata()
        metadata.dateTimeOriginal = "2022:08:14 14:12:31"
        metadata.offsetTimeOriginal = "+03:00"
        #expect(options.time(for: metadata) == "2022-08-14 20:12:31 +09:00")
        metadata.offsetTimeOriginal = nil
        #expect(options.time(for: metadata) == "2022-08-14 14:12:31 +09:00")
        let tokyo = try StampCLITestAccess.fieldOptions(["--tz", "Asia/Tokyo", "--time", "2026-11-29T00:00:00Z"])
        #expect(tokyo.time(for: PhotoMetadata()) == "2026-11-29 09:00:00 +09:00")
    }
}

@Suite struct StyleFieldTests {
    @Test("a value the chosen style does not show is warned about once, naming the option")
    func notShown() throws {
        let photo = try StyleCommandsTests.photo()
        let out = try TestFiles.temporaryFolder("notshown")
        let result = CLI.run(["apply", photo, photo, "-o", out, "-t", "minimal", "--note", "north wall", "--user", "Ana"])
        #expect(result.code == 0)
        let warnings = result.err.filter { $0.contains("does not show") }
        #expect(warnings == ["stampcam: warning: the style 'minimal' does not show --user, --note (it shows: time, zone); 'stampcam styles' lists what each style shows"])
        let classic = CLI.run(["apply", photo, "-o", out + "/c", "--note", "north wall", "--user", "Ana", "--project", "P"])
        #expect(!classic.err.contains { $0.contains("does not show") })
    }

    @Test("values given with --set that the style does not show are named, as --user and --note are")
    func setNotShown() throws {
        let photo = try StyleCommandsTests.photo()
        let out = try TestFiles.temporaryFolder("setnotshown")
        let result = CLI.run(["apply", photo, "-o", out, "-t", "classic", "--set", "weather=rain", "--set", "inspector_id=QA-17"])
        #expect(result.code == 0)
        #expect(result.err.filter { $0.contains("does not show") } == [
            "stampcam: warning: the style 'classic' does not show --set inspector_id, --set weather (it shows: time, zone, user, "
                + "project, location, GPS, note); 'stampcam styles' lists what each style shows"])
    }

    @Test("a field that still cannot fit on the stamp is named in a warning, by apply and shoot alike")
    func cutFieldNamed() throws {
        let folder = try TestFiles.temporaryFolder("cutfield")
        let photo = try Fixtures.oriented(.up, width: 600, height: 900).write(to: folder)
        let note = String(repeating: "formwork checked ", count: 11)
        let expected = "stampcam: warning: note does not fit in the style 'banner' on this photo and is cut with \"…\" "
            + "(shorten it, or choose a style with more room)"
        let apply = CLI.run(["apply", photo, "-o", folder + "/out", "-t", "banner", "--note", note])
        #expect(apply.code == 0)
        #expect(apply.err.filter { $0.contains("does not fit") } == [expected])
        let shoot = CLI.run(["shoot", "--yes", "--device", "test", "--rotate", "90", "-t", "site-report", "--note", note,
                             "-o", folder + "/shot"])
        #expect(shoot.code == 0)
        #expect(shoot.err.filter { $0.contains("does not fit") } == [expected.replacingOccurrences(of: "'banner'", with: "'site-report'")])
    }

    @Test("characters no font has are named once per run, not once per photo")
    func missingGlyphsOnce() throws {
        let folder = try TestFiles.temporaryFolder("glyphsonce")
        let one = try Fixtures.site.write(to: folder + "/a"), two = try Fixtures.site.write(to: folder + "/b")
        let result = CLI.run(["apply", one, two, "-o", folder + "/out", "--note", "done ✅"])
        #expect(result.code == 0)
        #expect(result.err.filter { $0.contains("no configured font can show") }
            == ["stampcam: warning: no configured font can show U+2705 ✅ (add a font file to fonts/)"])
    }

    @Test("styles says what each style shows, and marks the config file's style as the default")
    func listing() throws {
        let result = CLI.run(["styles"])
        #expect(result.out.first { $0.hasPrefix("classic ") }?.hasSuffix("Shows: time, zone, user, project, location, GPS, note.") == true)
        #expect(result.out.first { $0.hasPrefix("minimal ") }?.hasSuffix("Shows: time, zone.") == true)
        let config = try TestFiles.temporaryFolder("cfg")
        try FileManager.default.createDirectory(atPath: config + "/stampcam", withIntermediateDirectories: true)
        try TestFiles.write(Array(#"{"template": "geo"}"#.utf8), to: config + "/stampcam/config.json")
        let configured = CLI.run(["styles"], environment: ["XDG_CONFIG_HOME": config])
        #expect(configured.out.filter { $0.contains("(default)") }.map { String($0.prefix { $0 != " " }) } == ["geo"])
    }

    @Test("help: no 'default: from EXIF' where there is no photo; templates check has no -t; shoot lists its keys")
    func help() {
        #expect(!CLI.run(["shoot", "--help"]).out.joined().contains("default: from EXIF"))
        #expect(!CLI.run(["test-card", "--help"]).out.joined().contains("default: from EXIF"))
        #expect(!CLI.run(["templates", "--help"]).out.joined().contains("--template "))
        #expect(CLI.run(["shoot", "--help"]).out.joined().contains("--max-size PX"))
        #expect(CLI.run(["shoot", "--help"]).out.joined().contains("r        retake"))
    }
}

@Suite struct ShootSizeTests {
    @Test("shoot fits the photo to 1024 like apply; --max-size 0 keeps the camera's 1920x1080")
    func maxSize() throws {
        let out = try TestFiles.temporaryFolder("shootsize")
        let fitted = CLI.run(["shoot", "--yes", "--device", "test", "-o", out + "/a"])
        #expect(fitted.code == 0, "\(fitted.err)")
        let small = try Photo(jpeg: try TestFiles.bytes(try #require(fitted.out.first)), options: LoadOptions(maxSize: 0))
        #expect(small.width == 1024 && small.height == 576)
        let full = CLI.run(["shoot", "--yes", "--device", "test", "--max-size", "0", "-o", out + "/b"])
        #expect(full.code == 0, "\(full.err)")
        let large = try Photo(jpeg: try TestFiles.bytes(try #require(full.out.first)), options: LoadOptions(maxSize: 0))
        #expect(large.width == 1920 && large.height == 1080)
    }

    @Test("shoot --yes -o FILE.jpg saves that one file (the folder unmarked); with --count 2 it is an error")
    func outputFile() throws {
        let out = try TestFiles.temporaryFolder("shootfile")
        let one = CLI.run(["shoot", "--yes", "--device", "test", "-o", out + "/evidence.jpg"])
        #expect(one.code == 0, "\(one.err)")
        #expect(one.out == [out + "/evidence.jpg"])
        #expect(TestFiles.files(in: out) == ["evidence.jpg"])
        #expect(!FileManager.default.fileExists(atPath: out + "/.stampcam"))
        let two = CLI.run(["shoot", "--yes", "--count", "2", "--device", "test", "-o", out + "/two.jpg"])
        #expect(two.code == 64)
    }
}

@Suite struct SuggestionTests {
    @Test("did you mean: style ids and options", arguments: [
        (["apply", "x.jpg", "-o", "/tmp/x", "-t", "site_report"], "(did you mean 'site-report'?)"),
        (["apply", "x.jpg", "-o", "/tmp/x", "-t", "Classic"], "(did you mean 'classic'?)"),
        (["apply", "x.jpg", "-o", "/tmp/x", "--usr", "Ana"], "unknown option '--usr' for 'apply' (did you mean '--user'?)"),
        (["shoot", "--yes", "--porject=P"], "unknown option '--porject' for 'shoot' (did you mean '--project'?)"),
    ])
    func suggestions(arguments: [String], expected: String) {
        let result = CLI.run(arguments)
        #expect(result.code == 64)
        #expect(result.err.first?.contains(expected) == true, "\(result.err)")
    }

    @Test("a config file that is not JSON says where: line and column")
    func configSyntax() throws {
        let config = try TestFiles.temporaryFolder("cfgsyntax")
        try FileManager.default.createDirectory(atPath: config + "/stampcam", withIntermediateDirectories: true)
        try TestFiles.write(Array("{\n  \"user\": \"Ana\",\n  \"project\" \"P\"\n}\n".utf8), to: config + "/stampcam/config.json")
        let result = CLI.run(["styles"], environment: ["XDG_CONFIG_HOME": config])
        #expect(result.code == 64)
        #expect(result.err.first?.contains("line 3, column") == true, "\(result.err)")
    }

    @Test("styles --sheet names the photo it cannot read")
    func sheetNamesFile() throws {
        let folder = try TestFiles.temporaryFolder("sheetbad")
        try TestFiles.write(Array("not a photo".utf8), to: folder + "/notes.jpg")
        let result = CLI.run(["styles", "--sheet", folder + "/notes.jpg", "-o", folder + "/s.jpg"])
        #expect(result.code == 65)
        #expect(result.err == ["stampcam: \(folder)/notes.jpg: not a JPEG file"])
    }
}
