import Capture
import Library
import Platform
import Session
import StampWeb
import Values

/// `stampcam serve`: the watermark camera in a browser — the laptop's own, or a phone on the same
/// network. The same controller, pipeline and files as `shoot`; the page, the live picture and the
/// JSON API come from StampWeb. Runs until Ctrl-C or SIGTERM, then releases the camera and exits 0.
enum ServeCommand: Command {
    static let listen = Option<ListenAddress>("listen", short: "l", value: "ADDR:PORT",
                                              help: "address and port to listen on (default 127.0.0.1:8080; 0.0.0.0:8080 for phones on the network, with an access token)") { text throws(UsageError) in
        guard let address = ListenAddress(text) else {
            throw .badValue(option: "--listen", value: text, expected: "an address and port like 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080")
        }
        return address
    }
    static let tokenFile = Option.text("token-file", value: "FILE",
                                       help: "use the access token in FILE (a fixed one, to bookmark), also on loopback")
    static let previewSize = Option.integer("preview-size", value: "PX", in: 160...3840,
                                            help: "the live picture's long side in pixels (default 960)")

    static let spec = CommandSpec(
        name: "serve",
        usage: "serve [--listen ADDR:PORT] [--device D] [options] [-o DIR]",
        summary: "The camera in a browser: live picture with the stamp, shoot, review, restyle, save.",
        options: [listen, tokenFile, previewSize, ShootCommand.output, ShootCommand.name, ShootCommand.keepOriginal,
                  ShootCommand.exec, ShootCommand.quality, ShootCommand.optimize, ShootCommand.maxSize] + CaptureOptions.all + StampOptions.all
            + CatalogOptions.writing + SigningOptions.writing)

    static func run(_ options: ParsedOptions, context: Context) throws -> ExitCode {
        let console = context.console
        try WebServer.loadLibraries()  // said before a camera is opened
        let address = try options.value(listen) ?? ListenAddress("127.0.0.1:\(ListenAddress.defaultPort)")!
        let token = try options.value(tokenFile).map { try readToken($0, console: console) }
        var projects = try Config.projects(file: context.configFolder + "/config.json")
        if let given = try options.value(StampOptions.project), !projects.contains(given) { projects.insert(given, at: 0) }
        var choices = try ShootCommand.choices(options, context: context, viewfinder: true, command: spec.name)
        choices.describe = WebMessages.describe
        let setup = try ShootSetup(choices)
        defer { ShootCommand.finish(setup, console: console) }
        ShootCommand.tell(setup.notes, console: console)
        let check = try setup.checkStyles()
        ShootCommand.tell(check, setup: setup, console: console)
        let controller = try setup.makeController()
        defer { controller.close() }
        for notice in controller.snapshot(takeNotices: false).notices {
            console.err("stampcam: " + (notice.isWarning ? "warning: " : "note: ") + notice.text)
        }
        let server = try WebServer(controller: controller, styles: check.styles,
                                   settings: WebServer.Settings(listen: address, token: token,
                                                                previewSize: try options.value(previewSize) ?? 960,
                                                                projects: projects))
        // Ctrl-C and SIGTERM end the server as a finished program (exit 0); a second one ends it at once.
        let stop = ConditionLock(false)
        let interception = Signals.shared.intercept([.interrupt, .terminate]) { stop.withLock { $0 = true } }
        defer { interception.cancel() }
        announce(server, console: console)
        stop.wait(until: { $0 }, then: { _ in })
        console.err("stampcam: stopping")
        server.stop()
        let last = controller.snapshot()
        controller.close()
        if last.state.hasUnsavedShot { console.err("stampcam: note: the photo under review was not saved") }
        ShootCommand.tellSaved(controller, setup: setup, console: console)
        return .success
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
