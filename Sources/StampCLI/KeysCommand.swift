import Platform
import Provenance
import Values

/// `stampcam keys`: where the signing identity is and what it says; `keys init --org NAME` makes it
/// in an organisation's name; `keys renew` renews the device certificate; `keys export-ca` prints
/// the certificate verifiers trust. With --signing-key and --signing-cert, checks an organisation's own.
enum KeysCommand: Command {
    static let spec = CommandSpec(
        name: "keys",
        usage: "keys [export-ca | init --org NAME | renew [--ca-key FILE]] [--signing-key FILE --signing-cert CHAIN.pem] [--json]",
        summary: marked("command", "Show the signing identity (made on first use: a CA of this installation and a device certificate), make it in an organisation's name ('init --org'), renew its device certificate ('renew'), or check an organisation's own key and chain; 'export-ca' prints the CA certificate for verifiers."),
        options: [organization, caKey, signingKey, signingCert, json])

    static let signingKey = Option.text("signing-key", value: "FILE", help: marked("option", "an organisation's EC P-256 private key (PEM) to sign with"))
    static let signingCert = Option.text("signing-cert", value: "CHAIN.pem",
                                         help: marked("option", "its certificate chain (PEM): the key's certificate first, then each issuer"))
    static let organization = Option<String>("org", value: "NAME",
                                             help: marked("option", "with 'init': the organisation the certificates name (O=), which verifiers and the check page show")) {
        (text) throws(UsageError) in
        if let problem = InstallationKeys.problem(organization: text) { throw .badValue(option: "--org", value: text, expected: problem) }
        return text
    }.commandLineOnly()
    static let caKey = Option.text("ca-key", value: "FILE",
                                   help: marked("option", "with 'renew': the CA's private key, where it is kept away from this installation")).commandLineOnly()
    static let json = Flag("json", help: marked("option", "print JSON instead of text"))

    /// What `keys --json` prints.
    struct Report: Encodable {
        var source: String
        var folder: String?
        var key: String?
        var chain: String?
        var created: Bool
        var organization: String?
        /// Whether the CA key is in the folder (false: kept offline).
        var caKey: Bool?
        var renewalDue: Bool?
        var certificates: [CertificateInfo]
    }

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let action = options.positionals.joined(separator: " ")
        guard ["", "export-ca", "init", "renew"].contains(action) else {
            throw UsageError.badValue(option: "keys", value: action, expected: "nothing, 'export-ca', 'init' or 'renew'")
        }
        if try options.value(organization) != nil, action != "init" { throw UsageError.badValue(option: "--org", value: try options.value(organization) ?? "", expected: "given with 'keys init'") }
        if try options.value(caKey) != nil, action != "renew" { throw UsageError.badValue(option: "--ca-key", value: try options.value(caKey) ?? "", expected: "given with 'keys renew'") }
        let console = context.console
        let now = WallClock.now().secondsSinceEpoch
        let folder = InstallationKeys.folder(environment: context.environment)
        switch action {
        case "export-ca":
            // Only the CA certificate is read: nothing about the keys (their dates, where the CA key is) stops it.
            if try options.value(signingKey) == nil, try options.value(signingCert) == nil, let pem = try InstallationKeys.authorityPEM(folder: folder) {
                console.out(pem.trimmingWhitespace)
                return .success
            }
            let (_, identity) = try open(options, environment: context.environment, now: now)
            console.out(identity.topCertificatePEM.trimmingWhitespace)  // console.out ends the line
            return .success
        case "init":
            guard let name = try options.value(organization) else { throw UsageError.missing("--org NAME with 'keys init'", command: spec.name) }
            let keys = try InstallationKeys.create(folder: folder, host: HostName.current ?? "localhost", organization: name, now: now)
            console.err("stampcam: made a new signing identity for \(name) in \(PathEncoding.display(keys.folder))")
            show(report(keys, now: now), options: options, console: console)
            return .success
        case "renew":
            guard let keys = try InstallationKeys.open(folder: folder) else {
                throw Failure("no signing identity in \(PathEncoding.display(folder)) to renew (one is made on first use, or by 'stampcam keys init --org NAME')", code: .noInput)
            }
            let renewed = try keys.renewed(now: now, authorityKeyFile: try options.value(caKey))
            console.err("stampcam: renewed the signing certificate; it is valid until \(renewed.device.notAfter)")
            show(report(renewed, now: now), options: options, console: console)
            return .success
        default:
            let (report, _) = try open(options, environment: context.environment, now: now)
            if report.created, let folder = report.folder { console.err("stampcam: made a new signing identity in \(PathEncoding.display(folder))") }
            show(report, options: options, console: console)
            return .success
        }
    }

    private static func show(_ report: Report, options: ParsedOptions, console: Console) {
        if options.flag(json) {
            if let line = try? JSONOutput.line(report) { console.out(line) }
            return
        }
        if let folder = report.folder { console.out("keys".padding(12) + PathEncoding.display(folder)) }
        if let organization = report.organization { console.out("org".padding(12) + PathEncoding.display(organization)) }
        if let key = report.key, let chain = report.chain {
            console.out("key".padding(12) + PathEncoding.display(key))
            console.out("chain".padding(12) + "\(PathEncoding.display(chain)) (\(report.certificates.count) certificates)")
        }
        for (index, certificate) in report.certificates.enumerated() {
            let role = index == 0 ? "signer" : index == report.certificates.count - 1 ? "CA" : "issuer"
            console.out("\(role.padding(12))\(PathEncoding.display(certificate.subject))")
            console.out("  SHA-256    \(certificate.fingerprint)")
            console.out("  valid      \(certificate.notBefore) to \(certificate.notAfter)")
        }
        if let caKey = report.caKey {
            console.out("CA key".padding(12) + (caKey ? "here (ca.key)" : "kept elsewhere: renewing needs it (keys renew --ca-key FILE)"))
        }
        if report.renewalDue == true {
            console.out("renewal".padding(12) + "due: the signing certificate is renewed by the next photo signed, or by 'stampcam keys renew'")
        }
    }

    private static func report(_ keys: InstallationKeys, now: Int) -> Report {
        Report(source: "installation", folder: keys.folder, created: keys.created, organization: keys.organization,
               caKey: keys.hasAuthorityKey, renewalDue: keys.needsRenewal(at: now), certificates: keys.identity.certificates)
    }

    /// The organisation's identity when both options are given, else this installation's.
    private static func open(_ options: ParsedOptions, environment: [String: String], now: Int) throws -> (Report, SigningIdentity) {
        switch (try options.value(signingKey), try options.value(signingCert)) {
        case (let key?, let chain?):
            let identity = try SigningIdentity(keyFile: key, chainFile: chain, now: now)
            return (Report(source: "organisation", key: key, chain: chain, created: false,
                           organization: identity.certificate.organization, certificates: identity.certificates), identity)
        case (nil, nil):
            let keys = try InstallationKeys.openOrCreate(folder: InstallationKeys.folder(environment: environment),
                                                          host: HostName.current ?? "localhost", now: now)
            return (report(keys, now: now), keys.identity)
        case (nil, _?):
            throw UsageError.missing("--signing-key FILE with --signing-cert", command: spec.name)
        case (_?, nil):
            throw UsageError.missing("--signing-cert CHAIN.pem with --signing-key", command: spec.name)
        }
    }
}
