/// An answer: status, headers and a body that is bytes, an open file, or a stream.
struct HTTPResponse: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case file(OpenFile)
        case stream(any StreamFeed)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Sent with every answer: nothing is cached, sniffed, framed or given a referrer (a token in
    /// the URL never leaves in a Referer header), and the page runs only its own scripts.
    static let commonHeaders: [(String, String)] = [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Content-Security-Policy",
         "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    ]

    /// A JSON document.
    static func json(status: Int = 200, _ bytes: [UInt8], headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: .bytes(bytes))
    }

    /// `{"error": "…"}` with `status`: every refusal, of the API and of pages alike, so a page and a
    /// script read one shape (and no server path is in one: they are said on the server's side).
    static func json(status: Int, error: String, headers: [(String, String)] = []) -> HTTPResponse {
        json(status: status, WebJSON.bytes(WebJSON.Refusal(error: error)), headers: headers)
    }

    /// The body's bytes (empty for files and streams): for tests.
    var bytes: [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }

    func header(_ name: String) -> String? {
        headers.last { $0.0.lowercased() == name.lowercased() }?.1
    }
}
