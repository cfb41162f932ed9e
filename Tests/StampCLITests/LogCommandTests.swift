import Catalog
import Foundation
import Platform
import Templates
import Testing
import TestSupport
import Values

/// `stampcam log` with its filters, `--check`, `--rebuild` and `--merge`, and `export`.
@Suite struct LogCommandTests {
    /// A catalog of five photos stamped with crafted times, projects, users and places.
    static func crafted() throws -> (catalog: String, folder: String) {
        let base = try TestFiles.temporaryFolder("crafted")
        let catalog = base + "/catalog.sqlite"
        let photos: [(name: String, arguments: [String])] = [
            ("eiffel", ["--time", "2026-11-23T09:00:00+01:00", "--project", "Bridge 7", "--user", "Li Wei", "--gps", "48.858370,2.294481"]),
            ("louvre", ["--time", "2026-11-25T18:30:00+01:00", "--project", "bridge 7", "--user", "Ana", "--gps", "48.860611,2.337644",
                        "-t", "banner"]),
            ("sydney", ["--time", "2026-11-29T10:00:00+10:00", "--project", "Harbour", "--user", "Ana", "--gps", "-33.856784,151.215297"]),
            ("rome", ["--time", "2026-11-27T12:00:00+01:00", "--project", "Bridge 7", "--user", "Li Wei", "--gps", "41.890251,12.492373"]),
            ("nowhere", ["--time", "2026-11-24T12:00:00Z", "--project", "Bridge 7", "--user", "Li Wei"]),
        ]
        for photo in photos {
            let fixture = photo.name == "nowhere" ? Fixtures.oriented(.up, width: 320, height: 240) : Fixtures.southEast
            let input = try fixture.write(to: base + "/in-" + photo.name)
            try FileManager.default.moveItem(atPath: input, toPath: base + "/in-\(photo.name)/\(photo.name).jpg")
            var arguments = ["apply", base + "/in-\(photo.name)/\(photo.name).jpg", "-o", base + "/out", "--catalog", catalog] + photo.arguments
            if photo.name == "nowhere" { arguments += ["--location", "Depot"] }
            let result = CLI.run(arguments)
            #expect(result.code == 0, "\(result.err)")
        }
        return (catalog, base + "/out")
    }

    static func names(_ result: CLIResult) -> [String] {
        result.out.map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".jpg", with: "") }
    }

    @Test("log filters by project and user (case ignored), time (instants, any zone), place (--near, in metres) and style")
    func filters() throws {
        let (catalog, _) = try Self.crafted()
        func log(_ arguments: [String]) -> [String] {
            let result = CLI.run(["log", "--catalog", catalog] + arguments)
            #expect(result.code == 0, "\(result.err)")
            return Self.names(result)
        }
        #expect(log([]) == ["eiffel", "nowhere", "louvre", "rome", "sydney"])
        #expect(log(["--project", "BRIDGE 7"]) == ["eiffel", "nowhere", "louvre", "rome"])
        #expect(log(["--project", "Bridge 7", "--user", "ana"]) == ["louvre"])
        #expect(log(["--since", "2026-11-25T17:30:00Z", "--until", "2026-11-29T00:00:00Z"]) == ["louvre", "rome", "sydney"])
        #expect(log(["--since", "2026-11-25T17:30:01Z", "--until", "2026-11-28T23:59:59Z"]) == ["rome"])
        #expect(log(["--near", "48.858370,2.294481,3200"]) == ["eiffel", "louvre"])
        #expect(log(["--near", "48.858370,2.294481,3100"]) == ["eiffel"])
        #expect(log(["--near", "48.8,2.3,1200000"]) == ["eiffel", "louvre", "rome"])
        #expect(log(["--style", "banner"]) == ["louvre"])
        #expect(log(["--project", "Harbour", "--near", "48.8,2.3,1000"]) == [])
    }

    @Test("log --user and --project find a part of the name, case ignored; --since after --until is a usage error")
    func partialNames() throws {
        let (catalog, _) = try Self.crafted()
        func log(_ arguments: [String]) -> [String] {
            let result = CLI.run(["log", "--catalog", catalog] + arguments)
            #expect(result.code == 0, "\(result.err)")
            return Self.names(result)
        }
        #expect(log(["--user", "li"]) == ["eiffel", "nowhere", "rome"])
        #expect(log(["--project", "Bridge"]) == ["eiffel", "nowhere", "louvre", "rome"])
        #expect(log(["--project", "arb", "--user", "AN"]) == ["sydney"])
        for command in ["log", "export", "report"] {
            let swapped = CLI.run([command, "--catalog", catalog, "--since", "2026-11-28", "--until", "2026-11-24", "-o", "-", "--csv"]
                .filter { command == "export" || ($0 != "--csv" && $0 != "-o" && $0 != "-") })
            #expect(swapped.code == 64, "\(command): \(swapped.err)")
            #expect(swapped.err == ["stampcam: option '--until': '2026-11-24' is not after --since '2026-11-28' (swap them?)"], "\(command)")
        }
    }

    @Test("a camera time without a zone is ordered and found as taken in the user's zone, said once; --tz reads it in another")
    func zonelessCameraTime() throws {
        let base = try TestFiles.temporaryFolder("zoneless")
        let catalog = base + "/catalog.sqlite"
        // EXIF 2021:06:14 09:41:27 with no OffsetTime*, and a photo given 05:00 UTC that day.
        let site = try Fixtures.site.write(to: base + "/in-site")
        let zoned = try Fixtures.southEast.write(to: base + "/in-zoned")
        #expect(CLI.run(["apply", site, "-o", base + "/out", "--catalog", catalog]).code == 0)
        #expect(CLI.run(["apply", zoned, "-o", base + "/out", "--catalog", catalog, "--time", "2021-06-14T05:00:00Z"]).code == 0)
        func log(_ arguments: [String]) -> CLIResult {
            let result = CLI.run(["log", "--catalog", catalog] + arguments)
            #expect(result.code == 0, "\(result.err)")
            return result
        }
        let east = log(["--tz", "+08:00"])
        #expect(Self.names(east) == ["site", "south-east"])  // 01:41 UTC, then 05:00
        #expect(east.err == ["stampcam: note: 1 photo has a camera time without a zone: ordered and found as taken in +08:00 (--tz)"])
        #expect(Self.names(log(["--tz", "-05:00"])) == ["south-east", "site"])  // 14:41 UTC
        #expect(Self.names(log(["--tz", "+08:00", "--since", "2021-06-14T01:41:27Z", "--until", "2021-06-14T01:41:27Z"])) == ["site"])
        // Without --tz: as logged, in this system's zone, which a day in this zone holds.
        let local = log(["--since", "2021-06-14", "--until", "2021-06-14"])
        #expect(Self.names(local).contains("site"), "\(local.err)")
        #expect(local.err.contains("stampcam: note: 1 photo has a camera time without a zone: ordered and found as taken in the zone assumed when logged (the system's); --tz ZONE reads them in another"))
        let csv = CLI.run(["export", "--csv", "--catalog", catalog, "--tz", "+08:00", "-o", "-"])
        #expect(csv.out.joined().contains(",2021-06-14T09:41:27,EXIF,2021-06-14T01:41:27Z,yes,"), "\(csv.out)")
    }

    @Test("results written into a full disk: exit 74 with one line saying so", arguments: [
        ["log"], ["log", "--json"], ["export", "--geojson", "-o", "-"], ["export", "--csv", "-o", "-"],
    ])
    func fullOutput(arguments: [String]) throws {
        let (catalog, _) = try Self.crafted()
        let result = try CLI.shell("\(CLI.binary) \(arguments.joined(separator: " ")) --catalog \(catalog) > /dev/full")
        #expect(result.code == 74)
        #expect(result.err.last == "stampcam: standard output: write failed: no space left on the device (the output is incomplete)",
                "\(result.err)")
    }

    @Test("apply --json into a full disk: the photo is saved, exit 74 saying the output was lost")
    func applyFullOutput() throws {
        let input = try Fixtures.site.write(to: try TestFiles.temporaryFolder("in"))
        let out = try TestFiles.temporaryFolder("out")
        let result = try CLI.shell("\(CLI.binary) apply --json \(CLI.quoted(input)) -o \(out) > /dev/full")
        #expect(result.code == 74)
        #expect(result.err.last == "stampcam: standard output: write failed: no space left on the device (the output is incomplete)")
        #expect(TestFiles.files(in: out) == ["site.jpg"])
    }

    @Test("log --since and --until take days, today, yesterday and weekday names in the local zone")
    func dayWords() throws {
        let base = try TestFiles.temporaryFolder("days")
        let catalog = base + "/catalog.sqlite"
        #expect(CLI.run(["apply", try Fixtures.site.write(to: base + "/in"), "-o", base + "/out", "--catalog", catalog,
                         "--time", FieldPolicyNow.iso()]).code == 0)
        let today = CLI.run(["log", "--catalog", catalog, "--since", "today"])
        #expect(today.out.count == 1)
        let weekday = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][FieldPolicyNow.weekday()]
        #expect(CLI.run(["log", "--catalog", catalog, "--since", weekday]).out.count == 1)
        #expect(CLI.run(["log", "--catalog", catalog, "--until", "yesterday"]).out.isEmpty)
        #expect(CLI.run(["log", "--catalog", catalog, "--since", "2000-01-01", "--until", "today"]).out.count == 1)
        let bad = CLI.run(["log", "--catalog", catalog, "--since", "last week"])
        #expect(bad.code == 64)
        #expect(bad.err.first?.contains("option '--since': 'last week' is not a date like 2026-11-29") == true)
    }

    @Test("log --json: one object per photo, every field")
    func json() throws {
        let (catalog, _) = try Self.crafted()
        let result = CLI.run(["log", "--catalog", catalog, "--json", "--project", "Harbour"])
        #expect(result.out.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out[0].utf8)) as? [String: Any])
        #expect(object["project"] as? String == "Harbour" && object["user"] as? String == "Ana")
        #expect(object["latitude"] as? Double == -33.856784 && object["longitude"] as? Double == 151.215297)
        #expect(object["time"] as? String == "2026-11-29T10:00:00+10:00" && object["command"] as? String == "apply")
        #expect((object["sha256"] as? String)?.count == 64 && object["host"] as? String == HostName.current)
    }

    @Test("log --check: moved (found by its bytes), missing and changed photos, one line each; exit 1")
    func check() throws {
        let (catalog, out) = try Self.crafted()
        try FileManager.default.createDirectory(atPath: out + "/../elsewhere", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: out + "/eiffel.jpg", toPath: out + "/../elsewhere/renamed.jpg")
        try FileManager.default.moveItem(atPath: out + "/rome.jpg", toPath: out + "/rome-renamed.jpg")
        try FileManager.default.removeItem(atPath: out + "/louvre.jpg")
        let handle = try #require(FileHandle(forWritingAtPath: out + "/sydney.jpg"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let result = CLI.run(["log", "--check", "--catalog", catalog, out + "/../elsewhere"])
        #expect(result.code == 1)
        let absolute = FileSystem.absolute(out + "/x").dropLast(2)
        let elsewhere = FileSystem.absolute(out + "/../elsewhere/renamed.jpg")
        #expect(result.out == [
            "moved    \(absolute)/eiffel.jpg -> \(elsewhere)",
            "missing  \(absolute)/louvre.jpg",
            "moved    \(absolute)/rome.jpg -> \(absolute)/rome-renamed.jpg",
            "changed  \(absolute)/sydney.jpg",
        ])
        #expect(result.err == ["stampcam: 5 photos checked: 1 unchanged, 2 moved, 1 missing, 1 changed"])
        let json = CLI.run(["log", "--check", "--json", "--catalog", catalog, "--project", "harbour"])
        #expect(json.out == [#"{"path":"\#(absolute)/sydney.jpg","status":"changed"}"#])
        #expect(CLI.run(["log", "--check", "--catalog", catalog, "--project", "nothing"]).code == 0)
    }

    @Test("log --verify: intact after real runs (exit 0); a changed and a deleted row each named on a line (exit 1); old rows counted as unchained")
    func verify() throws {
        let (catalog, out) = try Self.crafted()
        let intact = CLI.run(["log", "--verify", "--catalog", catalog])
        #expect(intact.code == 0, "\(intact.err)")
        #expect(intact.out.isEmpty)
        #expect(intact.err == ["stampcam: 5 rows in 1 chain verified intact; 5 photos' recorded heads checked"])
        let absolute = FileSystem.absolute(out + "/x").dropLast(2)
        let tampered = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            ids = dict(db.execute("SELECT path, id FROM photos"))
            db.execute("UPDATE photos SET project = 'Other' WHERE path = ?", (sys.argv[2] + "/louvre.jpg",))
            db.execute("DELETE FROM photos WHERE link = 3")
            db.commit()
            print(ids[sys.argv[2] + "/louvre.jpg"], ids[sys.argv[2] + "/rome.jpg"])
            """, [catalog, String(absolute)])
        #expect(tampered.status == 0, "\(tampered.err)")
        let ids = tampered.out.split(whereSeparator: \.isWhitespace)
        let broken = CLI.run(["log", "--verify", "--catalog", catalog])
        #expect(broken.code == 1)
        // The photo logged after the deleted row recorded that row's hash as the log's head.
        #expect(broken.out.count == 3)
        #expect(broken.out.contains { $0.hasPrefix("row \(ids[1]) (\(absolute)/rome.jpg): its photo records the log's head") })
        #expect(broken.out.contains { $0.hasPrefix("row \(ids[0]) (\(absolute)/louvre.jpg): changed") })
        #expect(broken.out.contains { $0.hasPrefix("row \(ids[1]) (\(absolute)/rome.jpg): deleted before it") })
        #expect(broken.err == ["stampcam: 4 rows in 1 chain walked: 3 problems; 4 photos' recorded heads checked"])

        // Merging the tampered log says so (exit 1), and the merged log names the same rows.
        let merged = try TestFiles.temporaryFolder("verify-merge") + "/all.sqlite"
        let merge = CLI.run(["log", "--merge", "--catalog", merged, catalog])
        #expect(merge.code == 1)
        #expect(merge.err.filter { $0.contains("its chain is broken: row") }.count == 2)
        #expect(CLI.run(["log", "--verify", "--catalog", merged]).out.count == 3)

        let old = try TestFiles.temporaryFolder("verify-old") + "/old.sqlite"
        _ = try ExternalTool.python("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("PRAGMA application_id = 1398033731")
            db.execute("PRAGMA user_version = 4")
            db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path ANY NOT NULL, size INTEGER, sha256 TEXT, command TEXT)")
            db.execute("INSERT INTO photos (path, size, sha256, command) VALUES ('/old.jpg', 1, ?, 'apply')", ("0" * 64,))
            db.commit()
            """, [old])
        let unchained = CLI.run(["log", "--verify", "--catalog", old])
        #expect(unchained.code == 0)
        #expect(unchained.err == ["stampcam: 0 rows in 0 chains verified intact; 1 row is unchained (logged before the chain began, not verifiable)"])
    }

    @Test("log --rebuild reads the rows back from the photos' own records; twice adds nothing; originals and other JPEGs are left out")
    func rebuild() throws {
        let base = try TestFiles.temporaryFolder("rebuild")
        let shot = CLI.run(["shoot", "--yes", "--device", "test", "--resolution", "640x360", "--keep-original", "-o", base + "/photos",
                            "--no-catalog", "--project", "Bridge 7", "--user", "Li Wei", "--gps", "48.8584,2.2945", "--set", "crew=B"])
        #expect(shot.code == 0)
        #expect(CLI.run(["apply", try Fixtures.site.write(to: base + "/in"), "-o", base + "/photos/sub", "--no-catalog",
                         "--time", "2026-11-29T14:03:12+08:00"]).code == 0)
        try TestFiles.write(try Fixtures.southWest.jpeg(), to: base + "/photos/plain.jpg")
        let catalog = base + "/catalog.sqlite"
        let first = CLI.run(["log", "--rebuild", base + "/photos", "--catalog", catalog])
        #expect(first.code == 0)
        #expect(first.err == ["stampcam: 4 JPEGs read: 2 stamped by stampcam, 2 added to \(catalog), 0 already there; 2 without a stampcam record"])
        let rows = try CatalogCommandTests.rows(catalog)
        #expect(rows.map(\.command) == [.rebuild, .rebuild])
        let shotRow = try #require(rows.first { $0.project == "Bridge 7" })
        #expect(shotRow.user == "Li Wei" && shotRow.latitude == 48.8584 && shotRow.extra == ["crew": "B"] && shotRow.style == "classic")
        #expect(shotRow.originalSHA256 == (try CatalogCommandTests.sha256(try #require(shotRow.originalPath))))
        #expect(shotRow.sha256 == (try CatalogCommandTests.sha256(shotRow.path)))
        let applied = try #require(rows.first { $0.project == nil })
        #expect(applied.time == Timestamp(iso8601: "2026-11-29T14:03:12+08:00"))
        let second = CLI.run(["log", "--rebuild", base + "/photos", "--catalog", catalog])
        #expect(second.err.first?.contains("0 added") == true)
        #expect(try CatalogCommandTests.rows(catalog).count == 2)
    }

    @Test("one catalog per shard (--shard K/N --catalog), merged with log --merge: every photo once; merging again adds nothing; a bad file is an error, the rest merged")
    func mergeShards() throws {
        let base = try TestFiles.temporaryFolder("shards")
        let input = try CatalogCommandTests.photos(9)
        for shard in 0..<3 {
            let result = CLI.run(["apply", input, "-o", base + "/out", "--shard", "\(shard)/3", "--skip-existing",
                                  "--catalog", base + "/catalog-\(shard).sqlite"])
            #expect(result.code == 0, "\(result.err)")
        }
        try TestFiles.write(Array("not a catalog".utf8), to: base + "/notes.sqlite")
        let all = base + "/all.sqlite"
        let sources = (0..<3).map { base + "/catalog-\($0).sqlite" }
        let merged = CLI.run(["log", "--merge", "--catalog", all] + sources + [base + "/notes.sqlite"])
        #expect(merged.code == 65)
        #expect(merged.err.contains { $0.contains("notes.sqlite: not a stampcam catalog: it is not an SQLite database") })
        #expect(merged.err.filter { $0.contains(" added") }.count == 3)
        let rows = try CatalogCommandTests.rows(all)
        #expect(rows.count == 9 && Set(rows.map(\.path)).count == 9)
        let again = CLI.run(["log", "--merge", "--catalog", all] + sources)
        #expect(again.code == 0 && again.err.allSatisfy { $0.hasSuffix(" 0 added") })
        #expect(CLI.run(["log", "--merge", all, "--catalog", all]).code == 64)
    }

    @Test("export --csv, --geojson, --kml: files with the filtered photos; maps leave out those without coordinates and say so")
    func export() throws {
        let (catalog, _) = try Self.crafted()
        let folder = try TestFiles.temporaryFolder("export")
        let csv = CLI.run(["export", "--csv", "--catalog", catalog, "-o", folder + "/bridge.csv", "--project", "Bridge 7"])
        #expect(csv.code == 0 && csv.out == [folder + "/bridge.csv"])
        #expect(csv.err == ["stampcam: \(folder)/bridge.csv: 4 photos exported"])
        let lines = String(decoding: try TestFiles.bytes(folder + "/bridge.csv"), as: UTF8.self).split(separator: "\r\n")
        #expect(lines.count == 5 && lines[0].hasPrefix("path,time,time_source,"))
        let geo = CLI.run(["export", "--geojson", "--catalog", catalog, "-o", folder + "/bridge.geojson", "--project", "Bridge 7"])
        #expect(geo.err == ["stampcam: \(folder)/bridge.geojson: 3 photos exported; 1 without coordinates left out (they are in --csv)"])
        let again = CLI.run(["export", "--geojson", "--catalog", catalog, "-o", folder + "/bridge.geojson"])
        #expect(again.out == [folder + "/bridge-1.geojson"])
        let kml = CLI.run(["export", "--kml", "--catalog", catalog, "-o", "-", "--user", "ana"])
        #expect(kml.out.first?.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>") == true)
        #expect(kml.out.joined(separator: "\n").components(separatedBy: "<Placemark>").count == 3)
        let checked = try ExternalTool.run("xmllint", ["--noout", folder + "/bridge.geojson"])
        #expect(checked.status != 0)  // JSON is not XML: the checker can fail
        try TestFiles.write(Array(kml.out.joined(separator: "\n").utf8), to: folder + "/ana.kml")
        #expect(try ExternalTool.run("xmllint", ["--noout", folder + "/ana.kml"]).status == 0)
    }

    @Test("export --csv -o - writes the file's bytes, no blank record after; --excel begins with a UTF-8 byte order mark")
    func csvForSpreadsheets() throws {
        let (catalog, _) = try Self.crafted()
        let folder = try TestFiles.temporaryFolder("csv")
        #expect(CLI.run(["export", "--csv", "--catalog", catalog, "-o", folder + "/all.csv"]).code == 0)
        let file = try TestFiles.bytes(folder + "/all.csv")
        let piped = CLI.run(["export", "--csv", "--catalog", catalog, "-o", "-"])
        #expect(piped.code == 0)
        // Each out line is written with a "\n" after it.
        #expect(Array(piped.out.map { $0 + "\n" }.joined().utf8) == file)
        #expect(String(decoding: file, as: UTF8.self).hasSuffix("\r\n") && !String(decoding: file, as: UTF8.self).hasSuffix("\r\n\r\n"))

        let excel = CLI.run(["export", "--csv", "--excel", "--catalog", catalog, "-o", folder + "/excel.csv"])
        #expect(excel.code == 0, "\(excel.err)")
        #expect(try TestFiles.bytes(folder + "/excel.csv") == [0xEF, 0xBB, 0xBF] + file)
        let wrong = CLI.run(["export", "--kml", "--excel", "--catalog", catalog, "-o", "-"])
        #expect(wrong.code == 64 && wrong.err.first?.contains("'--excel'") == true, "\(wrong.err)")
    }

    @Test("usage errors name the argument")
    func usage() throws {
        let catalog = try TestFiles.temporaryFolder("usage") + "/c.sqlite"
        let cases: [([String], String)] = [
            (["log", "--check", "--rebuild", "x"], "option '--rebuild': 'with --check' is not given together (choose one)"),
            (["log", "stray"], "option 'log': 'stray' is not an argument it takes"),
            (["log", "--rebuild"], "'log' needs a folder: --rebuild DIR..."),
            (["log", "--near", "91,0,5"], "option '--near': '91,0,5' is not LAT,LON,METRES"),
            (["log", "--near", "1,2"], "option '--near': '1,2' is not LAT,LON,METRES"),
            (["export", "-o", "x.csv"], "'export' needs one format: --csv, --geojson, --kml or --kmz"),
            (["export", "--kml", "--kmz", "-o", "x"], "'export' needs one format"),
            (["export", "--kmz", "--excel", "-o", "x"], "option '--excel': 'with --kmz'"),
            (["export", "--csv", "--kml", "-o", "x"], "'export' needs one format"),
            (["export", "--csv"], "'export' needs an output file: -o FILE"),
            (["report", "--per-page", "3"], "option '--per-page': '3' is not 1, 2, 4 or 6"),
            (["report", "--layout", "5"], "option '--layout': '5' is not 1, 2, 4 or 6"),
            (["report", "--sign-off", " , QA"], "option '--sign-off': ' , QA' is not a name and a role"),
        ]
        for (arguments, message) in cases {
            let result = CLI.run(arguments + ["--catalog", catalog])
            #expect(result.code == 64, "\(arguments)")
            #expect(result.err.first?.contains(message) == true, "\(arguments): \(result.err)")
        }
        let empty = CLI.run(["log", "--catalog", catalog])
        #expect(empty.code == 0 && empty.out.isEmpty)
        #expect(empty.err == ["stampcam: note: no photos logged yet (\(catalog) does not exist)"])
    }
}

/// The clock, for tests of words like "today".
enum FieldPolicyNow {
    static func iso() -> String {
        let now = WallClock.now()
        return Timestamp(secondsSinceEpoch: now.secondsSinceEpoch, utcOffsetMinutes: now.utcOffsetMinutes).iso8601
    }

    /// Today's weekday in the local zone, 0 for Sunday.
    static func weekday() -> Int {
        let now = WallClock.now()
        let local = now.secondsSinceEpoch + now.utcOffsetMinutes * 60
        return ((local / 86400 + 4) % 7 + 7) % 7
    }
}
