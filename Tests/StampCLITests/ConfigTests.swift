import Foundation
import Testing
import TestSupport
import Values
@testable import StampCLI

@Suite struct ConfigTests {
    static func config(_ json: String) throws -> String {
        let folder = try TestFiles.temporaryFolder("config")
        try TestFiles.write(Array(json.utf8), to: folder + "/config.json")
        return folder + "/config.json"
    }

    @Test("settings become leading options; the command line wins because later values win")
    func arguments() throws {
        let file = try Self.config(#"{"user": "Li Wei", "quality": 80, "skip-existing": true, "overwrite": false}"#)
        let arguments = try Config.arguments(for: ApplyCommand.spec, file: file)
        #expect(arguments == ["--quality", "80", "--skip-existing", "--user", "Li Wei"])
        let parsed = try ApplyCommand.spec.parse(arguments + ["x.jpg", "-o", "out", "--user", "Ana"])
        #expect(try parsed.value(StampOptions.user) == "Ana")
        #expect(parsed.flag(ApplyCommand.skipExisting))
    }

    @Test("numbers become plain decimals, as the options read them (never 1e-05)")
    func numbers() {
        #expect(Config.decimal(80) == "80")
        #expect(Config.decimal(0.5) == "0.5")
        #expect(Config.decimal(0.00001) == "0.00001")
        #expect(Config.decimal(-2.25) == "-2.25")
        #expect(decimalNumber(Config.decimal(0.00001)) == 0.00001)
    }

    @Test("settings for options a command lacks are left out, unknown ones are errors")
    func unknown() throws {
        let file = try Self.config(#"{"user": "Li Wei", "max-size": 2048}"#)
        #expect(try Config.arguments(for: TestCardCommand.spec, file: file) == ["--user", "Li Wei"])
        let bad = try Self.config(#"{"usr": "x"}"#)
        #expect(throws: UsageError.self) { try Config.arguments(for: ApplyCommand.spec, file: bad) }
        let wrongType = try Self.config(#"{"user": true}"#)
        #expect(throws: UsageError.self) { try Config.arguments(for: ApplyCommand.spec, file: wrongType) }
        #expect(try Config.arguments(for: ApplyCommand.spec, file: "/nonexistent/config.json") == [])
    }

    @Test("\"projects\" is a list for serve's pick list, not an option; anything but a list of texts is an error")
    func projects() throws {
        let file = try Self.config(#"{"user": "Li Wei", "projects": ["Bridge 7", "Pier 4", "Bridge 7"]}"#)
        #expect(try Config.arguments(for: ServeCommand.spec, file: file) == ["--user", "Li Wei"])
        #expect(try Config.arguments(for: ApplyCommand.spec, file: file) == ["--user", "Li Wei"])
        #expect(try Config.projects(file: file) == ["Bridge 7", "Pier 4"])
        #expect(try Config.projects(file: "/nonexistent/config.json") == [])
        for wrong in [#"{"projects": "Bridge 7"}"#, #"{"projects": ["Bridge 7", 7]}"#, #"{"projects": [["x"]]}"#] {
            let bad = try Self.config(wrong)
            #expect(throws: UsageError.self) { try Config.projects(file: bad) }
            #expect(throws: UsageError.self, "checked for every command") { try Config.arguments(for: ApplyCommand.spec, file: bad) }
        }
    }

    @Test("tests have a home of their own: the developer's ~/.config/stampcam is never read")
    func isolatedHome() throws {
        #expect(CLI.run(["styles"]).code == 0)
        #expect(ProcessInfo.processInfo.environment["HOME"] == CLI.home)
        #expect(CLI.cleanEnvironment["XDG_CONFIG_HOME"] == CLI.home + "/.config")
        // In-process runs read the configuration of the environment they are given, nothing else.
        let other = try TestFiles.temporaryFolder("xdg")
        try TestFiles.write(Array(#"{"template": "no-such-style"}"#.utf8), to: other + "/stampcam/config.json", creatingFolders: true)
        #expect(CLI.run(["test-card", "-o", other + "/out"], environment: ["XDG_CONFIG_HOME": other]).code == 64)
        #expect(CLI.run(["test-card", "-o", other + "/out"]).code == 0)
        let child = try CLI.shell("echo \"$HOME|${XDG_CONFIG_HOME:-$HOME/.config}\"")
        #expect(child.out == [CLI.home + "|" + CLI.home + "/.config"])
    }

    @Test("the binary reads $XDG_CONFIG_HOME/stampcam/config.json")
    func endToEnd() throws {
        let home = try TestFiles.temporaryFolder("xdg")
        try TestFiles.write(Array(#"{"template": "no-such-style"}"#.utf8), to: home + "/stampcam/config.json", creatingFolders: true)
        let result = try CLI.shell("XDG_CONFIG_HOME=\(home) \(CLI.binary) test-card -o \(home)/out")
        #expect(result.code == 64)
        #expect(result.err.first?.contains("'no-such-style' is not a known style") == true)
        let overridden = try CLI.shell("XDG_CONFIG_HOME=\(home) \(CLI.binary) test-card -o \(home)/out --template minimal")
        #expect(overridden.code == 0)
    }
}
