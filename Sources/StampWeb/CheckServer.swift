import Platform

/// `serve --verify-only`: the check page alone, for a public box — no camera, no uploads, no
/// team; `/` leads to `/verify`, everything else is 404.
public final class CheckServer: Sendable {
    /// Where it listens (the port the system chose, for port 0).
    public let address: ListenAddress
    public let isTLS: Bool
    private let daemon: HTTPDaemon

    /// Throws `WebError` when the address cannot be used or libmicrohttpd is missing.
    public init(page: CheckPage, listen: ListenAddress, tls: TLSCredentials? = nil) throws {
        daemon = try HTTPDaemon(address: listen, limits: HTTPLimits(), tls: tls, checks: page.uploads()) { request in
            if CheckPage.handles(request.path) { return page.respond(to: request) }
            if request.path == "/api/words" { return page.words.response(for: request.query["lang"] ?? request.headers["accept-language"] ?? "") }
            if request.path == "/" { return HTTPResponse(status: 303, headers: [("Location", CheckPage.path)]) }
            return .json(status: 404, error: "not found: this server only checks photos, at \(CheckPage.path)")
        }
        address = listen.with(port: daemon.port == 0 ? listen.port : daemon.port)
        isTLS = tls != nil
    }

    deinit { stop() }

    /// The check page's address on each of this machine's networks (or the one it listens on).
    public var urls: [String] {
        let hosts = address.isAnyAddress && !address.isIPv6 ? NetworkInterfaces.externalIPv4() + ["127.0.0.1"] : [address.host]
        return hosts.map { (isTLS ? "https" : "http") + "://\($0):\(address.port)" + CheckPage.path }
    }

    public func stop() { daemon.stop() }
}
