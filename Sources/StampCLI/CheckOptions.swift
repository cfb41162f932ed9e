import Platform
import Provenance
import Session
import StampWeb

/// The public check page's options (`serve`): whose photos it vouches for, what a code found may
/// show, and `--verify-only` for a public box that serves nothing else.
enum CheckOptions {
    static let verifyOnly = Flag("verify-only", help: marked("option", "serve only the public check page (/verify): no camera, no uploads, no team"))
    static let shows = Option<Set<CodeLookup.Fact>>("verify-shows", value: "FACTS",
                                                    help: marked("option", "what the check page shows of a photo found by its code: time, project, site, user, place (default time,project)")) {
        (text) throws(UsageError) in
        var facts: Set<CodeLookup.Fact> = []
        for name in text.split(separator: ",").map({ $0.trimmingWhitespace }) where !name.isEmpty {
            guard let fact = CodeLookup.Fact(rawValue: name) else {
                throw .badValue(option: "--verify-shows", value: text, expected: "a list of time, project, site, user and place, like time,project")
            }
            facts.insert(fact)
        }
        return facts
    }
    static let trust = Option.text("trust", value: "CA.pem",
                                   help: marked("option", "the check page also vouches for signers whose chain reaches this CA (repeatable; with --verify-only, the organisation's CA from 'stampcam keys export-ca')"))
    static let tsaTrust = Option.text("tsa-trust", value: "CA.pem", help: marked("option", "time-stamps count when their authority's chain reaches this CA (repeatable)"))

    /// For `serve`.
    static let all: [any OptionDeclaration] = [verifyOnly, shows, trust, tsaTrust]

    /// The check page for photos signed by `identity` (this installation's or the organisation's
    /// own) or reaching the `--trust` CAs, its codes looked up in `catalog`.
    static func page(_ options: ParsedOptions, identity: SigningIdentity?, catalog: String?, words: PageWords) throws -> CheckPage {
        let trust = try TrustAnchors(files: try options.values(trust), timeStampFiles: try options.values(tsaTrust), adding: identity)
        guard let organization = identity?.certificate.organization ?? trust.organizations.first else {
            throw UsageError.missing("--trust CA.pem (the organisation's CA: 'stampcam keys export-ca' prints it) with --verify-only", command: "serve")
        }
        var settings = CheckPage.Settings(organization: organization, trust: trust, catalog: catalog)
        if let shown = try options.value(shows) { settings.shows = shown }
        return CheckPage(settings: settings, words: words)
    }

    /// `serve --verify-only`: the check page alone until Ctrl-C or SIGTERM.
    static func serveOnly(_ options: ParsedOptions, context: Context, words: PageWords, address: ListenAddress,
                          tls: TLSCredentials?) throws -> ExitCode {
        let catalog = try CatalogOptions.writingPath(options, context: context)
        let page = try page(options, identity: nil, catalog: catalog, words: words)
        let server = try CheckServer(page: page, listen: address, tls: tls)
        let stop = ConditionLock(false)
        let interception = Signals.shared.intercept([.interrupt, .terminate]) { stop.withLock { $0 = true } }
        defer { interception.cancel() }
        context.console.err("stampcam: the check page for \(page.settings.organization) is at \(server.urls.first ?? "?") (Ctrl-C stops it)")
        for url in server.urls { context.console.out(url) }
        stop.wait(until: { $0 }, then: { _ in })
        context.console.err("stampcam: stopping")
        server.stop()
        return .success
    }
}
