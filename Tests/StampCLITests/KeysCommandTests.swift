import Foundation
import TestSupport
import Testing

@Suite struct KeysCommandTests {
    static func data() throws -> [String: String] { ["XDG_DATA_HOME": try TestFiles.temporaryFolder("keys")] }

    static func openssl(_ arguments: [String]) throws -> ExternalTool.Result { try ExternalTool.run("openssl", arguments) }

    static func fingerprint(_ pem: String) throws -> String {
        try openssl(["x509", "-in", pem, "-noout", "-fingerprint", "-sha256"]).out
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "sha256 Fingerprint=", with: "")
    }

    @Test func firstRunMakesTheIdentityAndSaysSo() throws {
        let environment = try Self.data()
        let keys = environment["XDG_DATA_HOME"]! + "/stampcam/keys"
        let first = CLI.run(["keys"], environment: environment)
        #expect(first.code == 0)
        #expect(first.err == ["stampcam: made a new signing identity in \(keys)"])
        #expect(first.out.first == "keys        " + keys)
        let device = try Self.fingerprint(keys + "/device.pem"), ca = try Self.fingerprint(keys + "/ca.pem")
        #expect(first.out.contains("  SHA-256    " + device))
        #expect(first.out.contains("  SHA-256    " + ca))
        #expect(first.out.contains { $0.hasPrefix("signer      CN=stampcam device ") })
        let again = CLI.run(["keys"], environment: environment)
        #expect(again.code == 0 && again.err.isEmpty)
        #expect(again.out == first.out)
    }

    @Test func exportCAPrintsTheCertificateVerifiersTrust() throws {
        let environment = try Self.data()
        let keys = environment["XDG_DATA_HOME"]! + "/stampcam/keys"
        let exported = CLI.run(["keys", "export-ca"], environment: environment)
        #expect(exported.code == 0)
        let file = try TestFiles.temporaryFolder("ca") + "/ca.pem"
        _ = FileManager.default.createFile(atPath: file, contents: Data((exported.out.joined(separator: "\n") + "\n").utf8))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == String(contentsOfFile: keys + "/ca.pem", encoding: .utf8))
        #expect(try Self.openssl(["verify", "-CAfile", file, keys + "/device.pem"]).status == 0)
    }

    @Test func jsonNamesTheFolderAndChain() throws {
        let environment = try Self.data()
        let result = CLI.run(["keys", "--json"], environment: environment)
        #expect(result.code == 0 && result.out.count == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(result.out[0].utf8)) as? [String: Any])
        #expect(object["source"] as? String == "installation")
        #expect(object["created"] as? Bool == true)
        let certificates = try #require(object["certificates"] as? [[String: Any]])
        #expect(certificates.count == 2)
        let keys = environment["XDG_DATA_HOME"]! + "/stampcam/keys"
        #expect(certificates.first?["fingerprint"] as? String == (try Self.fingerprint(keys + "/device.pem")))
    }

    @Test func processesStartedTogetherMakeOneIdentity() throws {
        let data = try TestFiles.temporaryFolder("keys-race")
        let run = "XDG_DATA_HOME=\(CLI.quoted(data)) STAMPCAM_DATA=\(CLI.quoted(TestFiles.packageRoot)) \(CLI.quoted(CLI.binary)) keys --json"
        let script = (1...4).map { "\(run) > \(CLI.quoted(data))/out\($0) &" }.joined(separator: "\n") + "\nwait"
        #expect(try CLI.shell(script).code == 0)
        let outputs = try (1...4).map { try String(contentsOfFile: data + "/out\($0)", encoding: .utf8) }
        let fingerprint = try Self.fingerprint(data + "/stampcam/keys/device.pem")
        for output in outputs { #expect(output.contains(fingerprint)) }
        #expect(outputs.filter { $0.contains("\"created\":true") }.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/stampcam") == ["keys"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: data + "/stampcam/keys").sorted()
                == ["ca.key", "ca.pem", "device.key", "device.pem"])
    }

    /// The installation's files reused as an organisation's, and an expired self-signed pair made by `openssl ca`.
    static func organisationFiles() throws -> (environment: [String: String], keys: String, scratch: String) {
        let environment = try data()
        #expect(CLI.run(["keys"], environment: environment).code == 0)
        let keys = environment["XDG_DATA_HOME"]! + "/stampcam/keys"
        let scratch = try TestFiles.temporaryFolder("org")
        let device = try String(contentsOfFile: keys + "/device.pem", encoding: .utf8)
        let ca = try String(contentsOfFile: keys + "/ca.pem", encoding: .utf8)
        _ = FileManager.default.createFile(atPath: scratch + "/chain.pem", contents: Data((device + ca).utf8))
        _ = FileManager.default.createFile(atPath: scratch + "/reversed.pem", contents: Data((ca + device).utf8))
        return (environment, keys, scratch)
    }

    @Test func organisationKeyAndChainAreCheckedAndShown() throws {
        let (environment, keys, scratch) = try Self.organisationFiles()
        let shown = CLI.run(["keys", "--signing-key", keys + "/device.key", "--signing-cert", scratch + "/chain.pem"], environment: environment)
        #expect(shown.code == 0)
        #expect(shown.out.contains("chain       \(scratch)/chain.pem (2 certificates)"))
        #expect(shown.out.contains("  SHA-256    " + (try Self.fingerprint(keys + "/device.pem"))))
        // The same settings from the configuration file.
        let config = try TestFiles.temporaryFolder("config")
        try FileManager.default.createDirectory(atPath: config + "/stampcam", withIntermediateDirectories: true)
        let settings = ["signing-key": keys + "/ca.key", "signing-cert": scratch + "/chain.pem"]
        _ = FileManager.default.createFile(atPath: config + "/stampcam/config.json", contents: try JSONSerialization.data(withJSONObject: settings))
        let fromConfig = CLI.run(["keys"], environment: environment.merging(["XDG_CONFIG_HOME": config]) { $1 })
        #expect(fromConfig.code == 65)
        #expect(fromConfig.err == ["stampcam: \(keys)/ca.key: this key does not belong to the first certificate in \(scratch)/chain.pem"])
    }

    @Test func badKeysAreOneLineAndAnExitCode() throws {
        let (environment, keys, scratch) = try Self.organisationFiles()
        let expired = """
            cd \(CLI.quoted(scratch)) && printf '[ca]\\ndefault_ca=d\\n[d]\\ndatabase=index.txt\\nnew_certs_dir=.\\nserial=serial\\ndefault_md=sha256\\npolicy=p\\n[p]\\ncommonName=supplied\\n' > ca.cnf \
            && touch index.txt && echo 01 > serial \
            && openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout old.key -out old.csr -subj /CN=old \
            && openssl ca -batch -notext -config ca.cnf -selfsign -keyfile old.key -in old.csr -out old.pem -startdate 20200101000000Z -enddate 20210101000000Z \
            && chmod 600 old.key
            """
        #expect(try CLI.shell(expired).code == 0)
        let before = try String(contentsOfFile: keys + "/device.key", encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["--signing-key", scratch + "/none.key", "--signing-cert", scratch + "/chain.pem"], 66,
             "stampcam: \(scratch)/none.key: cannot read: No such file or directory"),
            (["--signing-key", keys + "/ca.key", "--signing-cert", scratch + "/chain.pem"], 65,
             "stampcam: \(keys)/ca.key: this key does not belong to the first certificate in \(scratch)/chain.pem"),
            (["--signing-key", keys + "/ca.key", "--signing-cert", scratch + "/reversed.pem"], 65,
             "stampcam: \(scratch)/reversed.pem: certificate 1 (CN=stampcam CA "),
            (["--signing-key", scratch + "/old.key", "--signing-cert", scratch + "/old.pem"], 65,
             "stampcam: \(scratch)/old.pem: the certificate CN=old expired on 2021-01-01T00:00:00Z"),
            (["--signing-key", scratch + "/index.txt", "--signing-cert", scratch + "/chain.pem"], 65,
             "stampcam: \(scratch)/index.txt: not a private key in PEM form"),
            (["--signing-key", keys + "/device.key"], 64, "stampcam: "),
        ]
        for (arguments, code, line) in cases {
            let result = CLI.run(["keys"] + arguments, environment: environment)
            #expect(result.code == code, "\(arguments)")
            #expect(result.err.count == 1 && result.err[0].hasPrefix(line), "\(result.err)")
            #expect(result.out.isEmpty)
        }
        #expect(try String(contentsOfFile: keys + "/device.key", encoding: .utf8) == before)
    }

    @Test func fifoInTheKeysFolderIsNotWaitedOnNorReplaced() throws {
        let environment = try Self.data()
        let keys = environment["XDG_DATA_HOME"]! + "/stampcam/keys"
        #expect(CLI.run(["keys"], environment: environment).code == 0)
        try FileManager.default.removeItem(atPath: keys + "/device.key")
        #expect(mkfifo(keys + "/device.key", 0o600) == 0)
        let result = CLI.run(["keys"], environment: environment)
        #expect(result.code == 66)
        #expect(result.err == ["stampcam: \(keys)/device.key: cannot read: it is a FIFO (named pipe), not a regular file"])
        var status = stat()
        #expect(lstat(keys + "/device.key", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func linkedKeysFolderIsRefused() throws {
        let environment = try Self.data()
        let elsewhere = try TestFiles.temporaryFolder("elsewhere")
        try FileManager.default.createDirectory(atPath: environment["XDG_DATA_HOME"]! + "/stampcam", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: environment["XDG_DATA_HOME"]! + "/stampcam/keys", withDestinationPath: elsewhere)
        let result = CLI.run(["keys"], environment: environment)
        #expect(result.code == 73)
        #expect(result.err.count == 1 && result.err[0].contains("is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
