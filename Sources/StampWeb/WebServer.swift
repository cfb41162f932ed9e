import Platform
import Session
import Synchronization
import Templates
import Watermark

/// `stampcam serve`: the watermark camera in a browser. Serves the page, the live picture and
/// the JSON API for one `ShootController` until `stop()`; the controller stays its owner's to close.
///
/// ```swift
/// let server = try WebServer(controller: controller, styles: settings.styles,
///                             settings: .init(listen: ListenAddress("127.0.0.1:8080")!))
/// print(server.urls[0])        // http://127.0.0.1:8080/
/// …                             // until Ctrl-C
/// server.stop()
/// ```
public final class WebServer: Sendable {
    public struct Settings: Sendable {
        public var listen: ListenAddress
        /// The access token; nil makes one up when the address is not loopback (and needs none on loopback).
        public var token: String?
        /// The live picture fits in a square this big (pixels).
        public var previewSize: Int
        /// The pick list of the fields panel's project.
        public var projects: [String]
        /// The people whose own tokens are let in (`--team`); nil without.
        public var team: TeamFile?
        /// HTTPS with this key and certificate (`--tls`); nil for plain HTTP.
        public var tls: TLSCredentials?
        /// Photos from the phones' cameras (`POST /api/photos`); nil takes none.
        public var uploads: PhotoUploads?
        /// The largest photo an upload may be (`--max-upload`).
        public var maxUploadBytes = 50 << 20
        /// The page's words in each language (`PageWords.everyLanguage()`, made before any thread).
        public var words = PageWords.english
        /// The public check page (`/verify`, no token needed); nil serves none.
        public var check: CheckPage?
        /// The team's photos for the lead's page (`/team`); nil when the server logs none.
        public var lead: LeadDesk?

        public init(listen: ListenAddress, token: String? = nil, previewSize: Int = 960, projects: [String] = [],
                    team: TeamFile? = nil, tls: TLSCredentials? = nil, uploads: PhotoUploads? = nil) {
            self.listen = listen
            self.token = token
            self.previewSize = previewSize
            self.projects = projects
            self.team = team
            self.tls = tls
            self.uploads = uploads
        }
    }

    /// Where it listens (the port the system chose, for port 0).
    public let address: ListenAddress
    /// The token requests must carry; nil when none is needed.
    public let token: String?
    /// Whether it speaks HTTPS.
    public let isTLS: Bool
    private let hub: LiveHub
    private let daemon: HTTPDaemon
    let app: WebApp

    /// Throws `WebError`, or `Threads.StartError` when the live picture's thread cannot be made.
    /// `controller`: the server's own camera; nil for none (the team's phones bring their own).
    public init(controller: ShootController?, styles: [Template], settings: Settings) throws {
        // A team's people bring their own tokens; without a team, one is made for other machines.
        let token = settings.token ?? (settings.listen.isLoopback || settings.team != nil ? nil : AccessPolicy.newToken())
        var limits = HTTPLimits()
        limits.uploadBytes = settings.maxUploadBytes
        let hub = try LiveHub(controller: controller, previewLongSide: settings.previewSize)
        // The policy needs the real port, known only once listening: the handler reads it from the box.
        let box = AppBox()
        do {
            let uploads = settings.uploads.map { uploads in
                HTTPDaemon.Uploads(path: AccessPolicy.uploadPath, folder: uploads.settings.folder) { request in
                    guard let app = box.app else { return .json(status: 503, error: "starting") }
                    return app.admitUpload(request)
                }
            }
            daemon = try HTTPDaemon(address: settings.listen, limits: limits, tls: settings.tls, uploads: uploads,
                                    checks: settings.check?.uploads()) { request in
                box.app?.respond(to: request) ?? .json(status: 503, error: "starting")
            }
        } catch {
            hub.close()
            throw error
        }
        address = settings.listen.with(port: daemon.port == 0 ? settings.listen.port : daemon.port)
        self.token = token
        self.hub = hub
        isTLS = settings.tls != nil
        let policy = AccessPolicy(token: token, listen: address, team: settings.team, tls: isTLS)
        app = WebApp(controller: controller, hub: hub, policy: policy, limits: limits,
                     styles: styles.map { ($0.id, $0.name) }, projects: settings.projects, uploads: settings.uploads,
                     words: settings.words, check: settings.check, phoneStyles: styles, authority: settings.tls?.authority,
                     lead: settings.lead)
        box.set(app)
    }

    deinit { stop() }

    /// The addresses to open: this machine's own for loopback; one per network interface for
    /// 0.0.0.0; each with `?token=…` when a token is needed.
    public var urls: [String] {
        let hosts = address.isAnyAddress && !address.isIPv6
            ? NetworkInterfaces.externalIPv4() + ["127.0.0.1"]
            : [address.host]
        let query = token.map { "?token=" + $0 } ?? ""
        return hosts.map { base($0) + query }
    }

    /// This machine's IPv4 addresses on its networks (not loopback): where phones reach it.
    public static func externalAddresses() -> [String] { NetworkInterfaces.externalIPv4() }

    private func base(_ host: String) -> String { (isTLS ? "https" : "http") + "://\(host):\(address.port)/" }

    /// Ends every stream, closes every connection and stops listening. The camera is not touched.
    public func stop() {
        hub.close()
        // Streams end when their clients next take a piece; give them a moment to end cleanly.
        let deadline = WallClock.monotonic() + 1
        while WallClock.monotonic() < deadline {
            let (viewers, listeners) = hub.streamCounts
            if viewers + listeners == 0 { break }
            WallClock.sleep(0.02)
        }
        daemon.stop()
    }

    /// Whether `text` can be an access token: 16 to 200 characters a URL and a cookie carry as
    /// they are (letters, digits, `-_.~`).
    public static func isUsableToken(_ text: String) -> Bool { AccessPolicy.isUsableToken(text) }

    /// `text` as a QR code drawn with half blocks, dark on light whatever the terminal's colours;
    /// nil when it does not fit in one.
    public static func qrLines(_ text: String) -> [String]? {
        guard let code = QRMatrix(text) else { return nil }
        let quiet = 4  // the light margin the QR standard asks for
        let side = code.size + 2 * quiet
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = "\u{1B}[30;107m"
            for column in 0..<side {
                let top = code.isDark(x: column - quiet, y: row - quiet)
                let bottom = row + 1 < side && code.isDark(x: column - quiet, y: row + 1 - quiet)
                line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " "
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }
}

/// Hands the app to the request handler once it exists.
private final class AppBox: Sendable {
    private let value = Mutex<WebApp?>(nil)
    var app: WebApp? { value.withLock { $0 } }
    func set(_ app: WebApp) { value.withLock { $0 = app } }
}
