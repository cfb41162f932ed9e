import Foundation
import Testing
import TestSupport
@testable import StampCLI

/// How the commands that write photos sign them, and refuse to when they cannot.
@Suite struct SigningTests {
    static func data() throws -> [String: String] { ["XDG_DATA_HOME": try TestFiles.temporaryFolder("sign-data")] }

    /// Whether `path` holds a JPEG-XT APP11 segment (the C2PA manifest store's).
    static func hasManifest(_ path: String) throws -> Bool {
        JPEGSegments.segments(try TestFiles.bytes(path)).contains { $0.marker == 0xEB && $0.body.starts(with: Array("JP".utf8)) }
    }

    @Test("apply signs with the installation's identity, made on first use where XDG_DATA_HOME says")
    func signsByDefault() throws {
        let environment = try Self.data()
        let folder = try TestFiles.temporaryFolder("sign")
        let input = try Fixtures.site.write(to: folder)
        let result = CLI.run(["apply", input, "-o", folder + "/out"], environment: environment)
        #expect(result.code == 0)
        #expect(try Self.hasManifest(folder + "/out/" + (input as NSString).lastPathComponent))
        #expect(FileManager.default.fileExists(atPath: environment["XDG_DATA_HOME"]! + "/stampcam/keys/device.key"))
        #expect(!result.err.contains { $0.contains("not signed") })
    }

    @Test("--no-sign and the config's \"sign\": false write unsigned photos and say so once")
    func unsignedSaysSo() throws {
        let environment = try Self.data()
        let folder = try TestFiles.temporaryFolder("nosign")
        let inputs = [try Fixtures.site.write(to: folder), try Fixtures.oriented(.up).write(to: folder)]
        let flagged = CLI.run(["apply"] + inputs + ["-o", folder + "/flag", "--no-sign"], environment: environment)
        #expect(flagged.code == 0)
        #expect(flagged.err.filter { $0.contains("not signed") }.count == 1)
        for input in inputs { #expect(try !Self.hasManifest(folder + "/flag/" + (input as NSString).lastPathComponent)) }

        let config = try ConfigTests.config(#"{"sign": false}"#)
        #expect(try Config.arguments(for: ApplyCommand.spec, file: config) == ["--no-sign"])
        #expect(try Config.arguments(for: ApplyCommand.spec, file: try ConfigTests.config(#"{"sign": true}"#)) == [])
        #expect(throws: UsageError.self) { try Config.arguments(for: ApplyCommand.spec, file: try ConfigTests.config(#"{"sign": "no"}"#)) }
        #expect(try Config.arguments(for: KeysCommand.spec, file: config) == [])
    }

    @Test("a key that does not belong to the chain is one line and exit 65, before any photo is written")
    func mismatchedKeyWritesNothing() throws {
        let one = try Self.data(), other = try Self.data()
        #expect(CLI.run(["keys"], environment: one).code == 0)
        #expect(CLI.run(["keys"], environment: other).code == 0)
        let key = one["XDG_DATA_HOME"]! + "/stampcam/keys/device.key"
        let chain = other["XDG_DATA_HOME"]! + "/stampcam/keys/device.pem"
        let folder = try TestFiles.temporaryFolder("mismatch")
        let input = try Fixtures.site.write(to: folder)
        let result = CLI.run(["apply", input, "-o", folder + "/out", "--signing-key", key, "--signing-cert", chain], environment: one)
        #expect(result.code == 65)
        #expect(result.err.count == 1 && result.err.first?.contains("does not belong") == true, "\(result.err)")
        #expect(TestFiles.files(in: folder + "/out").filter { $0.hasSuffix(".jpg") }.isEmpty)

        let both = CLI.run(["apply", input, "-o", folder + "/out", "--no-sign", "--signing-key", key, "--signing-cert", chain], environment: one)
        #expect(both.code == 64)
    }
}
