import Catalog
import Foundation
import Platform
import Provenance
import Session
import Synchronization
import Testing
import TestSupport
import Values
@testable import StampWeb

/// The lead's page as values: who may see it (leads and the operator, never a member), the team
/// file's roles, days and their zones, the day's photos from a catalog and their ids.
@Suite(.serialized) struct LeadTests {
    /// A team of a member and a lead, a catalog of three photos on 2026-12-03 (UTC), and an app serving them.
    final class Fixture: Sendable {
        let web: WebAppTests.Fixture
        let app: WebApp
        let desk: LeadDesk
        let team: TeamFile
        let ana: TeamRoster.Person
        let lee: TeamRoster.Person
        let files: [String]

        init(operatorToken: String? = nil) throws {
            web = try WebAppTests.Fixture()
            let config = try TestFiles.temporaryFolder("lead-team")
            var roster = TeamRoster()
            ana = try roster.add("Ana", project: "Bridge", locked: [])
            lee = try roster.add("Lee", project: nil, locked: [], isLead: true)
            try roster.save(configFolder: config)
            team = try TeamFile(configFolder: config)
            let catalogPath = web.folder + "/../catalog-\(UUID().uuidString).sqlite"
            let catalog = try Catalog(path: catalogPath)
            var files: [String] = []
            for (index, (user, hour)) in [("Ana", 9), ("Lee", 11), ("Ana", 14)].enumerated() {
                let path = web.folder + "/photo-\(index).jpg"
                let bytes = Array("photo \(index)".utf8)
                try TestFiles.write(bytes, to: path)
                files.append(path)
                _ = try catalog.add(CatalogEntry(path: path, size: bytes.count, sha256: SHA256Digest.digest(bytes).map { Hex.padded($0, digits: 2, uppercase: false) }.joined(),
                                                 command: .shoot, time: Timestamp(year: 2026, month: 12, day: 3, hour: hour, minute: 0, second: 0, utcOffsetMinutes: 0),
                                                 user: user, project: index == 1 ? "Depot" : "Bridge", latitude: 60.17, longitude: 24.94, site: "Pier"))
            }
            self.files = files
            var settings = LeadDesk.Settings(catalog: catalogPath, zone: .fixed(minutes: 0), sites: nil, fontConfig: WebAppTests.fontConfig,
                                             version: "test", trust: TrustAnchors(), temporary: NSTemporaryDirectory())
            settings.clock = { 1_796_300_000 }  // 2026-12-03
            desk = LeadDesk(settings: settings)
            let clock = web.clock
            app = WebApp(controller: web.controller, hub: web.hub,
                         policy: AccessPolicy(token: operatorToken, listen: ListenAddress("0.0.0.0:8080")!, team: team),
                         limits: HTTPLimits(), styles: [], projects: [], lead: desk, clock: { clock.now })
        }

        func close() { web.close() }

        func get(_ path: String, query: [String: String] = [:], token: String?, peer: String = "192.168.1.23") -> HTTPResponse {
            var headers = ["host": "192.168.1.5:8080"]
            if let token { headers["authorization"] = "Bearer " + token }
            return app.respond(to: HTTPRequest(method: "GET", path: path, query: query, headers: headers, peer: peer))
        }

        func post(_ path: String, _ body: String, token: String) -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "POST", path: path, headers: ["host": "192.168.1.5:8080", "content-type": "application/json",
                                                                              "authorization": "Bearer " + token],
                                        body: Array(body.utf8), peer: "192.168.1.23"))
        }
    }

    static func object(_ response: HTTPResponse) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONValue(parsing: response.bytes) else { throw CocoaError(.coderReadCorrupt) }
        return object
    }

    @Test("a lead's role is kept in the team file; any other role reads as a member")
    func roles() throws {
        let folder = try TestFiles.temporaryFolder("lead-roles")
        var roster = TeamRoster()
        let lead = try roster.add("Lee", project: nil, locked: [], isLead: true)
        _ = try roster.add("Ana", project: nil, locked: [])
        try roster.save(configFolder: folder)
        let text = String(decoding: try FileSystem.read(FilePath(TeamRoster.file(configFolder: folder))), as: UTF8.self)
        #expect(text.contains("\"role\":\"lead\"") && text.components(separatedBy: "role").count == 2)
        #expect(try TeamRoster.load(configFolder: folder) == roster)
        #expect(TeamRoster.link(lead, base: "http://h:1") == "http://h:1/team?token=" + lead.token)
        try TestFiles.write(Array("{\"people\":[{\"name\":\"X\",\"token\":\"0123456789abcdef0123\",\"role\":\"admin\"}]}".utf8),
                            to: TeamRoster.file(configFolder: folder))
        #expect(try TeamRoster.load(configFolder: folder).people.first?.isLead == false)
    }

    @Test("a member's token gets 403 and nothing of the team's on every lead route; a lead's and the operator's get in")
    func access() throws {
        let fixture = try Fixture(operatorToken: "operator-token-0123456789")
        defer { fixture.close() }
        for path in ["/team", "/lead.js", "/api/team/day", "/api/team/people", "/api/team/photo", "/api/team/report.pdf", "/api/team/qr.svg"] {
            let response = fixture.get(path, query: ["name": "Ana"], token: fixture.ana.token)
            let text = String(decoding: response.bytes, as: UTF8.self)
            #expect(response.status == 403 && response.header("content-type")?.hasPrefix("application/json") == true, "\(path)")
            #expect(try Self.object(response).keys.sorted() == ["error"] && !text.contains("Lee") && !text.contains("Bridge"), "\(path)")
            #expect(fixture.get(path, token: nil).status == 401, "\(path)")
        }
        #expect(fixture.post("/api/team/people", "{\"name\": \"Eve\"}", token: fixture.ana.token).status == 403)
        #expect(fixture.get("/team", token: fixture.lee.token).status == 200)
        #expect(fixture.get("/api/team/day", token: "operator-token-0123456789").status == 200)
        #expect(fixture.get("/api/team/day", token: nil, peer: "127.0.0.1").status != 200, "a token is needed: the server has one")
        #expect(fixture.get("/", token: fixture.lee.token).status == 200, "a lead's token opens the camera too")
    }

    @Test("the day's photos from the catalog: numbered in the order taken, filtered exactly, each found again by its id")
    func day() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let response = fixture.get("/api/team/day", query: ["day": "2026-12-03"], token: fixture.lee.token)
        #expect(response.status == 200)
        let day = try Self.object(response)
        guard case .array(let photos)? = day["photos"] else { Issue.record("no photos"); return }
        let users = photos.compactMap { photo -> String? in
            guard case .object(let fields) = photo, case .string(let user)? = fields["user"] else { return nil }
            return user
        }
        #expect(users == ["Ana", "Lee", "Ana"])
        #expect(day["people"] == .array([.string("Ana"), .string("Lee")]))
        let listing = try fixture.desk.listing(LeadDesk.Query(day: LeadDesk.Day("2026-12-03")!, person: "Ana"))
        #expect(listing.photos.map(\.time?.hour) == [9, 14] && listing.total == 3)
        #expect(try fixture.desk.listing(LeadDesk.Query(day: LeadDesk.Day("2026-12-03")!, person: "ana")).photos.isEmpty)
        #expect(try fixture.desk.listing(LeadDesk.Query(day: LeadDesk.Day("2026-12-04")!)).photos.isEmpty)
        for entry in listing.photos {
            let id = try #require(LeadDesk.id(of: entry))
            #expect(try fixture.desk.entry(id: id)?.path == entry.path)
        }
        for bad in ["../../etc/passwd", "1-", "99999999999999999999-0123456789abcdef", "-5-0123456789abcdef", String(repeating: "1", count: 5000)] {
            #expect(try fixture.desk.entry(id: bad) == nil, "\(bad.prefix(20))")
        }
        for bad in ["../x", "2026-02-30", "99999-01-01", "1e308", "2026-12-3", "１２３４-12-03"] {
            #expect(fixture.get("/api/team/day", query: ["day": bad], token: fixture.lee.token).status == 400, "\(bad)")
        }
        #expect(fixture.get("/api/team/day", query: ["person": String(repeating: "x", count: 501)], token: fixture.lee.token).status == 400)
    }

    @Test("a photo's file deleted or replaced after it was logged is said so, never shown as the logged one")
    func changedFiles() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let listing = try fixture.desk.listing(LeadDesk.Query(day: LeadDesk.Day("2026-12-03")!))
        _ = FileSystem.remove(FilePath(fixture.files[0]))
        try TestFiles.write(Array("photo X".utf8), to: fixture.files[1])  // the same size, other bytes
        let entries = listing.photos.sorted { $0.path < $1.path }
        #expect(fixture.desk.thumbnails.picture(of: entries[0]) == .problem(.missing))
        #expect(fixture.desk.thumbnails.picture(of: entries[1]) == .problem(.changed))
        #expect(fixture.desk.thumbnails.knownProblem(entries[1]) == .changed, "the verdict is kept")
        let id = try #require(LeadDesk.id(of: entries[1]))
        #expect(fixture.get("/api/team/image", query: ["id": id], token: fixture.lee.token).status == 409)
    }

    @Test("a day runs midnight to midnight in its zone, 23 hours on the day summer time starts")
    func days() throws {
        var settings = LeadDesk.Settings(catalog: nil, zone: .named("Europe/Helsinki"), sites: nil, fontConfig: "", version: "",
                                         trust: TrustAnchors(), temporary: "/tmp")
        settings.clock = { 1_774_742_400 }  // 2026-03-29 00:00 UTC, 02:00 in Helsinki
        let desk = LeadDesk(settings: settings)
        #expect(desk.today.description == "2026-03-29")
        let range = desk.range(LeadDesk.Day("2026-03-29")!)
        #expect(range.count == 23 * 3600 && range.lowerBound == 1_774_735_200)  // 2026-03-28 22:00 UTC
        #expect(LeadDesk.Day("2026-02-29") == nil && LeadDesk.Day("2028-02-29") != nil && LeadDesk.Day("1969-12-31") == nil)
    }

    @Test("two leads adding people at once both keep theirs; a lead cannot remove themselves")
    func people() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let status = fixture.post("/api/team/people", "{\"name\": \"New \(index)\", \"lead\": \(index % 2 == 0)}", token: fixture.lee.token).status
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 8))
        #expect(fixture.team.roster.people.count == 10)
        #expect(fixture.post("/api/team/people", "{\"name\": \"New 1\"}", token: fixture.lee.token).status == 409)
        #expect(fixture.post("/api/team/people", "{\"name\": \"x\", \"role\": \"admin\"}", token: fixture.lee.token).status == 400)
        #expect(fixture.post("/api/team/people/remove", "{\"name\": \"Lee\"}", token: fixture.lee.token).status == 409)
        #expect(fixture.post("/api/team/people/remove", "{\"name\": \"New 0\"}", token: fixture.lee.token).status == 200)
        #expect(fixture.team.roster.people.count == 9)
        let qr = fixture.get("/api/team/qr.svg", query: ["name": "Ana"], token: fixture.lee.token)
        #expect(qr.status == 200 && String(decoding: qr.bytes, as: UTF8.self).hasPrefix("<svg"))
    }
}
