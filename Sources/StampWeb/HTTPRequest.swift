import Platform

/// One complete HTTP request as the server received it. Text that was not UTF-8 is kept byte for
/// byte (`PathEncoding`); header names are lowercase.
struct HTTPRequest: Sendable {
    var method: String
    /// The path, percent-decoded (`/shots/20261129-142233-0001.jpg`).
    var path: String
    /// Query arguments, decoded; later ones win.
    var query: [String: String] = [:]
    var headers: [String: String] = [:]
    var cookies: [String: String] = [:]
    var body: [UInt8] = []
    /// The client's IP address as text.
    var peer: String = ""
    /// A photo uploaded as a form (`POST /api/photos`), with the form's other fields.
    var upload: Upload?

    struct Upload: Sendable {
        var photo: FileContents
        var fields: [String: String]
    }

    init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
         cookies: [String: String] = [:], body: [UInt8] = [], peer: String = "", upload: Upload? = nil) {
        self.upload = upload
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.body = body
        self.peer = peer
    }

    /// GET and HEAD read; HEAD gets the headers only (the server leaves the body out).
    var isRead: Bool { method == "GET" || method == "HEAD" }
}
