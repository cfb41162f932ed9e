import Provenance
@testable import StampWeb
import Synchronization
import Testing

@Suite("the check page") struct CheckPageTests {
    static func page(clock: @escaping @Sendable () -> Double = { 0 }) -> CheckPage {
        CheckPage(settings: .init(organization: "Acme Site Services", trust: TrustAnchors(), catalog: nil), words: .english, clock: clock)
    }

    @Test("the camera's, the lead's and the check page's words have ids of their own (one table holds them all)")
    func distinctIds() {
        let camera = Set(PageWords.cameraWords().keys), lead = Set(PageWords.leadWords().keys), check = Set(PageWords.checkWords().keys)
        #expect(camera.isDisjoint(with: lead) && camera.isDisjoint(with: check), "\(camera.intersection(lead.union(check)))")
        #expect(lead.isDisjoint(with: check), "\(lead.intersection(check))")
    }

    @Test("its routes: the page, its files, its words, what it is about; other methods 405")
    func routes() {
        let page = Self.page()
        #expect(page.respond(to: HTTPRequest(method: "GET", path: "/verify")).header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.respond(to: HTTPRequest(method: "GET", path: "/verify.js")).status == 200)
        #expect(page.respond(to: HTTPRequest(method: "GET", path: "/verify.css")).status == 200)
        let words = page.respond(to: HTTPRequest(method: "GET", path: "/verify/words"))
        #expect(String(decoding: words.bytes, as: UTF8.self).contains("\"verdict-changed\""))
        let about = page.respond(to: HTTPRequest(method: "GET", path: "/verify", headers: ["accept": "application/json"]))
        #expect(String(decoding: about.bytes, as: UTF8.self) == #"{"codes":false,"organization":"Acme Site Services"}"#)
        #expect(page.respond(to: HTTPRequest(method: "DELETE", path: "/verify")).status == 405)
        // Without a photo log no code is looked up; a POST without a photo says how to send one.
        #expect(page.respond(to: HTTPRequest(method: "GET", path: "/verify", query: ["code": "K7MN-4XRT-9P"],
                                             headers: ["accept": "application/json"])).status == 404)
        #expect(page.respond(to: HTTPRequest(method: "POST", path: "/verify")).status == 400)
        #expect(CheckPage.handles("/verify/thumbnail") && !CheckPage.handles("/verify/other") && !CheckPage.handles("/api/state"))
    }

    @Test("a minute's worth at once, then one each two seconds; addresses apart")
    func rateLimit() {
        let now = Mutex(0.0)
        let page = Self.page(clock: { now.withLock { $0 } })
        let ask = { (peer: String, cost: Int) in page.admit(HTTPRequest(method: "GET", path: "/verify", peer: peer), cost: cost)?.status }
        for _ in 0..<30 { #expect(ask("10.0.0.1", 1) == nil) }
        #expect(ask("10.0.0.1", 1) == 429)
        #expect(ask("10.0.0.2", 3) == nil)
        now.withLock { $0 = 2 }
        #expect(ask("10.0.0.1", 1) == nil)
        #expect(ask("10.0.0.1", 1) == 429)
        now.withLock { $0 = 62 }
        #expect(ask("10.0.0.1", 30) == nil)
    }

    @Test("the rate limit remembers at most so many addresses")
    func manyAddresses() {
        var limit = RateLimit()
        for index in 0..<(RateLimit.maxAddresses + 10) { _ = limit.take(1, for: "a\(index)", at: 0, perMinute: 30) }
        let admitted = limit.take(1, for: "new", at: 0, perMinute: 30)
        #expect(admitted)
    }

    @Test("a verdict's sentence: the organisation and the time in the photo's zone")
    func sentence() {
        let words = PageWords.english.answer(for: "").words
        #expect(CheckVerdict.fill(words["verdict-valid"] ?? "", ["org": "Acme", "time": "4 Dec"]) == "Unchanged since a camera of Acme signed it on 4 Dec.")
        #expect(CheckVerdict.fill("{a}{b}{a} {c} {", ["a": "1", "b": "{a}"]) == "1{a}1 {c} {")
    }
}
