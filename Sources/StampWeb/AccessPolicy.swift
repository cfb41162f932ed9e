import Values

/// Who may use the server, decided per request before anything else is looked at.
///
/// - Without a token (listening on loopback): only this machine can connect, so the checks are
///   against other web sites the person visits: the Host must name this machine (a DNS-rebinding
///   site cannot send its own name), and a state change must not come from another origin.
/// - With a token (any other address, or `--token-file`): every request carries it — in the
///   query (`?token=…`, the URL that was printed), in the cookie the page then gets, or in an
///   `Authorization: Bearer` header for scripts — else 401. The cookie is `SameSite=Strict`, so
///   another site cannot make the browser send it.
///
/// - With a team (`serve --team`): each person's own token (`TeamRoster`) is let in too, and names
///   who is asking; a request without one is let in only from this machine itself. What a person's
///   `--lock` locks, no route lets them change (`mayChange`), and what they may send is counted
///   against what the server knows of them (`sender`).
///
/// State changes are POST only, and a POST from another origin, or with a body that is not JSON
/// (what an HTML form can send; only a photo upload is a form), is refused: no cross-site request
/// can press the shutter.
struct AccessPolicy: Sendable {
    /// The token every request must carry; nil when none is needed (loopback).
    let token: String?
    /// The people whose own tokens are let in; nil without `--team`.
    let team: TeamFile?
    /// `https` with TLS: what the page's Origin says.
    let scheme: String
    /// The port, in Host checks and the cookie's name.
    let port: Int
    /// Host header values accepted without a token (`127.0.0.1:8080`, `localhost:8080` …).
    let localHosts: Set<String>

    init(token: String?, listen: ListenAddress, team: TeamFile? = nil, tls: Bool = false) {
        self.token = token
        self.team = team
        scheme = tls ? "https" : "http"
        port = listen.port
        let names = ["127.0.0.1", "localhost", "[::1]", listen.host]
        var hosts = Set(names.map { "\($0):\(listen.port)" })
        if listen.port == 80 { hosts.formUnion(names) }  // browsers leave the default port out
        localHosts = hosts
    }

    /// Each server its own cookie: cookies do not tell ports apart.
    var cookieName: String { "stampcam_token_\(port)" }

    enum Decision: Equatable {
        /// Go ahead; `setCookie` is the header that keeps a token given in the URL.
        case allow(setCookie: String?)
        case deny(status: Int, message: String)
    }

    /// The token a request carries: its cookie, a Bearer header, `X-Stampcam-Token`, or `?token=`.
    func givenToken(_ request: HTTPRequest) -> String? {
        request.cookies[cookieName] ?? bearer(request) ?? request.headers["x-stampcam-token"] ?? request.query["token"]
    }

    /// The team member whose token the request carries.
    func person(_ request: HTTPRequest) -> TeamRoster.Person? {
        guard let team, let given = givenToken(request) else { return nil }
        return team.roster.person(token: given)
    }

    /// What the per-person limits (uploads at once, photos under review) count a request against:
    /// what the server knows, never what the client says — the team member's token, else the address.
    func sender(_ request: HTTPRequest) -> String {
        person(request).map { "person:" + $0.name } ?? "address:" + request.peer
    }

    /// Whether `request` may set `fields` (`user`, `project`, `style`): a team member may not set
    /// the ones their `team add --lock` locked, on any route (the camera's fields and style, their
    /// uploads). This machine, the run's own token and a member without locks may set them all.
    func mayChange(_ fields: some Sequence<String>, _ request: HTTPRequest) -> Decision {
        guard let person = person(request) else { return .allow(setCookie: nil) }
        let locked = Set(fields).intersection(person.locked).sorted()
        guard !locked.isEmpty else { return .allow(setCookie: nil) }
        let names = locked.map { $0 == "user" ? "name" : $0 }.joined(separator: " and ")
        return .deny(status: 403, message: "\(person.name)'s link cannot change the \(names): the team's lead locked it (stampcam team add --lock)")
    }

    /// The fields `request`'s person may not change (empty for anyone but a team member with locks).
    func locked(_ request: HTTPRequest) -> Set<String> { person(request)?.locked ?? [] }

    /// Whether a request `check` let in may see the team's day (`/team`, `/api/team/…`): the
    /// server's own operator (this machine without a token, or the token `serve` printed) or a lead
    /// of the team; never a member.
    func isLead(_ request: HTTPRequest) -> Bool {
        guard let given = givenToken(request) else { return true }  // let in without a token: this machine
        if let token, Self.same(given, token) { return true }
        return person(request)?.isLead ?? false
    }

    func check(_ request: HTTPRequest) -> Decision {
        var setCookie: String?
        let given = givenToken(request)
        let fromThisMachine = team != nil && given == nil && Self.isLoopback(request.peer)
        if (token != nil || team != nil) && !fromThisMachine {
            guard let given, token.map({ Self.same(given, $0) }) == true || team?.roster.person(token: given) != nil else {
                return .deny(status: 401, message: given == nil
                    ? "this stampcam needs its access token: open the address stampcam printed (the one with ?token=…)"
                    : "wrong access token: open the address stampcam printed this time (the one with ?token=…)")
            }
            if request.cookies[cookieName] != given {
                setCookie = "\(cookieName)=\(given); Path=/; HttpOnly; SameSite=Strict" + (scheme == "https" ? "; Secure" : "")
            }
        } else {
            guard let host = request.headers["host"], localHosts.contains(host.lowercased()) else {
                return .deny(status: 403, message: "this stampcam only answers requests for this machine's own address (Host: 127.0.0.1:\(port) or localhost:\(port))")
            }
        }
        if !request.isRead {
            if let site = request.headers["sec-fetch-site"], site == "cross-site" || site == "same-site" {
                return .deny(status: 403, message: "a request from another web site was refused")
            }
            if let origin = request.headers["origin"], let host = request.headers["host"],
               origin.lowercased() != scheme + "://" + host.lowercased() {
                return .deny(status: 403, message: "a request from another web site (\(origin)) was refused")
            }
            if let type = request.headers["content-type"], !Self.isJSON(type),
               !(request.path == Self.uploadPath && Self.mediaType(type) == "multipart/form-data") {
                return .deny(status: 415, message: "send JSON (Content-Type: application/json), not \(type)")
            }
        }
        return .allow(setCookie: setCookie)
    }

    private func bearer(_ request: HTTPRequest) -> String? {
        guard let value = request.headers["authorization"], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingWhitespace
    }

    /// Where phones post their photos: the one request that is a form.
    static let uploadPath = "/api/photos"

    private static func mediaType(_ type: String) -> String {
        type.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingWhitespace.lowercased() } ?? ""
    }

    private static func isJSON(_ type: String) -> Bool { mediaType(type) == "application/json" }

    /// Whether a peer address is this machine's own.
    static func isLoopback(_ peer: String) -> Bool {
        peer == "::1" || peer.hasPrefix("127.") || peer.hasPrefix("::ffff:127.")
    }

    /// Compares in time that does not depend on where the texts differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }

    /// A token for this run: 128 random bits in hex (safe in a URL as it is).
    static func newToken() -> String { RandomBytes.hex(16) }

    /// Whether `text` can be a token (from `--token-file`): 16 to 200 characters that need no
    /// escaping in a URL or a cookie.
    static func isUsableToken(_ text: String) -> Bool {
        (16...200).contains(text.count) && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-_.~".unicodeScalars.contains(scalar))
        }
    }
}
