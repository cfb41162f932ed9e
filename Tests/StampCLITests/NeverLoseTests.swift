import Foundation
import Imaging
import Platform
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The data-loss, wrong-success and crash findings of hostile testing, each as it was found.
@Suite struct NeverLoseTests {
    static var photo: [UInt8] { (try? Fixtures.site.jpeg()) ?? [] }
    /// A photo whose EXIF Artist tells it apart after stamping.
    static func photo(artist: String) throws -> [UInt8] {
        var record = ExifRecord()
        record.artist = artist
        record.dateTime = Fixtures.dateTime
        return try FixturePhoto(name: "x.jpg", width: 320, height: 200, exif: record).jpeg()
    }

    static func artist(_ path: String) throws -> String? {
        try Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 16)).metadata.artist
    }

    static func sha(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

    @Test("styles --sheet PHOTO -o PHOTO never replaces the photo: numbered without --overwrite, refused with it")
    func sheetOverInput() throws {
        let folder = try TestFiles.temporaryFolder("sheet")
        let input = folder + "/IMG.jpg"
        try TestFiles.write(Self.photo, to: input)
        let numbered = CLI.run(["styles", "--sheet", input, "-o", input])
        #expect(numbered.code == 0)
        #expect(numbered.out == [folder + "/IMG-1.jpg"])
        let refused = CLI.run(["styles", "--sheet", input, "-o", input, "--overwrite"])
        #expect(refused.code == 73)
        #expect(refused.err == ["stampcam: \(input): refusing to write over an input photo"])
        #expect(try TestFiles.bytes(input) == Self.photo)
    }

    @Test("-o FIFO --overwrite (export, report, styles --sheet): written into, still a FIFO")
    func overwriteFIFO() throws {
        let (catalog, out) = try LogCommandTests.crafted()
        let folder = try TestFiles.temporaryFolder("fifo-out")
        for (name, command) in [("export.csv", "export --csv --catalog \(catalog)"), ("report.pdf", "report --catalog \(catalog)"),
                                ("sheet.jpg", "styles --sheet \(out)/eiffel.jpg")] {
            let fifo = folder + "/" + name
            #expect(mkfifo(fifo, 0o644) == 0)
            // The reader opens the FIFO by itself; stampcam's open waits for it.
            let result = try CLI.shell("cat \(fifo) > \(fifo).got & \(CLI.binary) \(command) -o \(fifo) --overwrite; code=$?; wait; exit $code")
            #expect(result.code == 0, "\(name): \(result.err)")
            #expect(FileStatus(linkAt: FilePath(fifo))?.kind == .fifo, "\(name)")
            #expect(try TestFiles.bytes(fifo + ".got").count > 100, "\(name)")
        }
    }

    @Test("-o DEVICE --overwrite, or a link to one: never replaced by a file (written into, or refused for a photo)")
    func overwriteDevice() throws {
        guard getuid() == 0 else {
            print("skipped: making a device node (mknod) needs root")
            return
        }
        let (catalog, out) = try LogCommandTests.crafted()
        let folder = try TestFiles.temporaryFolder("device-out")
        let device = folder + "/null"
        #expect(try CLI.shell("mknod \(device) c 1 3 && mknod \(folder)/dev.jpg c 1 3").code == 0)  // copies of /dev/null
        #expect(symlink(device, folder + "/link.pdf") == 0 && symlink(device, folder + "/link.jpg") == 0)
        for (target, command) in [(device, ["export", "--csv", "--catalog", catalog]), (folder + "/link.pdf", ["report", "--catalog", catalog]),
                                  (device, ["styles", "--sheet", out + "/eiffel.jpg"])] {
            let result = CLI.run(command + ["-o", target, "--overwrite"])
            #expect(result.code == 0, "\(command): \(result.err)")
        }
        let input = try Fixtures.site.write(to: try TestFiles.temporaryFolder("in"))
        for target in [folder + "/link.jpg", folder + "/dev.jpg"] {
            let photo = CLI.run(["apply", input, "-o", target, "--overwrite"])
            #expect(photo.code == 73)
            let kind = target.hasSuffix("link.jpg") ? "a symbolic link" : "a character device"
            #expect(photo.err.first == "stampcam: \(target): cannot create: it is \(kind), not a regular file, and stampcam replaces only files")
        }
        #expect(FileStatus(linkAt: FilePath(device))?.kind == .characterDevice)
        #expect(FileStatus(linkAt: FilePath(folder + "/dev.jpg"))?.kind == .characterDevice)
        #expect(FileStatus(linkAt: FilePath(folder + "/link.pdf"))?.kind == .symbolicLink)
        #expect(FileStatus(linkAt: FilePath(folder + "/link.jpg"))?.kind == .symbolicLink)
        #expect(TestFiles.files(in: folder).sorted() == ["dev.jpg", "link.jpg", "link.pdf", "null"])
    }

    @Test("two inputs with the same name: both stamped, numbered in input order, every run (also with --overwrite)")
    func sameNames() throws {
        let root = try TestFiles.temporaryFolder("same")
        try TestFiles.write(try Self.photo(artist: "first"), to: root + "/100CANON/IMG.jpg", creatingFolders: true)
        try TestFiles.write(try Self.photo(artist: "second"), to: root + "/101CANON/IMG.jpg", creatingFolders: true)
        let out = root + "/out"
        for options in [["--skip-existing"], ["--overwrite"], []] {
            try? FileManager.default.removeItem(atPath: out)
            let result = CLI.run(["apply", root + "/100CANON", root + "/101CANON", "-o", out] + options)
            #expect(result.code == 0, "\(options)")
            #expect(TestFiles.files(in: out) == ["IMG-1.jpg", "IMG.jpg"], "\(options)")
            #expect(try Self.artist(out + "/IMG.jpg") == "first")
            #expect(try Self.artist(out + "/IMG-1.jpg") == "second")
        }
        // Resuming: --skip-existing skips only what an earlier run wrote, the same photo under the same name.
        try FileManager.default.removeItem(atPath: out + "/IMG.jpg")
        let resumed = CLI.run(["apply", root + "/100CANON", root + "/101CANON", "-o", out, "--skip-existing", "--json"])
        #expect(resumed.out.filter { $0.contains("\"status\":\"done\"") }.count == 1)
        #expect(try Self.artist(out + "/IMG.jpg") == "first")
        // A --name all photos share: one file each, none replaced.
        let dated = root + "/dated"
        let named = CLI.run(["apply", root + "/100CANON", root + "/101CANON", "-o", dated, "--name", "{date}", "--overwrite"])
        #expect(named.code == 0)
        #expect(TestFiles.files(in: dated) == ["2021-06-14-1.jpg", "2021-06-14.jpg"])
    }

    @Test("two --skip-existing runs into one folder at once share the work: every photo once, no -1 copies")
    func concurrentRuns() throws {
        let input = try TestFiles.temporaryFolder("share-in")
        for index in 0..<12 { try TestFiles.write(Self.photo, to: input + "/p\(index).jpg") }
        let out = try TestFiles.temporaryFolder("share-out")
        let command = "\(CLI.binary) apply \(input) -o \(out) --skip-existing -j 2 -q --max-size 0"
        let both = try CLI.shell("(\(command) & \(command) & wait)")
        #expect(both.code == 0)
        #expect(TestFiles.files(in: out) == (0..<12).map { "p\($0).jpg" }.sorted())
    }

    @Test("names that are not UTF-8 are stamped under the same bytes, from a folder and named on the command line")
    func nonUTF8() throws {
        let folder = try TestFiles.temporaryFolder("latin1")
        let name = PathEncoding.decode([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])  // caf\xe9.jpg
        let fd = FilePath(folder + "/" + name).withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        try #require(fd >= 0)
        try FileSystem.writeAll(fd, Self.photo)
        close(fd)
        let fromFolder = CLI.run(["apply", folder, "-o", folder + "/out-folder"])
        #expect(fromFolder.code == 0)
        #expect(FileSystem.exists(FilePath(folder + "/out-folder/" + name)))
        let named = try CLI.shell("\(CLI.binary) apply $'\(folder)/caf\\xe9.jpg' -o \(folder)/out-named")
        #expect(named.code == 0)
        #expect(FileSystem.exists(FilePath(folder + "/out-named/" + name)))
        let missing = try CLI.shell("\(CLI.binary) apply $'\(folder)/caf\\xe8.jpg' -o \(folder)/out-missing")
        #expect(missing.err.first == "stampcam: \(folder)/caf\\xE8.jpg: cannot read: No such file or directory")
    }

    @Test("an output folder of an earlier run inside an input folder is not stamped again")
    func outputInsideInput() throws {
        let input = try TestFiles.temporaryFolder("nested")
        try TestFiles.write(Self.photo, to: input + "/a.jpg")
        #expect(CLI.run(["apply", input, "-o", input + "/stamped"]).code == 0)
        let elsewhere = try TestFiles.temporaryFolder("nested-out")
        let second = CLI.run(["apply", input, "-o", elsewhere])
        #expect(second.code == 0)
        #expect(second.err.contains { $0.contains("stamped: skipped: it holds photos stampcam stamped earlier") })
        #expect(TestFiles.files(in: elsewhere) == ["a.jpg"])
        let direct = CLI.run(["apply", input + "/stamped", "-o", input + "/again"])
        #expect(direct.code == 66)
        #expect(direct.err.first?.contains("they are not stamped twice") == true)
    }

    @Test("a FIFO or a device named like a photo in a folder: one line each, no hang, the rest done")
    func nonRegular() throws {
        let folder = try TestFiles.temporaryFolder("fifo")
        try TestFiles.write(Self.photo, to: folder + "/good.jpg")
        #expect(mkfifo(folder + "/pipe.jpg", 0o644) == 0)
        #expect(symlink("/dev/zero", folder + "/zero.jpg") == 0)
        let result = try CLI.shell("timeout 20 \(CLI.binary) apply \(folder) -o \(folder)/out")
        #expect(result.code == 66)
        #expect(result.err.contains("stampcam: \(folder)/pipe.jpg: cannot read: a FIFO (named pipe), not a photo file"))
        #expect(result.err.contains("stampcam: \(folder)/zero.jpg: cannot read: a character device, not a photo file"))
        #expect(TestFiles.files(in: folder + "/out") == ["good.jpg"])
    }

    @Test("a template that check rejects is rejected by apply and shoot too, before any photo: one line, exit 65")
    func invalidTemplate() throws {
        let folder = try TestFiles.temporaryFolder("bad-template")
        try TestFiles.write(Self.photo, to: folder + "/a.jpg")
        try TestFiles.write(Array(#"{"version": 1, "id": "x", "blocks": [{"lines": ["<span foreground=\"nocolor\">{user}</span>", "{projcet}"]}]}"#.utf8),
                            to: folder + "/x.json")
        let check = CLI.run(["templates", "check", folder + "/x.json"])
        #expect(check.code == 65)
        // The first photo is read while the style is checked: it being broken, and another being
        // missing, are not told either; the style's error is the one line.
        try TestFiles.write(Array("not a photo".utf8), to: folder + "/broken.jpg")
        let apply = CLI.run(["apply", folder + "/broken.jpg", folder + "/a.jpg", folder + "/missing.jpg", "-o", folder + "/out",
                             "--template", folder + "/x.json"])
        #expect(apply.code == 65)
        #expect(apply.err.count == 1, "\(apply.err)")
        #expect(apply.err.first?.hasPrefix("stampcam: x.json: blocks[0].lines[0]:") == true)
        #expect(!FileSystem.exists(FilePath(folder + "/out")), "no output folder is made")
        // With a good style the same inputs give the photo, and a line for each of the others.
        let good = CLI.run(["apply", folder + "/broken.jpg", folder + "/a.jpg", folder + "/missing.jpg", "-o", folder + "/out"])
        #expect(good.code == 66 || good.code == 65, "\(good.err)")
        #expect(good.err.filter { $0.hasSuffix("not a JPEG file") || $0.hasSuffix("No such file or directory") }.count == 2, "\(good.err)")
        #expect(TestFiles.files(in: folder + "/out") == ["a.jpg"])
        // shoot --yes checks the style while the camera settles for the first photo: it is not saved.
        let shoot = CLI.run(["shoot", "--yes", "--device", "test", "-o", folder + "/shots", "--template", folder + "/x.json"])
        #expect(shoot.code == 65)
        #expect(shoot.err.count == 1 && shoot.err.first?.hasPrefix("stampcam: x.json: blocks[0].lines[0]:") == true, "\(shoot.err)")
        #expect(!FileSystem.exists(FilePath(folder + "/shots")), "the folder made for the run is removed, nothing in it")
    }

    @Test("a missing template file is 66 with the reason; a --template-dir that is not there is an error")
    func missingTemplates() throws {
        let missing = CLI.run(["test-card", "-o", "/tmp", "--template", "/nonexistent/nope.json"])
        #expect(missing.code == 66)
        #expect(missing.err == ["stampcam: /nonexistent/nope.json: cannot read: cannot read this template: No such file or directory"])
        let folder = CLI.run(["styles", "--template-dir", "/nonexistent/styles"])
        #expect(folder.code == 66)
        #expect(folder.err == ["stampcam: /nonexistent/styles: cannot read: cannot read this template folder: No such file or directory"])
    }

    @Test("a config path that is a folder is an error naming it")
    func configFolder() throws {
        let home = try TestFiles.temporaryFolder("config-dir")
        try FileManager.default.createDirectory(atPath: home + "/stampcam/config.json", withIntermediateDirectories: true)
        let result = CLI.run(["styles"], environment: ["XDG_CONFIG_HOME": home])
        #expect(result.code == 64)
        #expect(result.err.first?.contains("\(home)/stampcam/config.json") == true)
    }

    @Test("--exec runs without a shell; in a sh -c script {} is quoted; names keep no shell characters from fields")
    func execInjection() throws {
        let folder = try TestFiles.temporaryFolder("exec")
        let result = try CLI.shell("cd \(folder) && \(CLI.binary) shoot --yes --device test -o photos --name '{user}' "
            + "--user 'x$(touch PWNED);`touch PWNED2`' --exec \"sh -c 'echo got {}'\"")
        #expect(result.code == 0, "\(result.err)")
        #expect(!FileSystem.exists(FilePath(folder + "/PWNED")) && !FileSystem.exists(FilePath(folder + "/PWNED2")))
        // The share command runs beside the next photo: its line may come before or after the path.
        #expect(result.out.sorted() == ["got photos/x_(touch PWNED)__touch PWNED2_.jpg", "photos/x_(touch PWNED)__touch PWNED2_.jpg"])
        let environment = try CLI.shell("\(CLI.binary) shoot --yes --device test -o \(folder)/env --exec 'printenv STAMPCAM_PHOTO'")
        #expect(environment.out.count == 2 && environment.out[0] == environment.out[1])
    }

    @Test("numbers from the command line never crash: --zoom 1e19 is refused; a 2-hour --interval is interrupted by Ctrl-C")
    func numbers() throws {
        let zoom = CLI.run(["shoot", "--yes", "--device", "test", "--zoom", "1e19", "-o", "/tmp/never"])
        #expect(zoom.code == 64)
        let folder = try TestFiles.temporaryFolder("interval")
        let pid = try Subprocess.spawn([CLI.binary, "shoot", "--yes", "--device", "test", "--count", "2", "--interval", "7200",
                                        "-o", folder + "/photos"], output: folder + "/out", errors: folder + "/err")
        // The first photo's path printed: the series is in its long wait.
        #expect(waitUntil { (try? String(contentsOfFile: folder + "/out", encoding: .utf8))?.contains(".jpg") == true })
        kill(pid, SIGINT)
        #expect(try Subprocess.wait(pid) == .exited(130))
        #expect(Photos.count(folder + "/photos") == 1)
    }

    @Test("--keep-original on a full disk says exactly which files were saved")
    func keepOriginalFullDisk() throws {
        let folder = try TestFiles.temporaryFolder("full")
        // A grey stamp makes the stamped photo (16.3 KB with its EXIF and XMP) smaller than the colour original
        // (18.7 KB), so only the original hits the 17 KB limit. Unsigned: the manifest would make it the larger.
        try TestFiles.write(Array(#"{"version": 1, "id": "grey", "tone": "mono", "blocks": [{"lines": ["{user}"]}]}"#.utf8),
                            to: folder + "/grey.json")
        let result = try CLI.shell("ulimit -f 17; exec \(CLI.binary) shoot --yes --device test --resolution 640x360 "
            + "--keep-original --no-sign -t \(folder)/grey.json --user Ana -o \(folder)/photos")
        #expect(result.code == 74)
        let photos = Photos.names(folder + "/photos")
        #expect(photos.count == 1)
        #expect(result.err.last?.contains("file too large") == true)
        #expect(result.err.last?.hasSuffix("; saved: \(folder)/photos/\(photos.first ?? "?")") == true)
        #expect(!TestFiles.files(in: folder + "/photos").contains { $0.hasSuffix(".original.jpg") || $0.hasPrefix(".stampcam-") })
    }
}

/// Stamped photos in a shoot folder (not originals).
enum Photos {
    static func names(_ folder: String) -> [String] {
        TestFiles.files(in: folder).filter { $0.hasSuffix(".jpg") && !$0.hasSuffix(".original.jpg") }
    }
    static func count(_ folder: String) -> Int { names(folder).count }
}
