import Testing
@testable import StampWeb

@Suite struct HTTPDaemonTests {
    @Test("headers that let a proxy read a request another way are named; plain ones pass", arguments: [
        (["host", "content-length", "content-length"], "the request has 2 Content-Length headers; send one"),
        (["host", "content-length", "transfer-encoding"], "the request has both Content-Length and Transfer-Encoding; send one"),
        (["host", "accept", "host"], "the request has 2 Host headers; send one"),
    ])
    func ambiguous(names: [String], reason: String) {
        #expect(HTTPDaemon.ambiguity(names) == reason)
    }

    @Test("one Host and one Content-Length, or chunked alone: not ambiguous")
    func plain() {
        #expect(HTTPDaemon.ambiguity(["host", "content-type", "content-length"]) == nil)
        #expect(HTTPDaemon.ambiguity(["host", "transfer-encoding"]) == nil)
    }
}
