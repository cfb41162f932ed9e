import Foundation
import Testing
import TestSupport

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
}
