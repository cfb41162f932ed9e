import Catalog
import Foundation
import Platform
import Templates
import Testing
import TestSupport
import Values

/// The photo log end to end: rows for every command that writes photos, where the catalog lives,
/// what happens when it cannot be written, several writers, kill -9, and `log` with its filters,
/// `--check`, `--rebuild` and `--merge`.
@Suite struct CatalogCommandTests {
    static func rows(_ catalog: String) throws -> [CatalogEntry] {
        try Catalog(reading: catalog).entries().entries
    }

    /// SHA-256 of a file by Python's hashlib (not stampcam's own hashing).
    static func sha256(_ path: String) throws -> String {
        try ExternalTool.python("import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", [path])
            .out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `count` copies of the site fixture in a new folder.
    static func photos(_ count: Int, label: String = "in") throws -> String {
        let folder = try TestFiles.temporaryFolder(label)
        for index in 0..<count {
            try TestFiles.write(try Fixtures.site.jpeg(), to: folder + "/photo-\(index < 10 ? "0" : "")\(index).jpg")
        }
        return folder
    }

    @Test("shoot, apply and restamp each log their photos: path, size and SHA-256 of the file and of the kept original, fields, style, source, command, host")
    func rowsForEveryCommand() throws {
        let base = try TestFiles.temporaryFolder("rows")
        let catalog = base + "/catalog.sqlite"
        let shot = CLI.run(["shoot", "--yes", "--device", "test", "--resolution", "640x360", "--keep-original", "-o", base + "/shots",
                            "--user", "Li Wei", "--project", "Bridge 7", "--location", "Pier 4", "--note", "north wall",
                            "--gps", "48.8584,2.2945", "--set", "city=Paris", "--catalog", catalog])
        #expect(shot.code == 0, "\(shot.err)")
        let shotPath = try #require(shot.out.last)
        let input = try Self.photos(1)
        let applied = CLI.run(["apply", input, "-o", base + "/stamped", "--project", "Bridge 7", "--time", "2026-11-29T14:03:12+08:00",
                               "-t", "banner", "--catalog", catalog])
        #expect(applied.code == 0, "\(applied.err)")
        let restamped = CLI.run(["restamp", shotPath, "-t", "geo", "--catalog", catalog])
        #expect(restamped.code == 0, "\(restamped.err)")
        let restampPath = try #require(restamped.out.last)

        let rows = try Self.rows(catalog)
        #expect(rows.map(\.command.rawValue).sorted() == ["apply", "restamp", "shoot"])
        let shoot = try #require(rows.first { $0.command == .shoot })
        #expect(shoot.path == FileSystem.absolute(shotPath))
        #expect(shoot.sha256 == (try Self.sha256(shotPath)))
        #expect(shoot.size == (try TestFiles.bytes(shotPath)).count)
        let original = shotPath.replacingOccurrences(of: ".jpg", with: ".original.jpg")
        #expect(shoot.originalPath == FileSystem.absolute(original))
        #expect(shoot.originalSHA256 == (try Self.sha256(original)))
        #expect(shoot.user == "Li Wei" && shoot.project == "Bridge 7" && shoot.location == "Pier 4" && shoot.note == "north wall")
        #expect(shoot.latitude == 48.8584 && shoot.longitude == 2.2945 && shoot.extra == ["city": "Paris"])
        #expect(shoot.timeSource == "camera clock" && shoot.time != nil && shoot.camera != nil && shoot.source == nil)
        #expect(shoot.style == "classic" && shoot.styleVersion != nil && shoot.host == HostName.current && shoot.stampedAt != nil)

        let apply = try #require(rows.first { $0.command == .apply })
        #expect(apply.path == FileSystem.absolute(base + "/stamped/photo-00.jpg"))
        #expect(apply.sha256 == (try Self.sha256(base + "/stamped/photo-00.jpg")))
        #expect(apply.source == FileSystem.absolute(input + "/photo-00.jpg"))
        #expect(apply.time == Timestamp(iso8601: "2026-11-29T14:03:12+08:00") && apply.timeSource == "command line")
        #expect(apply.user == "Ana Lima" && abs((apply.latitude ?? 0) - 43.467448) < 1e-6 && apply.style == "banner" && apply.originalPath == nil, "\(apply)")

        let restamp = try #require(rows.first { $0.command == .restamp })
        #expect(restamp.path == FileSystem.absolute(restampPath) && restamp.style == "geo")
        #expect(restamp.source == FileSystem.absolute(original) && restamp.originalSHA256 == shoot.originalSHA256)
        #expect(restamp.project == "Bridge 7" && restamp.time == shoot.time)
    }

    @Test("--no-catalog logs nothing and makes no file")
    func noCatalog() throws {
        let base = try TestFiles.temporaryFolder("nocat")
        let result = CLI.run(["apply", try Self.photos(1), "-o", base + "/out", "--catalog", base + "/c.sqlite", "--no-catalog"])
        #expect(result.code == 0 && !result.err.contains { $0.contains("catalog") })
        #expect(!FileManager.default.fileExists(atPath: base + "/c.sqlite"))
    }

    @Test("the catalog is $XDG_DATA_HOME/stampcam/catalog.sqlite, else ~/.local/share/stampcam/catalog.sqlite (a relative XDG_DATA_HOME is ignored)")
    func defaultLocation() throws {
        let base = try TestFiles.temporaryFolder("where")
        let input = try Self.photos(1)
        #expect(CLI.run(["apply", input, "-o", base + "/a"], environment: ["XDG_DATA_HOME": base + "/data"]).code == 0)
        #expect(try Self.rows(base + "/data/stampcam/catalog.sqlite").count == 1)
        #expect(CLI.run(["apply", input, "-o", base + "/b"], environment: ["XDG_DATA_HOME": "relative", "HOME": base + "/home"]).code == 0)
        #expect(try Self.rows(base + "/home/.local/share/stampcam/catalog.sqlite").count == 1)
        let listed = CLI.run(["log"], environment: ["XDG_DATA_HOME": base + "/data"])
        #expect(listed.out == [FileSystem.absolute(base + "/a/photo-00.jpg")])
    }

    @Test("the config file's catalog key moves the catalog; its project is a default for new photos, not a filter of log")
    func configKey() throws {
        let base = try TestFiles.temporaryFolder("config")
        let catalog = base + "/from-config.sqlite"
        try TestFiles.write(Array(#"{"catalog": "\#(catalog)", "project": "Bridge 7"}"#.utf8), to: base + "/config/stampcam/config.json",
                            creatingFolders: true)
        let environment = ["XDG_CONFIG_HOME": base + "/config"]
        #expect(CLI.run(["apply", try Self.photos(1), "-o", base + "/a"], environment: environment).code == 0)
        #expect(CLI.run(["apply", try Self.photos(1), "-o", base + "/b", "--project", "Harbour"], environment: environment).code == 0)
        #expect(try Self.rows(catalog).map(\.project) == ["Bridge 7", "Harbour"])
        #expect(CLI.run(["log"], environment: environment).out.count == 2)
        #expect(CLI.run(["log", "--project", "harbour"], environment: environment).out == [FileSystem.absolute(base + "/b/photo-00.jpg")])
    }

    @Test("a catalog that cannot be written: one warning, the photos are saved, the run succeeds and says how to add them later")
    func unwritableCatalog() throws {
        let base = try TestFiles.temporaryFolder("readonly")
        try TestFiles.write([1], to: base + "/file")
        let result = CLI.run(["apply", try Self.photos(3), "-o", base + "/out", "-j", "2", "--catalog", base + "/file/catalog.sqlite"])
        #expect(result.code == 0, "\(result.err)")
        #expect(TestFiles.files(in: base + "/out").count == 3)
        let warnings = result.err.filter { $0.contains("warning: not logged in the catalog") }
        #expect(warnings.count == 1, "\(result.err)")
        #expect(warnings.first?.contains("cannot open the catalog: its folder cannot be made") == true)
        #expect(result.err.contains("stampcam: warning: 3 photos were saved but not logged in the catalog; 'stampcam log --rebuild \(base)/out' adds them once the catalog can be written"))
    }

    @Test("a catalog in a folder the user may not write (run as nobody): the photo is saved with a warning", .enabled(if: CLI.unprivilegedCanRun))
    func readOnlyFolder() throws {
        let base = try TestFiles.temporaryFolder("nobody")
        let input = try Self.photos(1)
        try FileManager.default.createDirectory(atPath: base + "/locked", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/out", withIntermediateDirectories: true)
        chmod(base + "/locked", 0o555)
        for path in [base, base + "/out", input, input + "/photo-00.jpg"] { chmod(path, 0o777) }
        let prefix = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups -- " : ""
        // nobody has no home to keep signing keys in: unsigned, to see the catalog alone.
        let result = try CLI.shell(prefix + "\(CLI.binary) apply \(CLI.quoted(input)) -o \(CLI.quoted(base + "/out")) --catalog \(CLI.quoted(base + "/locked/c.sqlite")) --no-sign 2>&1")
        #expect(result.code == 0, "\(result.out)")
        #expect(TestFiles.files(in: base + "/out") == ["photo-00.jpg"])
        #expect(result.out.contains { $0.contains("warning: not logged in the catalog: \(base)/locked/c.sqlite: cannot open the catalog: its folder cannot be written to: permission denied") },
                "\(result.out)")
    }

    /// Whether this test process may mount (root in a namespace that allows it): a read-only bind mount.
    static let canMount: Bool = (try? CLI.shell("d=$(mktemp -d) && mount --bind \"$d\" \"$d\" && umount \"$d\""))?.code == 0

    @Test("a catalog on a read-only file system is read by log, export and report, nothing written beside it",
          .enabled(if: canMount))
    func readOnlyFileSystem() throws {
        let base = try TestFiles.temporaryFolder("rofs")
        try FileManager.default.createDirectory(atPath: base + "/disk", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/mounted", withIntermediateDirectories: true)
        let apply = CLI.run(["apply", try Self.photos(2), "-o", base + "/out", "--project", "Bridge 7", "--catalog", base + "/disk/c.sqlite"])
        #expect(apply.code == 0, "\(apply.err)")
        let mount = try CLI.shell("mount --bind \(CLI.quoted(base + "/disk")) \(CLI.quoted(base + "/mounted")) && mount -o remount,ro,bind \(CLI.quoted(base + "/mounted"))")
        #expect(mount.code == 0, "\(mount.err)")
        defer { _ = try? CLI.shell("umount \(CLI.quoted(base + "/mounted"))") }
        let catalog = base + "/mounted/c.sqlite"
        let log = CLI.run(["log", "--catalog", catalog, "--project", "bridge"])
        #expect(log.code == 0 && log.out.count == 2, "\(log.err)")
        let export = CLI.run(["export", "--csv", "--catalog", catalog, "-o", "-"])
        #expect(export.code == 0 && export.out.joined().split(separator: "\r\n").count == 3, "\(export.err)")
        let report = CLI.run(["report", "--catalog", catalog, "-o", base + "/report.pdf"])
        #expect(report.code == 0, "\(report.err)")
        #expect(!FileManager.default.fileExists(atPath: base + "/disk/c.sqlite-shm"))
    }

    @Test("two apply runs at once into one catalog: every photo of both is logged, the file is sound")
    func concurrentRuns() throws {
        let base = try TestFiles.temporaryFolder("two")
        let catalog = base + "/catalog.sqlite"
        let input = try Self.photos(12)
        let runs = try (0..<2).map { run in
            try Subprocess.spawn([CLI.binary, "apply", input, "-o", base + "/out\(run)", "-j", "2", "-q", "--catalog", catalog],
                                 output: "/dev/null", errors: base + "/err\(run)")
        }
        for pid in runs { #expect(try Subprocess.wait(pid) == .exited(0)) }
        for run in 0..<2 { #expect(try TestFiles.bytes(base + "/err\(run)").isEmpty) }
        let rows = try Self.rows(catalog)
        #expect(rows.count == 24)
        #expect(Set(rows.map(\.path)).count == 24)
        #expect(try Catalog(path: catalog).integrityProblems().isEmpty)
    }

    @Test("kill -9 during a batch: the catalog passes PRAGMA integrity_check every time; a re-run completes, --rebuild fills any gap")
    func killNine() throws {
        let base = try TestFiles.temporaryFolder("kill9")
        let catalog = base + "/catalog.sqlite"
        let input = try BatchTests.batchFolder()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<6 {
            let process = try BatchTests.launch(["apply", input, "-o", base + "/out", "-j", "2", "--skip-existing", "--catalog", catalog])
            usleep(UInt32.random(in: 50_000...600_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard FileManager.default.fileExists(atPath: catalog) else { continue }
            let check = try ExternalTool.python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])", [catalog])
            #expect(check.out == "ok\n", "\(check.out)\(check.err)")
        }
        let rerun = try CLI.shell("\(CLI.binary) apply \(CLI.quoted(input)) -o \(CLI.quoted(base + "/out")) --skip-existing -q --catalog \(CLI.quoted(catalog))")
        #expect(rerun.code == 0, "\(rerun.err)")
        let outputs = BatchTests.outputs(base + "/out")
        #expect(outputs.count == BatchTests.batch.count)
        // A photo finished in the instant before a kill may lack its row: --rebuild adds exactly those.
        let rebuilt = CLI.run(["log", "--rebuild", base + "/out", "--catalog", catalog])
        #expect(rebuilt.code == 0, "\(rebuilt.err)")
        let rows = try Self.rows(catalog)
        #expect(Set(rows.map(\.path)) == Set(outputs.map { FileSystem.absolute(base + "/out/" + $0) }))
        #expect(rows.count == outputs.count)
        #expect(try Catalog(path: catalog).integrityProblems().isEmpty)
    }
}
