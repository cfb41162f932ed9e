import Foundation
import Testing
import TestSupport
import Imaging

@Suite struct ApplyCommandTests {
    /// 1800x1200 upright, stored turned a quarter (EXIF orientation 6).
    static let landscape: FixturePhoto = {
        var photo = Fixtures.oriented(.right, width: 1800, height: 1200)
        photo.name = "landscape-6.jpg"
        return photo
    }()

    /// The photos in a folder of their own: (landscape, site).
    static func photos() throws -> (landscape: String, site: String) {
        let folder = try TestFiles.temporaryFolder("in")
        return (try landscape.write(to: folder), try Fixtures.site.write(to: folder))
    }

    @Test("stamps photos into the folder, named like the input, upright and ≤1024 px, EXIF kept")
    func stampsPhotos() throws {
        let out = try TestFiles.temporaryFolder("apply")
        let (landscape, site) = try Self.photos()
        let result = CLI.run(["apply", landscape, site, "-o", out, "--user", "Ana", "--project", "P-7"])
        #expect(result.code == 0)
        #expect(result.out.sorted() == [out + "/landscape-6.jpg", out + "/site.jpg"])
        #expect(TestFiles.files(in: out) == ["landscape-6.jpg", "site.jpg"])
        let turned = try Photo(jpeg: try TestFiles.bytes(out + "/landscape-6.jpg"), options: LoadOptions(maxSize: 0))
        #expect(turned.width == 1024 && turned.height == 683)
        #expect(turned.metadata.orientation == .up)
        // Upright: above the stamp it is the card.
        let card = try Fixtures.card(width: 1024, height: 683)
        #expect(PixelCompare.meanDifference(card, turned.bitmap, x: 0..<1024, y: 0..<400) < 4)
        let gps = try Photo(jpeg: try TestFiles.bytes(out + "/site.jpg"), options: LoadOptions(maxSize: 0))
        #expect(gps.metadata.dateTimeOriginal == Fixtures.dateTime)
        let position = try #require(gps.metadata.gps)
        #expect(abs(position.latitude - 43.467448) < 0.000_001 && abs(position.longitude - 11.885127) < 0.000_001)
        // The source's own tags stay; Artist is now the user the stamp names.
        #expect(gps.metadata.make == "Fixture Optics" && gps.metadata.artist == "Ana")
    }

    @Test("the stamp is drawn: the output differs from an unstamped resize at the bottom-left only")
    func stampIsDrawn() throws {
        let out = try TestFiles.temporaryFolder("apply")
        let site = try Self.photos().site
        #expect(CLI.run(["apply", site, "-o", out, "--time", "2026-11-29T14:03:12+08:00"]).code == 0)
        let stamped = try Photo(jpeg: try TestFiles.bytes(out + "/site.jpg"), options: LoadOptions(maxSize: 0))
        let plain = try Photo(jpeg: try TestFiles.bytes(site), options: LoadOptions(maxSize: 0))
        // Away from the stamp only JPEG re-encoding noise remains.
        let stamp = PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 20..<150, y: 420..<470)
        let elsewhere = PixelCompare.meanDifference(plain.bitmap, stamped.bitmap, x: 400..<640, y: 0..<200)
        #expect(stamp > 25, "stamp region differs by \(stamp)")
        #expect(elsewhere < 6, "untouched region differs by \(elsewhere)")
    }

    @Test("a second run adds -1 instead of overwriting; --overwrite replaces")
    func noOverwrite() throws {
        let out = try TestFiles.temporaryFolder("apply")
        let site = try Self.photos().site
        #expect(CLI.run(["apply", site, "-o", out]).code == 0)
        #expect(CLI.run(["apply", site, "-o", out]).out == [out + "/site-1.jpg"])
        #expect(CLI.run(["apply", site, "-o", out, "--overwrite"]).out == [out + "/site.jpg"])
        #expect(TestFiles.files(in: out) == ["site-1.jpg", "site.jpg"])
    }

    @Test("an output that would replace its input is refused, also with --overwrite")
    func protectsInput() throws {
        let folder = try TestFiles.temporaryFolder("apply")
        let original = try Fixtures.site.jpeg()
        try TestFiles.write(original, to: folder + "/photo.jpg")
        for extra in [[], ["--overwrite"]] {
            let result = CLI.run(["apply", folder + "/photo.jpg", "-o", folder] + extra)
            #expect(result.code == 73)
            #expect(result.err.first == "stampcam: \(folder)/photo.jpg: refusing to write over an input photo")
        }
        #expect(try TestFiles.bytes(folder + "/photo.jpg") == original)
        #expect(TestFiles.files(in: folder) == ["photo.jpg"])
    }

    @Test("usage errors exit 64 and say what is missing")
    func usage() {
        let noOutput = CLI.run(["apply", "a.jpg"])
        #expect(noOutput.code == 64)
        #expect(noOutput.err == ["stampcam: 'apply' needs an output folder: -o DIR (see 'stampcam apply --help')"])
        #expect(CLI.run(["apply", "-o", "x"]).code == 64)
        let badTime = CLI.run(["apply", "a.jpg", "-o", "x", "--time", "yesterday"])
        #expect(badTime.code == 64)
        #expect(badTime.err.first?.contains("'yesterday' is not an ISO 8601 time") == true)
        #expect(CLI.run(["frobnicate"]).code == 64)
        #expect(CLI.run(["apply", "--help"]).code == 0)
    }
}

@Suite struct BadInputTests {
    static var goodBytes: [UInt8] { (try? Fixtures.site.jpeg()) ?? [] }

    /// The bad inputs of the issue, made from a good photo: name → (bytes, message).
    static func bad(_ name: String) -> (bytes: [UInt8], message: String) {
        switch name {
        case "empty.jpg": return ([], "empty file (0 bytes)")
        case "text.jpg": return (Array("just some text\n".utf8), "not a JPEG file")
        case "truncated.jpg": return (BadJPEG.truncated(goodBytes), "truncated JPEG (the data ends before the image does); --salvage stamps what decodes")
        case "deep.jpg": return (BadJPEG.twelveBit(goodBytes), "12-bit JPEG is not supported (only 8-bit)")
        default: return (BadJPEG.resized(goodBytes, width: 60000, height: 60000),
                         "60000x60000 (3600 MP) is above the limit of 200 MP; raise the limit with --max-pixels")
        }
    }

    /// A folder with one good photo and `name` holding `bytes`.
    static func batch(_ name: String, _ bytes: [UInt8]) throws -> (folder: String, bad: String, good: String) {
        let folder = try TestFiles.temporaryFolder("bad")
        try TestFiles.write(bytes, to: folder + "/" + name)
        try TestFiles.write(goodBytes, to: folder + "/good.jpg")
        return (folder, folder + "/" + name, folder + "/good.jpg")
    }

    @Test("each bad photo: one line naming it, exit 65, the good one still done, inputs untouched",
          arguments: ["empty.jpg", "text.jpg", "truncated.jpg", "deep.jpg", "huge.jpg"])
    func badPhoto(name: String) throws {
        let (bytes, message) = Self.bad(name)
        let (folder, bad, good) = try Self.batch(name, bytes)
        let out = folder + "/out"
        let result = CLI.run(["apply", bad, good, "-o", out])
        #expect(result.code == 65)
        #expect(result.err.count == 2)
        #expect(result.err.first == "stampcam: \(bad): \(message)")
        #expect(result.err.last?.hasPrefix("stampcam: 1 done, 0 skipped, 1 failed in ") == true)
        #expect(TestFiles.files(in: out) == ["good.jpg"])
        #expect(try TestFiles.bytes(bad) == bytes)
        #expect(try TestFiles.bytes(good) == Self.goodBytes)
    }

    @Test("one worker: saved photos (synced while the next is stamped) and failed ones in between are each reported once")
    func reportsEach() throws {
        let folder = try TestFiles.temporaryFolder("order")
        var inputs: [String] = []
        for index in 0..<6 {
            let path = folder + "/\(index).jpg"
            // A JPEG cut short fails while it is decoded, on the worker, between photos it saves.
            let bytes = index % 3 == 1 ? Array(Self.goodBytes.prefix(Self.goodBytes.count / 2)) : Self.goodBytes
            try TestFiles.write(bytes, to: path)
            inputs.append(path)
        }
        let result = CLI.run(["apply"] + inputs + ["-o", folder + "/out", "-j", "1", "--json", "--no-catalog"])
        #expect(result.code == 65)
        let reported = result.out.compactMap { line -> String? in
            guard let range = line.range(of: #""input":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(reported.sorted() == inputs, "\(result.out)")
        #expect(result.out.filter { $0.contains(#""status":"failed""#) }.count == 2)
        #expect(TestFiles.files(in: folder + "/out") == ["0.jpg", "2.jpg", "3.jpg", "5.jpg"])
    }

    @Test("a whole folder of good and bad photos: the good ones done, each bad one reported, exit 65")
    func mixedFolder() throws {
        let folder = try TestFiles.temporaryFolder("mixed")
        let names = ["empty.jpg", "text.jpg", "truncated.jpg", "deep.jpg", "huge.jpg"]
        for name in names { try TestFiles.write(Self.bad(name).bytes, to: folder + "/in/bad/" + name, creatingFolders: true) }
        try TestFiles.write(Self.goodBytes, to: folder + "/in/a.jpg", creatingFolders: true)
        try TestFiles.write(Self.goodBytes, to: folder + "/in/sub/b.JPEG", creatingFolders: true)
        try TestFiles.write(Self.goodBytes, to: folder + "/in/sub/no-extension", creatingFolders: true)
        try TestFiles.write(Array("not a photo".utf8), to: folder + "/in/readme.txt")
        let result = CLI.run(["apply", folder + "/in", "-o", folder + "/out", "-j", "2"])
        #expect(result.code == 65)
        #expect(result.err.count == names.count + 1)
        for name in names { #expect(result.err.contains { $0.hasPrefix("stampcam: \(folder)/in/bad/\(name): ") }) }
        #expect(TestFiles.files(in: folder + "/out") == ["a.jpg", "sub"])
        #expect(TestFiles.files(in: folder + "/out/sub") == ["b.JPEG", "no-extension"])
        for name in names { #expect(try TestFiles.bytes(folder + "/in/bad/" + name) == Self.bad(name).bytes) }
    }

    @Test("corrupt EXIF is only a warning: the photo is stamped, exit 0")
    func corruptExif() throws {
        let (folder, bad, _) = try Self.batch("exif.jpg", BadJPEG.corruptExif(Self.goodBytes))
        let result = CLI.run(["apply", bad, "-o", folder + "/out"])
        #expect(result.code == 0)
        #expect(result.err.first?.hasPrefix("stampcam: \(bad): warning: corrupt EXIF") == true)
        #expect(result.err.count == 2)  // the warning and the summary
        #expect(TestFiles.files(in: folder + "/out") == ["exif.jpg"])
    }

    @Test("a missing photo: exit 66, the rest done")
    func noInput() throws {
        let (folder, _, good) = try Self.batch("x.jpg", Self.goodBytes)
        let result = CLI.run(["apply", folder + "/missing.jpg", good, "-o", folder + "/out"])
        #expect(result.code == 66)
        #expect(result.err.first == "stampcam: \(folder)/missing.jpg: cannot read: No such file or directory")
        #expect(TestFiles.files(in: folder + "/out") == ["good.jpg"])
    }

    @Test("an output path that is a file: exit 73, one line")
    func outputIsFile() throws {
        // (A name ending in .jpg names the one output file instead: see InputFormatTests.)
        let (folder, _, good) = try Self.batch("x.jpg", [1])
        try TestFiles.write([1, 2, 3], to: folder + "/notes")
        let result = CLI.run(["apply", good, "-o", folder + "/notes"])
        #expect(result.code == 73)
        #expect(result.err == ["stampcam: \(folder)/notes: cannot create: a file has this name, not a folder"])
    }

    /// Runs the binary as an unprivileged user when we are root (root reads and writes anything).
    static func asUnprivileged(_ command: String) -> String {
        // nobody gets a home of its own: root's configuration is not readable to it (and not its own).
        getuid() == 0 ? "HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent setpriv --reuid=65534 --regid=65534 --clear-groups -- \(command)" : command
    }

    @Test("an unreadable photo (permissions): exit 66 naming it; an unwritable folder: exit 73",
          .enabled(if: CLI.unprivilegedCanRun, "nobody cannot reach this checkout"))
    func permissions() throws {
        let (folder, _, good) = try Self.batch("x.jpg", [])
        let locked = folder + "/locked.jpg"
        try TestFiles.write(Self.goodBytes, to: locked)
        chmod(locked, 0o000)
        chmod(folder, 0o755)
        chmod(good, 0o644)
        let out = try TestFiles.temporaryFolder("out")
        chmod(out, 0o777)
        // nobody has no home to keep signing keys in: unsigned, to see the files' permissions alone.
        let unreadable = try CLI.shell(Self.asUnprivileged("\(CLI.binary) apply \(locked) \(good) -o \(out) --no-sign"))
        #expect(unreadable.code == 66)
        #expect(unreadable.err.first == "stampcam: \(locked): cannot read: permission denied")
        #expect(TestFiles.files(in: out) == ["good.jpg"])

        let readOnly = try TestFiles.temporaryFolder("ro")
        chmod(readOnly, 0o555)
        let unwritable = try CLI.shell(Self.asUnprivileged("\(CLI.binary) apply \(good) -o \(readOnly) --no-sign"))
        #expect(unwritable.code == 73)
        #expect(unwritable.err == ["stampcam: \(readOnly): cannot create: permission denied (this folder cannot be written to)"])
    }

    @Test("a full disk (file size limit): clear error, exit 74, no partial file")
    func fullDisk() throws {
        let out = try TestFiles.temporaryFolder("full")
        let good = try Fixtures.site.write(to: try TestFiles.temporaryFolder("in"))
        let result = try CLI.shell("ulimit -f 8; exec \(CLI.binary) apply \(CLI.quoted(good)) -o \(out)")
        #expect(result.code == 74)
        #expect(result.err.first?.hasPrefix("stampcam: \(out)/site.jpg: write failed: file too large") == true)
        #expect(TestFiles.files(in: out) == [])
    }
}
