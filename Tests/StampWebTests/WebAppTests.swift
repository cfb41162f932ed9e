import Capture
import Foundation
import Platform
import Session
import Synchronization
import Templates
import Testing
import TestSupport
@testable import StampWeb

/// The JSON API and routing with a real controller on the test pattern, requests as values (no
/// sockets): statuses, error messages, phases, the control seat, what `/shots/` serves.
@Suite(.serialized) struct WebAppTests {
    static let fontConfig = TestFiles.packageRoot + "/fonts/fonts.conf"
    static var styles: [Template] {
        (try? TemplateStore(builtIn: TestFiles.packageRoot + "/templates", user: "/nonexistent", extraFolders: []))?
            .catalog.entries.map(\.template) ?? []
    }

    /// A controller, hub and app; `token` makes it a LAN server.
    final class Fixture: Sendable {
        let controller: ShootController
        let hub: LiveHub
        let app: WebApp
        let folder: String
        let clock = TestClock()

        init(token: String? = nil) throws {
            folder = try TestFiles.temporaryFolder("web")
            var capture = CaptureSettings()
            capture.resolution = Resolution(width: 640, height: 360)
            capture.settle = .frames(1)
            let styles = WebAppTests.styles
            controller = try ShootController(settings: ShootController.Settings(
                devices: [Cameras.testDevice], capture: capture, styles: styles, style: 0,
                fields: FieldPolicy(given: Fields(user: "Ana")), folder: folder, nameTemplate: nil, keepOriginal: true,
                writer: PhotoWriter.Settings(quality: 90, version: "test"), fontConfig: WebAppTests.fontConfig,
                describe: WebMessages.describe))
            hub = try LiveHub(controller: controller, previewLongSide: 320)
            let listen = token == nil ? ListenAddress("127.0.0.1:8080")! : ListenAddress("0.0.0.0:8080")!
            let clock = self.clock
            app = WebApp(controller: controller, hub: hub, policy: AccessPolicy(token: token, listen: listen),
                         limits: HTTPLimits(), styles: styles.map { ($0.id, $0.name) }, projects: ["Bridge 7", "Pier 4"],
                         clock: { clock.now })
        }

        func close() {
            hub.close()
            controller.close()
        }

        func get(_ path: String, query: [String: String] = [:], client: String = "browser-one") -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "GET", path: path, query: query,
                                        headers: ["host": "127.0.0.1:8080", "x-stampcam-client": client], peer: "127.0.0.1"))
        }

        func post(_ path: String, _ body: String = "", client: String = "browser-one") -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "POST", path: path,
                                        headers: ["host": "127.0.0.1:8080", "x-stampcam-client": client,
                                                  "content-type": "application/json", "user-agent": "curl/8.0"],
                                        body: Array(body.utf8), peer: "127.0.0.1"))
        }

        func wait(for phase: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if (try? WebAppTests.json(get("/api/state")))?["phase"] as? String == phase { return }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Issue.record("no \(phase)", sourceLocation: sourceLocation)
        }
    }

    /// Time for the control seat, moved by hand.
    final class TestClock: Sendable {
        private let value = Mutex(0.0)
        var now: Double { value.withLock { $0 } }
        func advance(_ seconds: Double) { value.withLock { $0 += seconds } }
    }

    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any])
    }

    static func error(_ response: HTTPResponse) -> String {
        ((try? json(response))?["error"] as? String) ?? ""
    }

    @Test("routes: the page and its files, the API, 404 and 405")
    func routes() throws {
        let web = try Fixture()
        defer { web.close() }
        let page = web.get("/")
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(String(decoding: page.bytes, as: UTF8.self).contains("id=\"shutter\""))
        #expect(web.get("/app.js").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(web.get("/app.css").status == 200 && web.get("/icon.svg").status == 200)
        #expect(web.get("/nothing").status == 404)
        #expect(web.get("/api/nothing").status == 404 && Self.error(web.get("/api/nothing")).contains("no such API"))
        #expect(web.get("/api/shutter").status == 405 && web.get("/api/shutter").header("Allow") == "POST")
        #expect(web.post("/api/state").status == 405)
        #expect(web.post("/").status == 405)
        let state = try Self.json(web.get("/api/state"))
        #expect(state["phase"] as? String == "viewfinder")
        #expect((state["style"] as? [String: Any])?["id"] as? String == "classic")
        #expect((state["fields"] as? [String: Any])?["user"] as? String == "Ana")
        #expect(state["projects"] as? [String] == ["Bridge 7", "Pier 4"])
        let styles = try #require(JSONSerialization.jsonObject(with: Data(web.get("/api/styles").bytes)) as? [[String: Any]])
        #expect(styles.map { $0["id"] as? String } == Self.styles.map(\.id))
    }

    @Test("bad JSON, unknown keys and bad values: 400 naming the problem")
    func badRequests() throws {
        let web = try Fixture()
        defer { web.close() }
        let cases: [(String, String, String)] = [
            ("/api/style", "{\"step\": ", "not JSON"),
            ("/api/style", "[1]", "JSON object"),
            ("/api/style", "{\"step\": 2}", "'step' must be 1"),
            ("/api/style", "{\"id\": \"fancy\"}", "no style 'fancy'"),
            ("/api/style", "{\"id\": 3}", "'id' must be"),
            ("/api/style", "{\"step\": 1, \"id\": \"banner\"}", "not both"),
            ("/api/style", "{}", "give 'step'"),
            ("/api/shutter", "{\"now\": true}", "unknown key 'now'"),
            ("/api/flash", "{\"mode\": \"strobe\"}", "not a flash mode"),
            ("/api/flash", "{\"mode\": \"torch\"}", "cannot do flash 'torch' (it has: off)"),
            ("/api/zoom", "{\"factor\": \"2\"}", "give 'factor'"),
            ("/api/focus", "{\"x\": 0.5}", "fractions"),
            ("/api/focus", "{\"x\": -0.1, \"y\": 0.5}", "fractions"),
            ("/api/fields", "{\"user\": 7}", "must be text"),
            ("/api/fields", "{\"name\": \"x\"}", "unknown key 'name'"),
            ("/api/fields", "{\"note\": \"\(String(repeating: "x", count: 501))\"}", "at most 500"),
            ("/api/control", "{\"force\": true}", "unknown key"),
        ]
        for (path, body, words) in cases {
            let response = web.post(path, body)
            #expect(response.status == 400, "\(path) \(body): \(response.status)")
            #expect(Self.error(response).contains(words), "\(path) \(body): \(Self.error(response))")
        }
        #expect(try Self.json(web.get("/api/state"))["phase"] as? String == "viewfinder", "nothing changed")
    }

    @Test("a request that means nothing in this phase: 409 saying what the camera is doing")
    func wrongPhase() throws {
        let web = try Fixture()
        defer { web.close() }
        #expect(web.post("/api/use").status == 409)
        #expect(Self.error(web.post("/api/retake")) == "nothing to retake: no photo is being reviewed (the camera is in the viewfinder)")
        #expect(web.post("/api/shutter").status == 200)
        web.wait(for: "reviewing")
        let again = web.post("/api/shutter")
        #expect(again.status == 409 && Self.error(again).contains("a photo is being reviewed"))
        #expect(web.post("/api/zoom", "{\"factor\": 2}").status == 409)
        #expect(web.post("/api/style", "{\"id\": \"banner\"}").status == 200, "restyling the shot under review")
        #expect(web.post("/api/use").status == 200)
        web.wait(for: "saved")
        let state = try Self.json(web.get("/api/state"))
        #expect((state["message"] as? String)?.hasPrefix("Saved ") == true)
        let files = TestFiles.files(in: web.folder).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        let sidecar = try #require(JSONSerialization.jsonObject(with: Data(try TestFiles.bytes(web.folder + "/" + files[0]))) as? [String: Any])
        #expect((sidecar["template"] as? [String: Any])?["id"] as? String == "banner")
    }

    @Test("one controller: a second client gets 409 naming the first, until it takes over")
    func control() throws {
        let web = try Fixture()
        defer { web.close() }
        #expect(web.post("/api/zoom", "{\"factor\": 2}", client: "browser-one").status == 200)
        let refused = web.post("/api/zoom", "{\"factor\": 3}", client: "browser-two")
        #expect(refused.status == 409)
        #expect(Self.error(refused) == "curl (127.0.0.1) controls the camera; take over to use it here")
        let watcher = try Self.json(web.get("/api/state", client: "browser-two"))
        #expect((watcher["control"] as? [String: Any])?["mine"] as? Bool == false)
        #expect(web.post("/api/control", client: "browser-two").status == 200)
        #expect(web.post("/api/zoom", "{\"factor\": 3}", client: "browser-two").status == 200)
        #expect(web.post("/api/zoom", "{\"factor\": 1}", client: "browser-one").status == 409)
        // The holder leaves (no event stream, no request for over 10 s): the seat is free again.
        web.clock.advance(11)
        let control = try Self.json(web.get("/api/state", client: "browser-one"))["control"] as? [String: Any]
        #expect(control?["free"] as? Bool == true, "the others see the seat free, not held by a closed tab")
        #expect(web.post("/api/zoom", "{\"factor\": 1}", client: "browser-one").status == 200)
        let zoom = try Self.json(web.get("/api/state"))["zoom"] as? [String: Any]
        #expect(zoom?["factor"] as? Double == 1)
    }

    @Test("the fields panel: values reach the controller; empty clears; the zoom clamps")
    func fields() throws {
        let web = try Fixture()
        defer { web.close() }
        #expect(web.post("/api/fields", "{\"project\": \"Pier 4\", \"note\": \"  north wall \", \"user\": \"\"}").status == 200)
        let given = web.controller.fieldPolicy.given
        #expect(given.project == "Pier 4" && given.note == "north wall" && given.user == nil)
        #expect(web.post("/api/fields", "{\"note\": null}").status == 200)
        #expect(web.controller.fieldPolicy.given.note == nil)
        #expect(web.post("/api/zoom", "{\"factor\": 99}").status == 200)
        #expect(web.controller.snapshot().state.zoom == 4)
        #expect(web.post("/api/focus", "{\"x\": 0.25, \"y\": 0.75}").status == 200)
        #expect(web.post("/api/focus").status == 200)
    }

    @Test("a style that does not show a given value: the state names it and the page gets a notice")
    func fieldsNotShown() throws {
        let web = try Fixture()
        defer { web.close() }
        func style() throws -> [String: Any] { try #require(try Self.json(web.get("/api/state"))["style"] as? [String: Any]) }
        #expect(try style()["notShown"] as? [String] == [])
        #expect(web.post("/api/style", "{\"id\": \"minimal\"}").status == 200)
        #expect(try style()["notShown"] as? [String] == ["user"])
        #expect(waitUntil { web.hub.notices(after: 0).contains { $0.notice.text == "The style Minimal does not show user" } })
    }

    @Test("with a token: 401 for the page, the state, the stream and the shutter without it")
    func token() throws {
        let web = try Fixture(token: "0123456789abcdef0123456789abcdef")
        defer { web.close() }
        for (method, path) in [("GET", "/"), ("GET", "/api/state"), ("GET", "/stream.mjpg"), ("POST", "/api/shutter")] {
            let response = web.app.respond(to: HTTPRequest(method: method, path: path, headers: ["host": "10.0.0.2:8080"]))
            #expect(response.status == 401, "\(method) \(path)")
            #expect(response.header("WWW-Authenticate") != nil)
        }
        let page = web.app.respond(to: HTTPRequest(method: "GET", path: "/", query: ["token": "0123456789abcdef0123456789abcdef"],
                                                   headers: ["host": "10.0.0.2:8080"]))
        #expect(page.status == 200)
        #expect(page.header("Set-Cookie")?.hasPrefix("stampcam_token_8080=0123456789abcdef0123456789abcdef;") == true)
        #expect(web.controller.snapshot().state.phase == .viewfinder, "no photo was taken")
    }

    @Test("/shots/ serves the photos of this session only, by name, and nothing that replaced them")
    func shots() throws {
        let web = try Fixture()
        defer { web.close() }
        // A photo that was there before the session: never served.
        try TestFiles.write(Array("not ours".utf8), to: web.folder + "/old.jpg")
        #expect(web.get("/shots/old.jpg").status == 404)
        #expect(web.post("/api/shutter").status == 200)
        web.wait(for: "reviewing")
        #expect(web.post("/api/use").status == 200)
        web.wait(for: "saved")
        var list: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(10)
        while list.isEmpty && Date() < deadline {
            list = (try JSONSerialization.jsonObject(with: Data(web.get("/api/shots").bytes)) as? [[String: Any]]) ?? []
            Thread.sleep(forTimeInterval: 0.02)
        }
        let name = try #require(list.first?["name"] as? String)
        #expect(list.first?["url"] as? String == "/shots/" + name)
        let photo = web.get("/shots/" + name)
        #expect(photo.status == 200 && photo.header("Content-Type") == "image/jpeg")
        guard case .file(let file) = photo.body else {
            Issue.record("not a file answer")
            return
        }
        #expect(file.size == (try TestFiles.bytes(web.folder + "/" + name)).count)
        let thumbnail = web.get("/shots/" + name, query: ["thumbnail": "1"])
        #expect(thumbnail.status == 200 && Array(thumbnail.bytes.prefix(2)) == [0xFF, 0xD8])
        for path in ["/shots/../\(name)", "/shots/./\(name)", "/shots/\(web.folder)/\(name)", "/shots/" + name.uppercased(),
                     "/shots/", "/shots/\(name)/", "/shots/" + name + "\u{10FFFF}"] {
            #expect(web.get(path).status == 404, "\(path)")
        }
        // The file replaced after the save (same name, another file): not served.
        try FileManager.default.removeItem(atPath: web.folder + "/" + name)
        try TestFiles.write(Array("another file".utf8), to: web.folder + "/" + name)
        #expect(web.get("/shots/" + name).status == 404)
    }

    @Test("names that are not UTF-8 travel in URLs byte for byte")
    func percentEncoding() {
        #expect(WebApp.percentEncoded("20261129-142233-0001.jpg") == "20261129-142233-0001.jpg")
        #expect(WebApp.percentEncoded("a b/é?.jpg") == "a%20b%2F%C3%A9%3F.jpg")
        #expect(WebApp.percentEncoded(PathEncoding.decode([0x63, 0x61, 0x66, 0xE9])) == "caf%E9")
    }

    @Test("the streams: the picture feed hands out the newest frame, the event feed the state first")
    func feeds() throws {
        let web = try Fixture()
        defer { web.close() }
        let picture = try #require(web.hub.openPictureStream(limit: 1))
        #expect(web.hub.openPictureStream(limit: 1) == nil, "over the limit")
        var part: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while part.isEmpty && Date() < deadline {
            if case .send(let bytes) = picture.next() { part = bytes } else { Thread.sleep(forTimeInterval: 0.02) }
        }
        // The part's boundary and headers, the JPEG, and the next part's boundary and headers right
        // after it (a browser shows a part only once the next one has begun).
        let header = Array("--stampcamframe\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        #expect(Array(part.prefix(header.count + 2)) == header + [0xFF, 0xD8])
        #expect(Array(part.suffix(header.count + 4)) == [0xFF, 0xD9, 0x0D, 0x0A] + header)
        picture.finished()
        picture.finished()  // once only
        #expect(web.hub.streamCounts.viewers == 0)

        #expect(web.hub.admitListener(limit: 16))
        let events = EventFeed(app: web.app, client: ControlSeat.Client(id: "browser-one", label: "x"))
        guard case .send(let first) = events.next() else {
            Issue.record("no first event")
            return
        }
        let opening = String(decoding: first, as: UTF8.self)
        let head = "retry: 2000\n\nevent: state\ndata: "
        #expect(opening.hasPrefix(head + "{") && opening.hasSuffix("}\n\n") && !opening.dropLast(2).dropFirst(13).contains("\n\n"))
        let state = try #require(JSONSerialization.jsonObject(with: Data(opening.dropFirst(head.count).dropLast(2).utf8)) as? [String: Any])
        #expect(state["version"] is Int && state["phase"] is String)
        #expect(events.next() == .wait, "nothing new")
        #expect(web.post("/api/style", "{\"step\": 1}").status == 200)
        var next = StreamStep.wait
        let until = Date().addingTimeInterval(10)
        while next == .wait && Date() < until {
            next = events.next()
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard case .send(let update) = next else {
            Issue.record("no state event after a change")
            return
        }
        #expect(String(decoding: update, as: UTF8.self).contains("\"id\":\"banner\""))
        web.hub.close()
        #expect(events.next() == .end)
        #expect(picture.next() == .end)
        events.finished()
        #expect(web.hub.streamCounts.listeners == 0)
    }
}
