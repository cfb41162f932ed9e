import Foundation
import Platform
import Testing
import TestSupport
import Imaging

/// The batch behaviours of `apply` that need a real process: kill -9, Ctrl-C, a terminal, stdin.
@Suite(.serialized) struct BatchTests {
    /// A batch stampcam takes seconds over: 24 photos of 2400x1600 in four orientations, in nested
    /// folders (made once, the same bytes under several names).
    static let batch: [FixturePhoto] = (0..<24).map { index in
        var photo = Fixtures.oriented([.up, .down, .right, .left][index % 4], width: 2400, height: 1600)
        photo.name = (index < 12 ? "a/" : "b/c/") + "photo-\(index < 10 ? "0" : "")\(index).jpg"
        return photo
    }

    static func batchFolder() throws -> String { try Fixtures.folder(batch, label: "batch") }

    /// Names of the finished outputs (hidden temp files left out), relative to `folder`.
    static func outputs(_ folder: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder)
        var names: [String] = []
        while let next = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + next, isDirectory: &isFolder)
            if !isFolder.boolValue && !(next as NSString).lastPathComponent.hasPrefix(".") { names.append(next) }
        }
        return names.sorted()
    }

    static func temps(_ folder: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder)
        var names: [String] = []
        while let next = walker?.nextObject() as? String {
            if (next as NSString).lastPathComponent.hasPrefix(".stampcam-") { names.append(next) }
        }
        return names
    }

    static func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// kill -9 at random moments, 20 times, while `input` is stamped; then --skip-existing
    /// completes the set. `expected`: the photos' paths relative to `input`.
    static func killNine(input: String, expected: [String]) throws {
        let out = try TestFiles.temporaryFolder("kill")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let process = try Self.launch(["apply", input, "-o", out, "-j", "2", "--skip-existing"])
            usleep(UInt32.random(in: 20_000...400_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            for name in Self.outputs(out) {
                let bytes = try TestFiles.bytes(out + "/" + name)
                #expect(throws: Never.self, "\(name) is not a whole JPEG") {
                    _ = try Photo(jpeg: bytes, options: LoadOptions(maxSize: 32))
                }
            }
        }
        let rerun = try CLI.shell("\(CLI.binary) apply \(CLI.quoted(input)) -o \(out) --skip-existing -q")
        #expect(rerun.code == 0)
        #expect(Self.temps(out).isEmpty)
        #expect(Self.outputs(out) == expected.sorted())
    }

    /// Ctrl-C while `input` is stamped at -j 1: sent once the first photo is written (its path is
    /// the first line on stdout), so the batch is under way and most of it is still to do.
    static func interrupt(input: String, count: Int) throws {
        let out = try TestFiles.temporaryFolder("int")
        let log = try TestFiles.temporaryFolder("int-log")
        // Spawned with default signal handling: a Foundation Process started while another test's
        // system(3) runs would inherit SIGINT ignored, and an ignored SIGINT is respected.
        let pid = try Subprocess.spawn([CLI.binary, "apply", input, "-o", out, "-j", "1", "--max-size", "0"],
                                       output: log + "/out", errors: out + "/.err")
        let started = waitUntil { (try? TestFiles.bytes(log + "/out"))?.contains(0x0A) ?? false }
        #expect(started, "no photo was written before the failsafe passed")
        kill(pid, SIGINT)
        let status = try Subprocess.wait(pid)
        let message = String(decoding: try TestFiles.bytes(out + "/.err"), as: UTF8.self)
        try FileManager.default.removeItem(atPath: out + "/.err")
        #expect(status == .exited(130))
        #expect(message.contains("stampcam: interrupted: "))
        #expect(message.contains("run again with --skip-existing to finish"))
        #expect(Self.temps(out).isEmpty)
        #expect(Self.outputs(out).count < count)
        for name in Self.outputs(out) {
            _ = try Photo(jpeg: try TestFiles.bytes(out + "/" + name), options: LoadOptions(maxSize: 32))
        }
    }

    @Test("kill -9 at random moments, 20 times: never a partial JPEG under a final name; --skip-existing completes the set")
    func killNine() throws {
        try Self.killNine(input: try Self.batchFolder(), expected: Self.batch.map(\.name))
    }

    @Test("Ctrl-C: the photos in flight finish, no temp file is left, exit 130")
    func interrupt() throws {
        try Self.interrupt(input: try Self.batchFolder(), count: Self.batch.count)
    }

    @Test("a progress bar on a terminal, none on a pipe or with --quiet")
    func progressBar() throws {
        let out = try TestFiles.temporaryFolder("tty")
        let photos = CLI.quoted(try Fixtures.folder(Fixtures.orientations, label: "orientations"))
        // `script` runs the command on a pseudo-terminal and copies everything it writes.
        let terminal = try CLI.shell("script -qec \(CLI.quoted("\(CLI.binary) apply \(photos) -o \(out)/a")) /dev/null")
        #expect(terminal.code == 0)
        #expect(terminal.out.joined().contains("[########################] 8/8"))
        #expect(terminal.out.joined().contains("8 done, 0 skipped, 0 failed"))
        let piped = try CLI.shell("\(CLI.binary) apply \(photos) -o \(out)/b 2>&1 | cat")
        #expect(!piped.out.joined().contains("[#"))
        // Eight paths and the summary (a note says when a photo was not stamped in place).
        #expect(piped.out.filter { !$0.contains(": note: ") }.count == 9)
        let quiet = try CLI.shell("script -qec \(CLI.quoted("\(CLI.binary) apply \(photos) -o \(out)/c -q")) /dev/null")
        #expect(!quiet.out.joined().contains("[#"))
        #expect(!quiet.out.joined().contains("done"))
    }

    @Test("--json prints one parseable object per photo, failures included")
    func json() throws {
        let folder = try TestFiles.temporaryFolder("json")
        try TestFiles.write([], to: folder + "/empty.jpg")
        let good = try Fixtures.site.write(to: folder)
        let result = CLI.run(["apply", good, folder + "/empty.jpg", folder + "/missing.jpg", "-o", folder + "/out", "--json"])
        #expect(result.out.count == 3)
        let objects = try result.out.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]) }
        let byInput = Dictionary(uniqueKeysWithValues: objects.map { ($0["input"]!, $0) })
        #expect(byInput[good]?["status"] == "done")
        #expect(byInput[good]?["output"] == folder + "/out/site.jpg")
        #expect(byInput[folder + "/empty.jpg"]?["status"] == "failed")
        #expect(byInput[folder + "/empty.jpg"]?["error"] == "\(folder)/empty.jpg: empty file (0 bytes)")
        #expect(byInput[folder + "/missing.jpg"]?["status"] == "failed")
    }

    @Test("'-' reads the list of photos from stdin")
    func standardInput() throws {
        let out = try TestFiles.temporaryFolder("stdin")
        let folder = try Fixtures.folder(Array(Fixtures.orientations.prefix(3)), label: "list")
        let list = Fixtures.orientations.prefix(3).map { CLI.quoted(folder + "/" + $0.name) }.joined(separator: " ")
        let result = try CLI.shell("printf '%s\\n' \(list) | \(CLI.binary) apply - -o \(out)")
        #expect(result.code == 0)
        #expect(Self.outputs(out).count == 3)
    }

    @Test("--name renders a file name from the fields and stays inside the output folder")
    func names() throws {
        let base = try TestFiles.temporaryFolder("name")
        let out = base + "/out"
        let photo = try Fixtures.site.write(to: base + "/in")
        let escape = CLI.run(["apply", photo, "-o", out, "--name", "{project}.jpg", "--project", "../../etc/x"])
        #expect(escape.code == 0)
        #expect(TestFiles.files(in: base) == ["in", "out"])
        #expect(TestFiles.files(in: out) == ["_.._etc_x.jpg"])
        let dated = CLI.run(["apply", photo, "-o", out, "--name", "{date:%Y%m%d}-{basename}-{seq:03}"])
        #expect(dated.out == [out + "/20210614-site-001.jpg"])
        let empty = CLI.run(["apply", photo, "-o", out, "--name", "{note}"])
        #expect(empty.out == [out + "/site.jpg"])
        let bad = CLI.run(["apply", photo, "-o", out, "--name", "{date"])
        #expect(bad.code == 64)
    }

    @Test("--name reads a photo's date from its first MiB, or from the whole file when its headers go on past it")
    func nameFromLongHeaders() throws {
        let base = try TestFiles.temporaryFolder("longheaders")
        let jpeg = try Fixtures.site.jpeg()
        // Twenty 64 KB APP15 segments between SOI and the rest: the EXIF ends past the first MiB.
        let filler = (0..<20).flatMap { _ in JPEGSegments.segment(0xEF, [UInt8](repeating: 0x55, count: 65533)) }
        try TestFiles.write(Array(jpeg.prefix(2)) + filler + Array(jpeg.dropFirst(2)), to: base + "/in/long.jpg", creatingFolders: true)
        try TestFiles.write(jpeg, to: base + "/in/short.jpg")
        let named = CLI.run(["apply", base + "/in", "-o", base + "/out", "--no-catalog", "--name", "{date:%Y%m%d}-{basename}"])
        #expect(named.code == 0, "\(named.err)")
        #expect(TestFiles.files(in: base + "/out") == ["20210614-long.jpg", "20210614-short.jpg"])
    }

    @Test("the output folder inside an input folder is not stamped again")
    func outputInsideInput() throws {
        let folder = try TestFiles.temporaryFolder("inside")
        try TestFiles.write(try Fixtures.site.jpeg(), to: folder + "/a.jpg")
        #expect(CLI.run(["apply", folder, "-o", folder + "/stamped"]).code == 0)
        let second = CLI.run(["apply", folder, "-o", folder + "/stamped", "--skip-existing"])
        #expect(second.code == 0)
        #expect(Self.outputs(folder + "/stamped") == ["a.jpg"])
    }
}

extension BatchTests {
    /// The same over every photo of ../shared/corpus, when it is there (nested, so serialized with the rest).
    @Suite struct CorpusBatchTests {
        @Test("kill -9 while the whole corpus is stamped: never a partial JPEG; --skip-existing completes the set", .needsCorpus)
        func killNine() throws {
            try BatchTests.killNine(input: Corpus.root, expected: Corpus.photos.map { String($0.dropFirst(Corpus.root.count + 1)) })
        }

        @Test("Ctrl-C while the corpus is stamped: exit 130, no temp file", .needsCorpus)
        func interrupt() throws {
            try BatchTests.interrupt(input: Corpus.root, count: Corpus.photos.count)
        }
    }
}
