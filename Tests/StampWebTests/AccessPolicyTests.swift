import Testing
@testable import StampWeb

/// Who may use the server: tokens, hosts, cross-site requests. Plain values, no sockets.
@Suite struct AccessPolicyTests {
    static let lan = ListenAddress("0.0.0.0:8080")!
    static let loopback = ListenAddress("127.0.0.1:8080")!
    static let token = "0123456789abcdef0123456789abcdef"

    static func request(_ method: String = "GET", _ path: String = "/api/state", query: [String: String] = [:],
                        headers: [String: String] = ["host": "192.168.1.5:8080"], cookies: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, headers: headers, cookies: cookies)
    }

    @Test("with a token, every way of not giving it is 401", arguments: [
        ("GET", "/"), ("GET", "/api/state"), ("GET", "/stream.mjpg"), ("POST", "/api/shutter"), ("GET", "/shots/a.jpg"),
    ])
    func missingToken(method: String, path: String) {
        let policy = AccessPolicy(token: Self.token, listen: Self.lan)
        guard case .deny(401, let message) = policy.check(Self.request(method, path)) else {
            Issue.record("\(method) \(path) without the token was let through")
            return
        }
        #expect(message.contains("?token="))
        #expect(policy.check(Self.request(method, path, query: ["token": "wrong"])) ==
                .deny(status: 401, message: "wrong access token: open the address stampcam printed this time (the one with ?token=…)"))
        #expect(policy.check(Self.request(method, path, query: ["token": String(Self.token.dropLast())])) != .allow(setCookie: nil))
        #expect(policy.check(Self.request(method, path, cookies: ["stampcam_token_9090": Self.token])) != .allow(setCookie: nil),
                "another server's cookie")
    }

    @Test("the token in the URL sets the cookie; the cookie, a bearer header or X-Stampcam-Token then do")
    func tokenWays() {
        let policy = AccessPolicy(token: Self.token, listen: Self.lan)
        let fromURL = policy.check(Self.request("GET", "/", query: ["token": Self.token]))
        #expect(fromURL == .allow(setCookie: "stampcam_token_8080=\(Self.token); Path=/; HttpOnly; SameSite=Strict"))
        #expect(policy.check(Self.request(cookies: ["stampcam_token_8080": Self.token])) == .allow(setCookie: nil))
        #expect(policy.check(Self.request(headers: ["authorization": "Bearer \(Self.token)"])) != .deny(status: 401, message: ""))
        if case .deny = policy.check(Self.request(headers: ["authorization": "Bearer \(Self.token)"])) { Issue.record("bearer refused") }
        if case .deny = policy.check(Self.request(headers: ["x-stampcam-token": Self.token])) { Issue.record("header refused") }
    }

    @Test("loopback without a token: only this machine's host names (no DNS rebinding)")
    func loopbackHosts() {
        let policy = AccessPolicy(token: nil, listen: Self.loopback)
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
            #expect(policy.check(Self.request(headers: ["host": host])) == .allow(setCookie: nil), "\(host)")
        }
        for host in ["evil.example:8080", "127.0.0.1:9999", "localhost", "127.0.0.1.evil.example:8080"] {
            guard case .deny(403, _) = policy.check(Self.request(headers: ["host": host])) else {
                Issue.record("Host \(host) was let through")
                continue
            }
        }
        guard case .deny(403, _) = policy.check(Self.request(headers: [:])) else {
            Issue.record("a request without Host was let through")
            return
        }
    }

    @Test("a state change from another site, or in a form's encoding, is refused even with the cookie")
    func crossSite() {
        let policy = AccessPolicy(token: Self.token, listen: Self.lan)
        let cookie = ["stampcam_token_8080": Self.token]
        let host = "192.168.1.5:8080"
        func post(_ headers: [String: String]) -> AccessPolicy.Decision {
            policy.check(Self.request("POST", "/api/shutter", headers: ["host": host].merging(headers) { $1 }, cookies: cookie))
        }
        #expect(post([:]) == .allow(setCookie: nil))
        #expect(post(["content-type": "application/json; charset=utf-8", "origin": "http://\(host)"]) == .allow(setCookie: nil))
        guard case .deny(403, _) = post(["origin": "http://evil.example"]) else { Issue.record("cross origin"); return }
        guard case .deny(403, _) = post(["sec-fetch-site": "cross-site"]) else { Issue.record("sec-fetch-site"); return }
        guard case .deny(415, _) = post(["content-type": "text/plain"]) else { Issue.record("text/plain"); return }
        guard case .deny(415, _) = post(["content-type": "application/x-www-form-urlencoded"]) else { Issue.record("form"); return }
        // Reads are not state changes: an image on another site may show the picture only with the cookie.
        #expect(policy.check(Self.request("GET", "/api/state", headers: ["host": host, "origin": "http://evil.example"], cookies: cookie))
                == .allow(setCookie: nil))
    }

    @Test("tokens compare whole, whatever their length")
    func comparison() {
        #expect(AccessPolicy.same("abc", "abc"))
        #expect(!AccessPolicy.same("abc", "abd"))
        #expect(!AccessPolicy.same("abc", "abcd"))
        #expect(!AccessPolicy.same("", "a"))
        #expect(AccessPolicy.same("", ""))
        let token = AccessPolicy.newToken()
        #expect(token.count == 32 && AccessPolicy.isUsableToken(token))
        #expect(token != AccessPolicy.newToken())
        #expect(!AccessPolicy.isUsableToken("short"))
        #expect(!AccessPolicy.isUsableToken("has space in it 0123456789"))
        #expect(!AccessPolicy.isUsableToken("semicolon;0123456789abcdef"))
        #expect(AccessPolicy.isUsableToken("A-b_c.d~0123456789"))
    }
}
