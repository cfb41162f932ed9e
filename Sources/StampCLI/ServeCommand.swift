import Capture
import Imaging
import Library
import Platform
import Provenance
import Session
import StampWeb
import Templates
import Values

/// `stampcam serve`: the watermark camera in a browser — the laptop's own, or a phone on the same
/// network. The same controller, pipeline and files as `shoot`; the page, the live picture and the
/// JSON API come from StampWeb. Runs until Ctrl-C or SIGTERM, then releases the camera and exits 0.
enum ServeCommand: Command {
    static let listen = Option<ListenAddress>("listen", short: "l", value: "ADDR:PORT",
                                              help: marked("option", "address and port to listen on (default 127.0.0.1:8080; 0.0.0.0:8080 for phones on the network, with an access token)")) { text throws(UsageError) in
        guard let address = ListenAddress(text) else {
            throw .badValue(option: "--listen", value: text, expected: "an address and port like 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080")
        }
        return address
    }
    static let tokenFile = Option.text("token-file", value: "FILE",
                                       help: marked("option", "use the access token in FILE (a fixed one, to bookmark), also on loopback"))
    static let previewSize = Option.integer("preview-size", value: "PX", in: 160...3840,
                                            help: marked("option", "the live picture's long side in pixels (default 960)"))

    static let team = Flag("team", help: marked("option", "let in the people of `stampcam team` with their own links: every request from another machine needs one"))
    static let maxUpload = Option.integer("max-upload", value: "MB", in: 1...4096,
                                          help: marked("option", "the largest photo a phone may upload (default 50)"))

    static let tls = Flag("tls", help: marked("option", "serve HTTPS (a phone's camera and position need it) with a certificate made on first use"))
    static let tlsCert = Option.text("tls-cert", value: "FILE", help: marked("option", "serve HTTPS with this certificate (PEM) instead, with --tls-key"))
    static let tlsKey = Option.text("tls-key", value: "FILE", help: marked("option", "the private key (PEM) of --tls-cert"))

    static let spec = CommandSpec(
        name: "serve",
        usage: "serve [--listen ADDR:PORT] [--device D] [options] [-o DIR]",
        summary: marked("command", "The camera in a browser: live picture with the stamp, shoot, review, restyle, save."),
        options: [listen, tokenFile, team, maxUpload, tls, tlsCert, tlsKey, previewSize, ShootCommand.output, ShootCommand.name, ShootCommand.keepOriginal,
                  ShootCommand.exec, ShootCommand.quality, ShootCommand.optimize, ShootCommand.maxSize] + CaptureOptions.all + StampOptions.all
            + CatalogOptions.writing + SigningOptions.writing + CheckOptions.all)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        let address = try options.value(listen) ?? ListenAddress("127.0.0.1:\(ListenAddress.defaultPort)")!
        let token = try options.value(tokenFile).map { try readToken($0, console: console) }
        let credentials = try tlsCredentials(options, address: address, context: context)
        if options.flag(CheckOptions.verifyOnly) {
            return try CheckOptions.serveOnly(options, context: context, words: PageWords.everyLanguage(), address: address, tls: credentials)
        }
        var projects = try Config.projects(file: context.configFolder + "/config.json")
        if let given = try options.value(StampOptions.project), !projects.contains(given) { projects.insert(given, at: 0) }
        var shoot = try ShootCommand.choices(options, context: context, viewfinder: true, command: spec.name)
        shoot.describe = WebMessages.describe
        // A team's phones bring their own cameras: the server opens one only when told which.
        shoot.usesCamera = !options.flag(team) || shoot.device != nil
        var server = WebServer.Settings(listen: address, token: token, previewSize: try options.value(previewSize) ?? 960,
                                        projects: projects)
        if options.flag(team) { server.team = try teamRoster(context: context) }
        server.maxUploadBytes = (try options.value(maxUpload) ?? 50) << 20
        server.tls = credentials
        let checkTrust = try options.values(CheckOptions.trust)
        if shoot.writer.signer != nil || !checkTrust.isEmpty {
            server.check = try CheckOptions.page(options, identity: try? shoot.writer.signer?.identity(),
                                                 catalog: try CatalogOptions.writingPath(options, context: context), words: PageWords.everyLanguage())
        }
        var choices = ServeSession.Choices(shoot: shoot, server: server) { line in console.err("stampcam: warning: " + line) }
        // The phones' photos at their own size unless --max-size says otherwise.
        choices.uploadMaxSize = try options.value(ShootCommand.maxSize) ?? 0
        choices.announce = { saved in console.err(received(saved)) }
        let environment = context.environment
        choices.lead = { setup in leadDesk(setup, environment: environment) }
        let session = try ServeSession(choices)
        defer { ShootCommand.finish(session.setup, console: console) }
        ShootCommand.tell(session.setup.notes, console: console)
        ShootCommand.tell(session.styles, setup: session.setup, console: console)
        for notice in session.controller?.snapshot(takeNotices: false).notices ?? [] {
            console.err("stampcam: " + (notice.isWarning ? "warning: " : "note: ") + notice.text)
        }
        // Ctrl-C and SIGTERM end the server as a finished program (exit 0); a second one ends it at once.
        let stop = ConditionLock(false)
        let interception = Signals.shared.intercept([.interrupt, .terminate]) { stop.withLock { $0 = true } }
        defer { interception.cancel() }
        announce(session.server, console: console)
        if let team = server.team {
            let count = team.roster.people.count
            console.err("stampcam: \(count) \(count == 1 ? "person" : "people") of the team can send photos with their own links"
                        + " (stampcam team add NAME prints one)" + (session.controller == nil ? "; the server opens no camera of its own (--device gives it one)" : ""))
        }
        if let credentials {
            console.err("stampcam: HTTPS certificate SHA-256 fingerprint (compare it with the browser's): " + credentials.fingerprint)
            if let authority = credentials.authority, let url = session.server.urls.first {
                console.err("stampcam: phones trust this server once they install its certificate authority from "
                            + url.split(separator: "?")[0] + "ca (SHA-256 " + authority.fingerprint + ")")
            }
        }
        stop.wait(until: { $0 }, then: { _ in })
        console.err("stampcam: stopping")
        let summary = session.stop()
        if summary.droppedUploads > 0 {
            console.err("stampcam: note: \(summary.droppedUploads) uploaded photo\(summary.droppedUploads == 1 ? " was" : "s were")"
                        + " under review and not saved (the phones still have them)")
        }
        if summary.unsavedShot { console.err("stampcam: note: the photo under review was not saved") }
        console.err("stampcam: \(summary.saved) photo\(summary.saved == 1 ? "" : "s") saved in \(PathEncoding.display(session.setup.folder))"
                    + (summary.fromPhones > 0 ? " (\(summary.fromPhones) from phones)" : ""))
        return .success
    }

    /// The certificate `--tls` answers with, made on first use in the keys folder. That folder is
    /// only ever made whole, with the signing identity in it, so the identity is opened (or made) first.
    static func serverCertificate(names: [String], context: Context) throws -> ServerCertificate {
        let folder = InstallationKeys.folder(environment: context.environment)
        let now = WallClock.now().secondsSinceEpoch
        let keys = try InstallationKeys.openOrCreate(folder: folder, host: HostName.current ?? "localhost", now: now)
        if keys.created { context.console.err("stampcam: made a new signing identity in \(PathEncoding.display(keys.folder))") }
        return try ServerCertificate.openOrCreate(folder: folder, names: names, now: now)
    }

    /// The key and certificate for `--tls` (made on first use, kept with the keys) or `--tls-cert`/`--tls-key`; nil without.
    static func tlsCredentials(_ options: ParsedOptions, address: ListenAddress, context: Context) throws -> TLSCredentials? {
        let (certificateFile, keyFile) = (try options.value(tlsCert), try options.value(tlsKey))
        if (certificateFile == nil) != (keyFile == nil) {
            throw UsageError.badValue(option: certificateFile == nil ? "--tls-key" : "--tls-cert", value: certificateFile ?? keyFile ?? "",
                                      expected: "given with \(certificateFile == nil ? "--tls-cert" : "--tls-key")")
        }
        let certificate: ServerCertificate
        if let certificateFile, let keyFile {
            certificate = try ServerCertificate.read(keyPath: keyFile, certificatePath: certificateFile)
        } else if options.flag(tls) {
            var names = ["localhost", "127.0.0.1"] + WebServer.externalAddresses()
            if let host = HostName.current { names.insert(host, at: 1) }
            if !address.isAnyAddress, !names.contains(address.host) { names.append(address.host) }
            certificate = try serverCertificate(names: names, context: context)
            if certificate.created { context.console.err("stampcam: made an HTTPS certificate for \(names.joined(separator: ", "))") }
        } else {
            return nil
        }
        return TLSCredentials(keyPEM: certificate.keyPEM, certificatePEM: certificate.certificatePEM, fingerprint: certificate.fingerprint,
                              authority: certificate.authority.map { TLSCredentials.Authority(pem: $0.pem, der: $0.der, fingerprint: $0.fingerprint) })
    }

    /// The line said when a phone's photo is saved: who, which file, which site.
    static func received(_ saved: PhotoUploads.SavedUpload) -> String {
        let fields = saved.fields
        var line = "stampcam: photo from " + printable(fields.user ?? "a phone") + ": "
            + printable(PathEncoding.display(PhotoName.lastComponent(saved.written.path)))
        if let site = fields.site { line += " at " + printable(site) }
        return line
    }

    /// Text from a phone as one line on a terminal: control and bidi-format characters shown as `?`.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            [.control, .format].contains(scalar.properties.generalCategory) ? "?" : scalar
        }))
    }

    /// The team's photos for the lead's page: the session's catalog, day zone and sites, its signer trusted.
    static func leadDesk(_ setup: ShootSetup, environment: [String: String]) -> LeadDesk? {
        guard let catalog = setup.choices.catalog else { return nil }
        let trust = (try? setup.choices.writer.signer?.identity()).map { TrustAnchors(signer: $0) } ?? TrustAnchors()
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return LeadDesk(settings: LeadDesk.Settings(catalog: catalog, zone: setup.fields.zone, sites: setup.fields.whereabouts.sites,
                                                    fontConfig: setup.choices.fontConfig, version: StampCLI.version, trust: trust,
                                                    temporary: temporary))
    }

    /// The team of `stampcam team`; refused when nobody is in it (nobody could upload).
    static func teamRoster(context: Context) throws -> TeamFile {
        let team = try TeamFile(configFolder: context.configFolder)
        TeamCommand.warnIfExposed(configFolder: context.configFolder, console: context.console)
        guard !team.roster.people.isEmpty else {
            throw UsageError.badValue(option: "--team", value: "", expected: "a team with people in it: add them first with 'stampcam team add NAME'")
        }
        return team
    }

    /// The addresses to open, one a line (the first is the one to use), and the first as a QR code
    /// on a terminal when a phone is meant to open it.
    static func announce(_ server: WebServer, console: Console) {
        let urls = server.urls
        console.err("stampcam: the camera is at " + (urls.first ?? "?") + " (Ctrl-C stops it)")
        for url in urls { console.out(url) }
        if server.token != nil && !server.address.isLoopback {
            if console.outIsTerminal, let url = urls.first, let lines = WebServer.qrLines(url) {
                for line in lines { console.out(line) }
            }
            console.err("stampcam: anyone with this address can use the camera: share it only with people who may")
        }
    }

    /// The token in `file`: its first line, which must be 16 to 200 characters a URL can carry.
    static func readToken(_ file: String, console: Console) throws(UsageError) -> String {
        let bytes: [UInt8]
        do { bytes = try FileSystem.read(FilePath(file), limit: 4096) } catch {
            throw .badValue(option: "--token-file", value: PathEncoding.display(file),
                            expected: "a readable file holding the token (make one with: head -c 24 /dev/urandom | base64 | tr '+/' '-_' > FILE)")
        }
        let firstLine = String(decoding: bytes.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        let token = firstLine.trimmingWhitespace
        guard WebServer.isUsableToken(token) else {
            throw .badValue(option: "--token-file", value: PathEncoding.display(file),
                            expected: "a file whose first line is a token of 16 to 200 letters, digits, '-', '_', '.' or '~'")
        }
        if let status = FileStatus(path: FilePath(file)), status.mode & 0o077 != 0 {
            console.err("stampcam: warning: \(PathEncoding.display(file)) can be read by other users of this machine (chmod 600 it)")
        }
        return token
    }
}
