import Foundation
import TestSupport
import Testing

/// `stampcam team`: add prints the person's link, list shows who is in, remove takes them out;
/// the file is its owner's alone.
@Suite struct TeamCommandTests {
    @Test func addListRemove() throws {
        let home = try TestFiles.temporaryFolder("team-cli")
        let environment = ["XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"]
        let added = CLI.run(["team", "add", "Ana Lima", "--project", "Bridge 7", "--lock", "user,project", "--listen", "127.0.0.1:8443",
                             "--tls"], environment: environment)
        #expect(added.code == 0, "\(added.err)")
        let link = try #require(added.out.first)
        #expect(link.hasPrefix("https://127.0.0.1:8443/?token="))
        #expect(added.out.contains { $0.hasPrefix("HTTPS certificate SHA-256 ") })
        let file = home + "/config/stampcam/team.json"
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains(String(link.split(separator: "=").last!)))

        let again = CLI.run(["team", "add", "Ana Lima"], environment: environment)
        #expect(again.code != 0 && again.err.joined().contains("already has Ana Lima"), "\(again.err)")
        #expect(CLI.run(["team", "add", "Ben"], environment: environment).code == 0)
        #expect(CLI.run(["team", "list"], environment: environment).out == ["Ana Lima  project: Bridge 7  locked: project,user", "Ben"])
        #expect(CLI.run(["team", "add", "Cy", "--lock", "everything"], environment: environment).code == 64)

        #expect(CLI.run(["team", "remove", "Ana Lima"], environment: environment).code == 0)
        #expect(CLI.run(["team", "list"], environment: environment).out == ["Ben"])
        let missing = CLI.run(["team", "remove", "Ana Lima"], environment: environment)
        #expect(missing.code != 0 && missing.err.joined().contains("nobody called Ana Lima"))
    }
}
