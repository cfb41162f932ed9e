import Platform
import Provenance
import Values

/// `stampcam keys`: where the signing identity is and what it says; `keys export-ca` prints the
/// certificate verifiers trust. With --signing-key and --signing-cert, checks an organisation's own.
enum KeysCommand: Command {
    static let spec = CommandSpec(
        name: "keys",
        usage: "keys [export-ca] [--signing-key FILE --signing-cert CHAIN.pem] [--json]",
        summary: "Show the signing identity (made on first use: a CA of this installation and a device certificate), "
            + "or check an organisation's own key and chain; 'export-ca' prints the CA certificate for verifiers.",
        options: [signingKey, signingCert, json])

    static let signingKey = Option.text("signing-key", value: "FILE", help: "an organisation's EC P-256 private key (PEM) to sign with")
    static let signingCert = Option.text("signing-cert", value: "CHAIN.pem",
                                         help: "its certificate chain (PEM): the key's certificate first, then each issuer")
    static let json = Flag("json", help: "print JSON instead of text")

    /// What `keys --json` prints.
    struct Report: Encodable {
        var source: String
        var folder: String?
        var key: String?
        var chain: String?
        var created: Bool
        var certificates: [CertificateInfo]
    }

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let exportCA: Bool
        switch options.positionals {
        case []: exportCA = false
        case ["export-ca"]: exportCA = true
        default: throw UsageError.badValue(option: "keys", value: options.positionals.joined(separator: " "), expected: "nothing or 'export-ca'")
        }
        let (report, identity) = try open(options, environment: context.environment)
        let console = context.console
        if exportCA {
            console.out(identity.topCertificatePEM.trimmingWhitespace)  // console.out ends the line
            return .success
        }
        if report.created, let folder = report.folder {
            console.err("stampcam: made a new signing identity in \(PathEncoding.display(folder))")
        }
        if options.flag(json) {
            console.out(try JSONOutput.line(report))
            return .success
        }
        if let folder = report.folder { console.out("keys".padding(12) + PathEncoding.display(folder)) }
        if let key = report.key, let chain = report.chain {
            console.out("key".padding(12) + PathEncoding.display(key))
            console.out("chain".padding(12) + "\(PathEncoding.display(chain)) (\(report.certificates.count) certificates)")
        }
        for (index, certificate) in report.certificates.enumerated() {
            let role = index == 0 ? "signer" : index == report.certificates.count - 1 ? "CA" : "issuer"
            console.out("\(role.padding(12))\(certificate.subject)")
            console.out("  SHA-256    \(certificate.fingerprint)")
            console.out("  valid      \(certificate.notBefore) to \(certificate.notAfter)")
        }
        return .success
    }

    /// The organisation's identity when both options are given, else this installation's.
    private static func open(_ options: ParsedOptions, environment: [String: String]) throws -> (Report, SigningIdentity) {
        let now = WallClock.now().secondsSinceEpoch
        switch (try options.value(signingKey), try options.value(signingCert)) {
        case (let key?, let chain?):
            let identity = try SigningIdentity(keyFile: key, chainFile: chain, now: now)
            return (Report(source: "organisation", key: key, chain: chain, created: false, certificates: identity.certificates), identity)
        case (nil, nil):
            let keys = try InstallationKeys.openOrCreate(folder: InstallationKeys.folder(environment: environment),
                                                          host: HostName.current ?? "localhost", now: now)
            return (Report(source: "installation", folder: keys.folder, created: keys.created, certificates: keys.identity.certificates),
                    keys.identity)
        case (nil, _?):
            throw UsageError.missing("--signing-key FILE with --signing-cert", command: spec.name)
        case (_?, nil):
            throw UsageError.missing("--signing-cert CHAIN.pem with --signing-key", command: spec.name)
        }
    }
}
