import Platform
import Provenance
import StampWeb
import Values

/// `stampcam team`: the people who upload to `serve --team` from their phones, each with a link of
/// their own (its token names them). `team add NAME` prints the link and its QR code (`--lead`: a
/// lead's link, to the team's day at `/team`); `team list`; `team remove NAME` (their link stops
/// working at once, also on a server that is running).
enum TeamCommand: Command {
    static let project = Option.text("project", value: "NAME",
                                     help: marked("option", "the project their photos are for (repeatable: their phone picks from the list, the first to start)"))
    static let lock = Option<Set<String>>("lock", value: "FIELD,…",
                                          help: marked("option", "fields their page cannot change: user, project, style")) { text throws(UsageError) in
        let names = Set(text.split(separator: ",").map { String($0).trimmingWhitespace })
        guard !names.isEmpty, names.allSatisfy({ TeamRoster.lockable.contains($0) }) else {
            throw .badValue(option: "--lock", value: text, expected: "a list of user, project and style, like user,project")
        }
        return names
    }
    static let lead = Flag("lead", help: marked("option", "a team lead: their link opens the team's day (photos, plan, report) and lets them add and remove people"))
    static let json = Flag("json", help: marked("option", "print JSON instead of text"))
    static let tls = Flag("tls", help: marked("option", "an https link, for 'serve --tls' (its certificate's fingerprint shown beside the QR code)"))

    static let spec = CommandSpec(
        name: "team",
        usage: "team add NAME [--project P]… [--lock user,project,style] [--lead] [--listen ADDR:PORT] [--tls] | team list [--json] | team remove NAME",
        summary: marked("command", "The people who send photos to 'serve --team' from their phones: each gets a link (and its QR code) that names them."),
        options: [project, lock, lead, ServeCommand.listen, tls, json])

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let folder = context.configFolder
        var roster = try TeamRoster.load(configFolder: folder)
        let console = context.console
        warnIfExposed(configFolder: folder, console: console)
        switch options.positionals.first {
        case "add" where options.positionals.count == 2:
            var projects: [String] = []
            for name in try options.values(project).map(\.trimmingWhitespace) where !name.isEmpty && !projects.contains(name) {
                projects.append(name)
            }
            let person = try roster.add(options.positionals[1], projects: projects, locked: try options.value(lock) ?? [],
                                        isLead: options.flag(lead))
            try roster.save(configFolder: folder)
            let address = try options.value(ServeCommand.listen) ?? ListenAddress("0.0.0.0:\(ListenAddress.defaultPort)")!
            let link = link(person, address: address, tls: options.flag(tls))
            console.err("stampcam: added \(person.name); their link (share it with them only):")
            console.out(link)
            if console.outIsTerminal, let lines = WebServer.qrLines(link) {
                for line in lines { console.out(line) }
            }
            if options.flag(tls) {
                // The certificate `serve --tls` makes on first use: made now, so the person can compare.
                let names = ["localhost", "127.0.0.1"] + WebServer.externalAddresses()
                let certificate = try ServeCommand.serverCertificate(names: names, context: context)
                console.out("HTTPS certificate SHA-256 " + certificate.fingerprint)
                if let authority = certificate.authority {
                    console.out("certificate authority SHA-256 " + authority.fingerprint + " (install it from the page /ca)")
                }
            }
        case "list" where options.positionals.count == 1:
            if options.flag(json) {
                struct Entry: Encodable {
                    let name: String
                    let project: String?
                    let projects: [String]
                    let locked: [String]
                    let lead: Bool
                }
                for person in roster.people {
                    console.out(try JSONOutput.line(Entry(name: person.name, project: person.project, projects: person.projects,
                                                          locked: person.locked.sorted(), lead: person.isLead)))
                }
            } else {
                for person in roster.people {
                    var line = PathEncoding.display(person.name)
                    if person.isLead { line += "  lead" }
                    if !person.projects.isEmpty {
                        line += "  project\(person.projects.count == 1 ? "" : "s"): " + person.projects.map(PathEncoding.display).joined(separator: ", ")
                    }
                    if !person.locked.isEmpty { line += "  locked: " + person.locked.sorted().joined(separator: ",") }
                    console.out(line)
                }
                if roster.people.isEmpty { console.err("stampcam: the team is empty (add people with: stampcam team add NAME)") }
            }
        case "remove" where options.positionals.count == 2:
            try roster.remove(options.positionals[1])
            try roster.save(configFolder: folder)
            console.err("stampcam: removed \(PathEncoding.display(options.positionals[1])); their link stops working now"
                        + " (a running serve refuses it from its next request)")
        default:
            throw UsageError.badValue(option: "team", value: options.positionals.joined(separator: " "),
                                      expected: "add NAME, list, or remove NAME")
        }
        return .success
    }

    /// A warning when the team file (every member's token) can be read by other users.
    static func warnIfExposed(configFolder: String, console: Console) {
        guard TeamRoster.isExposed(configFolder: configFolder) else { return }
        let path = PathEncoding.display(TeamRoster.file(configFolder: configFolder))
        console.err("stampcam: warning: \(path) holds every member's token and can be read by other users of this machine (chmod 600 it)")
    }

    /// The address a person opens: this machine's first network address (or the one given), with
    /// their token; a lead's opens the team's day.
    static func link(_ person: TeamRoster.Person, address: ListenAddress, tls: Bool) -> String {
        let host = address.isAnyAddress && !address.isIPv6 ? (WebServer.externalAddresses().first ?? "127.0.0.1") : address.host
        return TeamRoster.link(person, base: (tls ? "https" : "http") + "://\(host):\(address.port)")
    }
}
