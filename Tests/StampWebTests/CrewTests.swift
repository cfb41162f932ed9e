import Foundation
import Platform
import Session
import Synchronization
import Testing
import TestSupport
@testable import StampWeb

/// The server under a crew, as values: locks on every route, limits by what the server knows, the
/// form's rules, the team file's names, and deadlines that follow the progress a body makes.
@Suite(.serialized) struct CrewTests {
    @Test("a locked member may change none of their locked fields, on any route; others may")
    func locks() throws {
        let fixture = try UploadTests.Fixture()
        defer { fixture.close() }
        let ana = fixture.ana.token, ben = fixture.ben.token  // Ana: user and project locked
        let before = fixture.web.controller.fieldPolicy.given
        for body in ["{\"user\": \"Mallory\"}", "{\"project\": \"Other\"}", "{\"note\": \"n\", \"user\": \"M\"}"] {
            let refused = fixture.post("/api/fields", body, token: ana)
            #expect(refused.status == 403, "\(body): \(String(decoding: refused.bytes, as: UTF8.self))")
            #expect(try UploadTests.json(refused)["error"] as? String ?? "" != "")
        }
        #expect(fixture.web.controller.fieldPolicy.given == before, "the camera's fields are untouched")
        // The server's camera is not a member's to drive at all: their own phone's values are theirs (/api/me).
        #expect(fixture.post("/api/fields", "{\"note\": \"north wall\"}", token: ana).status == 403, "not the member's camera")
        // Her own page's values: the locked ones refused, the others hers to set.
        #expect(fixture.post("/api/me", "{\"project\": \"Other\"}", token: ana).status == 403)
        #expect(fixture.post("/api/me", "{\"note\": \"north wall\"}", token: ana).status == 200, "a field that is not locked")

        var roster = fixture.team.roster
        try roster.remove("Ben")
        let eve = try roster.add("Eve", project: nil, locked: ["style", "project"])
        try roster.save(configFolder: fixture.config)
        #expect(fixture.post("/api/me", "{\"style\": 1}", token: eve.token).status == 403)
        #expect(fixture.post("/api/me", "{\"style\": \"x\"}", token: eve.token).status == 403)
        let upload = try UploadTests.json(try fixture.upload(try UploadTests.photo(), token: eve.token,
                                                             fields: ["project": "Evil"], query: ["review": "0"]))
        #expect(upload["project"] is NSNull, "a project locked without one is none, whatever the form says: \(upload)")
        #expect(fixture.post("/api/fields", "{\"user\": \"x\"}", token: ben).status == 401, "Ben is gone")
    }

    @Test("per-person limits count what the server knows: the token, else the address, never the client's own id")
    func senders() {
        let policy = AccessPolicy(token: nil, listen: ListenAddress("127.0.0.1:8080")!)
        let one = HTTPRequest(method: "POST", path: "/api/photos", headers: ["x-stampcam-client": "aaaaaaaaaaaa"], peer: "10.0.0.7")
        var other = one
        other.headers["x-stampcam-client"] = "bbbbbbbbbbbb"
        #expect(policy.sender(one) == policy.sender(other) && policy.sender(one) == "address:10.0.0.7")
    }

    @Test("a phone's position is read by --gps's rules", arguments: [
        ("60.17", "24.94", "1e300", nil), ("60.17", "24.94", "-6400000", nil), ("0x3C", "24.94", nil, nil),
        ("91", "24.94", nil, nil), ("60.17", "24.94", nil, "1e19"), ("60.17", "24.94", nil, "-1"), ("60.17", "24.94", "nan", nil),
    ] as [(String, String, String?, String?)])
    func refusedPositions(latitude: String, longitude: String, altitude: String?, accuracy: String?) {
        #expect(throws: PhotoUploads.Position.Refusal.self) {
            _ = try PhotoUploads.Position.parse(latitude: latitude, longitude: longitude, altitude: altitude, accuracy: accuracy, age: nil)
        }
    }

    @Test("a good position reads back; none is none; half a position is refused")
    func positions() throws {
        let position = try #require(try PhotoUploads.Position.parse(latitude: "60.1699", longitude: "-24.9384", altitude: "-12.5",
                                                                    accuracy: "8", age: "3"))
        #expect(position == PhotoUploads.Position(latitude: 60.1699, longitude: -24.9384, accuracy: 8, altitude: -12.5, ageSeconds: 3))
        #expect(try PhotoUploads.Position.parse(latitude: nil, longitude: nil, altitude: nil, accuracy: nil, age: nil) == nil)
        #expect(throws: PhotoUploads.Position.Refusal.self) {
            _ = try PhotoUploads.Position.parse(latitude: "60", longitude: nil, altitude: nil, accuracy: nil, age: nil)
        }
        #expect(throws: PhotoUploads.Position.Refusal.self) {
            _ = try PhotoUploads.Position.parse(latitude: nil, longitude: nil, altitude: "30", accuracy: nil, age: nil)
        }
    }

    @Test("a name with a direction mark is refused; one already in the file is shown escaped")
    func bidiNames() {
        var roster = TeamRoster()
        for name in ["Ana\u{202E}evil", "\u{2067}Ben", "Eve\u{200F}"] {
            #expect(throws: TeamRoster.Problem.self) { _ = try roster.add(name, project: nil, locked: []) }
        }
        #expect(throws: Never.self) { _ = try roster.add("Ana Lima", project: nil, locked: []) }
        #expect(throws: Never.self) { _ = try roster.add("سارا", project: nil, locked: []) }
        #expect(PathEncoding.display("Eve\u{202E}gpj.exe") == "Eve\\u{202E}gpj.exe")
    }

    @Test("a body has a grace, then must keep coming; the head has its own time; an answer has none")
    func deadlines() throws {
        let clock = Mutex(0.0)
        let deadlines = try RequestDeadlines(headSeconds: 10, bytesPerSecond: 1000, watching: false, clock: { clock.withLock { $0 } })
        var first: [Int32] = [0, 0], second: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &first) == 0)
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &second) == 0)
        let sockets = first + second
        defer { for socket in sockets { close(socket) } }
        let head = OpaquePointer(bitPattern: 0x1000)!, body = OpaquePointer(bitPattern: 0x2000)!
        deadlines.opened(head, socket: sockets[0])
        deadlines.opened(body, socket: sockets[2])
        deadlines.bodyStarts(body)
        #expect(deadlines.expire(at: 9).isEmpty)
        #expect(deadlines.expire(at: 10.5) == [sockets[0]], "the head is late; the body is in its grace")
        deadlines.received(body, bytes: 1)
        #expect(deadlines.expire(at: 20).isEmpty, "a byte a second is nothing yet: the next stretch judges it")
        deadlines.received(body, bytes: 12_000)
        #expect(deadlines.expire(at: 30.5).isEmpty, "12 KB in 10 s keeps up with 1 KB a second")
        deadlines.received(body, bytes: 9)
        #expect(deadlines.expire(at: 41) == [sockets[2]], "9 bytes in the next 10 s does not")
    }
}
