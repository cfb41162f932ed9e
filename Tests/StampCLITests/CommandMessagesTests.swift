import Foundation
import Testing
import TestSupport
import Values

/// What the commands say when the command line is not what was meant: each says what is wrong and
/// what would work, and never drops what was asked without a word.
@Suite struct CommandMessagesTests {
    @Test("bare stampcam prints the help --help prints, line by line (no literal \\x0A), and exits 64")
    func bareHelp() throws {
        let bare = try CLI.shell(CLI.quoted(CLI.binary))
        let help = try CLI.shell(CLI.quoted(CLI.binary) + " --help")
        #expect(bare.code == 64 && help.code == 0)
        #expect(bare.err.count > 10 && bare.err == help.out, "\(bare.err)")
        #expect(!bare.err.joined().contains("\\x0A"))
    }

    @Test("an unknown command: the one close to it, as for options and styles", arguments: [
        ("shoto", "stampcam: unknown command 'shoto' (did you mean 'shoot'?)"),
        ("aply", "stampcam: unknown command 'aply' (did you mean 'apply'?)"),
        ("xyzzy", "stampcam: unknown command 'xyzzy' (see 'stampcam --help')"),
    ])
    func unknownCommand(_ name: String, _ message: String) {
        let result = CLI.run([name])
        #expect(result.code == 64 && result.err == [message], "\(result.err)")
    }

    @Test("a path with spaces left unquoted: one line naming the path meant, exit 64, nothing written")
    func unquotedPath() throws {
        let folder = try TestFiles.temporaryFolder("unquoted")
        let photo = try Fixtures.site.write(to: folder)
        let spaced = folder + "/Apple iPhone 4.jpg"
        try FileManager.default.moveItem(atPath: photo, toPath: spaced)
        let pieces = spaced.split(separator: " ").map(String.init)
        for command in [["apply"] + pieces + ["-o", folder + "/out"], ["restamp", "-t", "banner"] + pieces] {
            let result = CLI.run(command)
            #expect(result.code == 64)
            #expect(result.err == ["stampcam: '\(pieces[0])' 'iPhone' '4.jpg': no such files; did you mean '\(spaced)'? "
                                   + "quote it, as the shell splits a name at its spaces"], "\(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        // Quoted, it is stamped; a missing file with no such neighbour is still the usual line.
        #expect(CLI.run(["apply", spaced, "-o", folder + "/out", "--quiet"]).code == 0)
        let missing = CLI.run(["apply", folder + "/none.jpg", "-o", folder + "/out"])
        #expect(missing.code == 66 && missing.err.first?.contains("cannot read") == true, "\(missing.err)")
    }

    @Test("a rerun into the same folder: the summary counts the photos written under a new name and names the options")
    func renamedCounted() throws {
        let inputs = try TestFiles.temporaryFolder("rerun-in")
        _ = try Fixtures.site.write(to: inputs)
        _ = try Fixtures.southWest.write(to: inputs)
        let output = try TestFiles.temporaryFolder("rerun-out")
        let first = CLI.run(["apply", inputs, "-o", output])
        #expect(first.code == 0 && first.err.last?.contains("new name") == false, "\(first.err)")
        let second = CLI.run(["apply", inputs, "-o", output])
        #expect(second.code == 0)
        #expect(second.err.last?.hasPrefix("stampcam: 2 done, 0 skipped, 0 failed in ") == true, "\(second.err)")
        #expect(second.err.last?.hasSuffix("; 2 written under a new name (-1, -2 …) because a file had the name: "
                                           + "--skip-existing leaves such photos, --overwrite replaces the files") == true, "\(second.err)")
        #expect(TestFiles.files(in: output).filter { $0.hasSuffix("-1.jpg") }.count == 2)
        let skipped = CLI.run(["apply", inputs, "-o", output, "--skip-existing"])
        #expect(skipped.err.last?.hasPrefix("stampcam: 0 done, 2 skipped, 0 failed in ") == true, "\(skipped.err)")
        #expect(skipped.err.last?.contains("new name") == false)
    }

    @Test("sites which and sites check show control characters of a site's name as \\xNN, as log does")
    func sitesEscaped() throws {
        let sites = try SitesCommandTests.sitesFile("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Gate\\u001b[31m\\u0007", "radius": 30, "address": "Quay\\u001b]0;x\\u0007"},
               "geometry": {"type": "Point", "coordinates": [2.2945, 48.8584]}}]}
            """)
        let which = CLI.run(["sites", "which", "48.8584,2.2945", "--sites", sites])
        let check = CLI.run(["sites", "check", sites])
        #expect(which.code == 0 && check.code == 0)
        for line in which.out + check.out {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 }, "\(line.debugDescription)")
        }
        #expect(which.out.first == "Gate\\x1B[31m\\x07: point, radius 30.0 m (feature 0); address Quay\\x1B]0;x\\x07", "\(which.out)")
        #expect(check.out.contains("  Gate\\x1B[31m\\x07: point, radius 30.0 m (feature 0); address Quay\\x1B]0;x\\x07"), "\(check.out)")
    }

    @Test("a --name variable with no value is an error (exit 64) naming the one meant; given ones work")
    func unknownNameVariable() throws {
        let folder = try TestFiles.temporaryFolder("name-variable")
        let photo = try Fixtures.site.write(to: folder)
        let typo = CLI.run(["apply", photo, "-o", folder + "/out", "--name", "{projcet}-{basename}.jpg"])
        #expect(typo.code == 64 && typo.err == ["stampcam: option '--name': unknown variable {projcet} (did you mean {project}?)"], "\(typo.err)")
        let unknown = CLI.run(["apply", photo, "-o", folder + "/out", "--name", "{inspector_id}.jpg"])
        #expect(unknown.code == 64)
        #expect(unknown.err == ["stampcam: option '--name': unknown variable {inspector_id}: it is not built in; give it a value with --set inspector_id=VALUE"],
                "\(unknown.err)")
        let shoot = CLI.run(["shoot", "--yes", "--device", "test", "--no-catalog", "-o", folder + "/shot", "--name", "{projcet}"])
        #expect(shoot.code == 64 && shoot.err.last?.contains("did you mean {project}?") == true, "\(shoot.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out") && !FileManager.default.fileExists(atPath: folder + "/shot"))
        let given = CLI.run(["apply", photo, "-o", folder + "/out", "--name", "{crew}-{basename}", "--set", "crew=B", "--quiet"])
        #expect(given.code == 0 && TestFiles.files(in: folder + "/out") == ["B-site.jpg"], "\(given.err)")
    }

    @Test("templates check warns about a font family no installed font has, once per family; real families and aliases pass")
    func missingFontFamily() throws {
        let folder = try TestFiles.temporaryFolder("font-family")
        let template = #"{"version": 1, "id": "f", "blocks": [{"lines": ["{user}", "{project}"], "font": {"family": "Nonexistent Grotesk"}},"#
            + #" {"lines": ["{note}"], "font": {"family": "DejaVu Serif, Sans"}}, {"lines": ["{date}"], "font": {"family": "monospace"}}]}"#
        try TestFiles.write(Array(template.utf8), to: folder + "/f.json")
        let check = CLI.run(["templates", "check", folder + "/f.json"])
        #expect(check.code == 0 && check.out == ["\(folder)/f.json: ok (f)"])
        #expect(check.err == ["stampcam: \(folder)/f.json: blocks[0].lines[0].font.family: warning: no installed font has the family "
                              + "'Nonexistent Grotesk', so its text is drawn in the fallback font; install it, put its files beside "
                              + "fonts/fonts.conf, or name another family"], "\(check.err)")
        let builtIn = CLI.run(["templates", "check"])
        #expect(builtIn.code == 0 && builtIn.err.isEmpty, "\(builtIn.err)")
    }

    @Test("numbers are plain decimals: hex, exponents, inf and nan are refused by every numeric option", arguments: [
        ["--gps", "0x10,0x10"], ["--gps", "1e1,2"], ["--near", "0x10,0x10,100"], ["--zoom", "0x2"], ["--interval", "0x10"],
        ["--focus", "0x0.8,0.5"], ["--gps-max-age", "inf"],
    ])
    func decimalOnly(_ options: [String]) throws {
        let option = options[0]
        let command = option == "--near" ? ["log"] : option == "--gps" || option == "--gps-max-age"
            ? ["apply", try Fixtures.site.write(to: try TestFiles.temporaryFolder("hex")), "-o", "/nonexistent/out"]
            : ["shoot", "--yes", "--device", "test", "--no-catalog", "-o", "/nonexistent/out"]
        let result = CLI.run(command + options)
        #expect(result.code == 64)
        #expect(result.err.first?.hasPrefix("stampcam: option '\(option)': '\(options[1])' is not ") == true, "\(result.err)")
    }

    @Test("the decimal reader: sign, digits and one point only")
    func decimalReader() {
        for (text, value) in [("12", 12.0), ("-0.5", -0.5), ("+3", 3), (".5", 0.5), ("48.8584", 48.8584)] {
            #expect(decimalNumber(text) == value, "\(text)")
        }
        for text in ["0x10", "1e3", "inf", "nan", "", ".", "-", "1.2.3", "1-2", "1+2", " 1", "0x1p4"] {
            #expect(decimalNumber(text) == nil, "\(text)")
        }
    }

    @Test("a value of the right form out of range says so, with the range", arguments: [
        (["--gps", "91,0"], "option '--gps': '91,0' is out of range: the latitude goes from -90 to 90, the longitude from -180 to 180, the altitude from -100000 to 100000 metres"),
        (["--gps", "48.8,2.2,200000"], "option '--gps': '48.8,2.2,200000' is out of range: the latitude goes from -90 to 90"),
        (["--gps", "north"], "option '--gps': 'north' is not auto, require, off, or LAT,LON[,ALT]"),
        (["--shard", "4/4"], "option '--shard': '4/4' is out of range: N goes from 1 to 1000000, K from 0 to N-1"),
        (["--shard", "0/0"], "option '--shard': '0/0' is out of range: N goes from 1 to 1000000, K from 0 to N-1"),
        (["--shard", "half"], "option '--shard': 'half' is not K/N with 0 ≤ K < N, like 2/4"),
    ])
    func outOfRange(_ options: [String], _ message: String) throws {
        let photo = try Fixtures.site.write(to: try TestFiles.temporaryFolder("range"))
        let result = CLI.run(["apply", photo, "-o", "/nonexistent/out"] + options)
        #expect(result.code == 64)
        #expect(result.err.first?.hasPrefix("stampcam: " + message) == true, "\(result.err)")
    }

    @Test("--device FOLDER: not a camera, exit 69 (unavailable), one line saying so")
    func deviceFolder() throws {
        let folder = try TestFiles.temporaryFolder("device-folder")
        let result = CLI.run(["shoot", "--yes", "--device", folder, "--no-catalog", "-o", folder + "/out"])
        #expect(result.code == 69)
        #expect(result.err == ["stampcam: \(folder): not a video capture device (see 'stampcam devices' for the cameras)"], "\(result.err)")
    }
}
