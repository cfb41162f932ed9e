import Foundation
import Platform
import Testing
import TestSupport
import Imaging

/// The batch behaviours of `apply` that need a real process: kill -9, Ctrl-C, a terminal, stdin.
@Suite(.serialized) struct BatchTests {
    static let corpus = TestFiles.corpusRoot
    static var corpusCount: Int { TestFiles.corpusPhotos.count }

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

    @Test("kill -9 at random moments, 20 times: never a partial JPEG under a final name; --skip-existing completes the set")
    func killNine() throws {
        let out = try TestFiles.temporaryFolder("kill")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let process = try Self.launch(["apply", Self.corpus, "-o", out, "-j", "2", "--skip-existing"])
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
        let rerun = try CLI.shell("\(CLI.binary) apply \(CLI.quoted(Self.corpus)) -o \(out) --skip-existing -q")
        #expect(rerun.code == 0)
        #expect(Self.outputs(out).count == Self.corpusCount)
        #expect(Self.temps(out).isEmpty)
        let expected = TestFiles.corpusPhotos.map { String($0.dropFirst(Self.corpus.count + 1)) }.sorted()
        #expect(Self.outputs(out) == expected)
    }

    @Test("Ctrl-C: the photos in flight finish, no temp file is left, exit 130")
    func interrupt() throws {
        let out = try TestFiles.temporaryFolder("int")
        // Spawned with default signal handling: a Foundation Process started while another test's
        // system(3) runs would inherit SIGINT ignored, and an ignored SIGINT is respected.
        let pid = try Subprocess.spawn([CLI.binary, "apply", Self.corpus, "-o", out, "-j", "1", "--max-size", "0"],
                                       output: "/dev/null", errors: out + "/.err")
        usleep(600_000)
        kill(pid, SIGINT)
        let status = try Subprocess.wait(pid)
        let message = String(decoding: try TestFiles.bytes(out + "/.err"), as: UTF8.self)
        try FileManager.default.removeItem(atPath: out + "/.err")
        #expect(status == .exited(130))
        #expect(message.contains("stampcam: interrupted: "))
        #expect(message.contains("run again with --skip-existing to finish"))
        #expect(Self.temps(out).isEmpty)
        #expect(Self.outputs(out).count < Self.corpusCount)
        for name in Self.outputs(out) {
            _ = try Photo(jpeg: try TestFiles.bytes(out + "/" + name), options: LoadOptions(maxSize: 32))
        }
    }

    @Test("a progress bar on a terminal, none on a pipe or with --quiet")
    func progressBar() throws {
        let out = try TestFiles.temporaryFolder("tty")
        let photos = "\(CLI.quoted(Self.corpus))/recurser-exif-orientation-examples"
        // `script` runs the command on a pseudo-terminal and copies everything it writes.
        let terminal = try CLI.shell("script -qec \(CLI.quoted("\(CLI.binary) apply \(photos) -o \(out)/a")) /dev/null")
        #expect(terminal.code == 0)
        #expect(terminal.out.joined().contains("[########################] 8/8"))
        #expect(terminal.out.joined().contains("8 done, 0 skipped, 0 failed"))
        let piped = try CLI.shell("\(CLI.binary) apply \(photos) -o \(out)/b 2>&1 | cat")
        #expect(!piped.out.joined().contains("[#"))
        #expect(piped.out.count == 9)  // eight paths and the summary
        let quiet = try CLI.shell("script -qec \(CLI.quoted("\(CLI.binary) apply \(photos) -o \(out)/c -q")) /dev/null")
        #expect(!quiet.out.joined().contains("[#"))
        #expect(!quiet.out.joined().contains("done"))
    }

    @Test("--json prints one parseable object per photo, failures included")
    func json() throws {
        let folder = try TestFiles.temporaryFolder("json")
        try TestFiles.write([], to: folder + "/empty.jpg")
        let good = TestFiles.corpus("ianare-exif-samples/jpg/gps/DSCN0010.jpg")
        let result = CLI.run(["apply", good, folder + "/empty.jpg", folder + "/missing.jpg", "-o", folder + "/out", "--json"])
        #expect(result.out.count == 3)
        let objects = try result.out.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]) }
        let byInput = Dictionary(uniqueKeysWithValues: objects.map { ($0["input"]!, $0) })
        #expect(byInput[good]?["status"] == "done")
        #expect(byInput[good]?["output"] == folder + "/out/DSCN0010.jpg")
        #expect(byInput[folder + "/empty.jpg"]?["status"] == "failed")
        #expect(byInput[folder + "/empty.jpg"]?["error"] == "\(folder)/empty.jpg: empty file (0 bytes)")
        #expect(byInput[folder + "/missing.jpg"]?["status"] == "failed")
    }

    @Test("'-' reads the list of photos from stdin")
    func standardInput() throws {
        let out = try TestFiles.temporaryFolder("stdin")
        let list = TestFiles.corpusPhotos.prefix(3).map { CLI.quoted($0) }.joined(separator: " ")
        let result = try CLI.shell("printf '%s\\n' \(list) | \(CLI.binary) apply - -o \(out)")
        #expect(result.code == 0)
        #expect(Self.outputs(out).count == 3)
    }

    @Test("--name renders a file name from the fields and stays inside the output folder")
    func names() throws {
        let base = try TestFiles.temporaryFolder("name")
        let out = base + "/out"
        let photo = TestFiles.corpus("ianare-exif-samples/jpg/gps/DSCN0010.jpg")
        let escape = CLI.run(["apply", photo, "-o", out, "--name", "{project}.jpg", "--project", "../../etc/x"])
        #expect(escape.code == 0)
        #expect(TestFiles.files(in: base) == ["out"])
        #expect(TestFiles.files(in: out) == ["_.._etc_x.jpg"])
        let dated = CLI.run(["apply", photo, "-o", out, "--name", "{date:%Y%m%d}-{basename}-{seq:03}"])
        #expect(dated.out == [out + "/20081022-DSCN0010-001.jpg"])
        let empty = CLI.run(["apply", photo, "-o", out, "--name", "{note}"])
        #expect(empty.out == [out + "/DSCN0010.jpg"])
        let bad = CLI.run(["apply", photo, "-o", out, "--name", "{date"])
        #expect(bad.code == 64)
    }

    @Test("the output folder inside an input folder is not stamped again")
    func outputInsideInput() throws {
        let folder = try TestFiles.temporaryFolder("inside")
        try TestFiles.write(try TestFiles.bytes(TestFiles.corpus("ianare-exif-samples/jpg/gps/DSCN0010.jpg")), to: folder + "/a.jpg")
        #expect(CLI.run(["apply", folder, "-o", folder + "/stamped"]).code == 0)
        let second = CLI.run(["apply", folder, "-o", folder + "/stamped", "--skip-existing"])
        #expect(second.code == 0)
        #expect(Self.outputs(folder + "/stamped") == ["a.jpg"])
    }
}
