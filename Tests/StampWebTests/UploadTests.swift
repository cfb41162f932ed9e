import Foundation
import Imaging
import Platform
import Session
import Templates
import Testing
import TestSupport
import Values
@testable import StampWeb

/// Photos from the phones' own cameras (`POST /api/photos`) and the team's tokens, as values:
/// who may send, what the stamp says (the token's name, the server's time, the phone's position),
/// review (Use / Retake), and what is refused.
@Suite(.serialized) struct UploadTests {
    /// A server's app with uploads into its own folder, and a team of two (Ana locked to her name).
    final class Fixture: Sendable {
        let web: WebAppTests.Fixture
        let uploads: PhotoUploads
        let app: WebApp
        let config: String
        let team: TeamFile
        let ana: TeamRoster.Person
        let ben: TeamRoster.Person

        init(clock: @escaping @Sendable () -> Timestamp = { FieldPolicy.clockTime() }) throws {
            web = try WebAppTests.Fixture()
            config = try TestFiles.temporaryFolder("team")
            var roster = TeamRoster()
            ana = try roster.add("Ana Lima", project: "Bridge 7", locked: ["user", "project"])
            ben = try roster.add("Ben", project: nil, locked: [])
            try roster.save(configFolder: config)
            team = try TeamFile(configFolder: config)
            var settings = PhotoUploads.Settings(folder: web.folder, style: WebAppTests.styles[0], fields: FieldPolicy(),
                                                 writer: PhotoWriter.Settings(quality: 90, version: "test"),
                                                 load: LoadOptions(maxSize: 0), fontConfig: WebAppTests.fontConfig)
            settings.clock = clock
            uploads = PhotoUploads(settings: settings)
            let clock = web.clock
            app = WebApp(controller: web.controller, hub: web.hub,
                         policy: AccessPolicy(token: nil, listen: ListenAddress("0.0.0.0:8080")!, team: team),
                         limits: HTTPLimits(), styles: [], projects: [], uploads: uploads, clock: { clock.now })
        }

        func close() { web.close() }

        func upload(_ photo: [UInt8], token: String?, fields: [String: String] = [:], query: [String: String] = [:],
                    peer: String = "192.168.1.23") throws -> HTTPResponse {
            let path = web.folder + "/../upload-\(UUID().uuidString)"
            try TestFiles.write(photo, to: path)
            defer { _ = FileSystem.remove(FilePath(path)) }
            var headers = ["host": "192.168.1.5:8080", "content-type": "multipart/form-data; boundary=x"]
            if let token { headers["authorization"] = "Bearer " + token }
            return app.respond(to: HTTPRequest(method: "POST", path: "/api/photos", query: query, headers: headers, peer: peer,
                                               upload: .init(photo: try FileContents(path: FilePath(path)), fields: fields)))
        }

        func post(_ path: String, _ body: String, token: String) -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "POST", path: path,
                                        headers: ["host": "192.168.1.5:8080", "content-type": "application/json",
                                                  "authorization": "Bearer " + token],
                                        body: Array(body.utf8), peer: "192.168.1.23"))
        }

        func get(_ path: String, token: String) -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "GET", path: path, headers: ["host": "192.168.1.5:8080", "authorization": "Bearer " + token],
                                        peer: "192.168.1.23"))
        }

        /// The stamped photos in the folder (no claims, no temp files).
        var photos: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: web.folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted() }
        var hidden: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: web.folder)) ?? []).filter { $0.hasPrefix(".") && $0 != ".stampcam" }
        }
    }

    static func photo(taken: String? = nil, gps: GPSPosition? = nil) throws -> [UInt8] {
        var exif = ExifRecord()
        exif.dateTime = taken
        exif.gps = gps
        return try FixturePhoto(name: "phone.jpg", width: 320, height: 240, exif: exif).jpeg()
    }

    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any] ?? [:]
    }

    static func record(_ path: String) throws -> StampRecord? {
        StampRecord.read(try Photo(file: try FileContents(path: FilePath(path)), options: LoadOptions(maxSize: 64)).metadata)
    }

    @Test("an upload is stamped with its person's name and project, staged for review, then kept by Use")
    func reviewThenUse() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let response = try fixture.upload(try Self.photo(), token: fixture.ana.token, fields: ["user": "Mallory", "project": "Other"])
        #expect(response.status == 200, "\(String(decoding: response.bytes, as: UTF8.self))")
        let answer = try Self.json(response)
        #expect(answer["user"] as? String == "Ana Lima", "a locked name is the token's, whatever the page says")
        #expect(answer["project"] as? String == "Bridge 7")
        #expect(answer["timeSource"] as? String == PhotoUploads.timeSource)
        #expect(answer["saved"] as? Bool == false)
        #expect(fixture.photos.isEmpty, "nothing is named in the folder before Use: \(fixture.photos)")
        let id = try #require(answer["id"] as? String)
        let preview = fixture.get("/uploads/" + id, token: fixture.ana.token)
        #expect(preview.status == 200 && preview.bytes.starts(with: [0xFF, 0xD8]))
        #expect(fixture.get("/uploads/" + id, token: fixture.ben.token).status == 404, "another person cannot see it")
        #expect(fixture.post("/api/photos/use", "{\"id\": \"\(id)\"}", token: fixture.ben.token).status == 404, "nor use it")

        let used = fixture.post("/api/photos/use", "{\"id\": \"\(id)\"}", token: fixture.ana.token)
        #expect(used.status == 200, "\(String(decoding: used.bytes, as: UTF8.self))")
        #expect(fixture.photos.count == 1 && fixture.hidden.isEmpty, "one photo, no temp or claim files: \(fixture.photos) \(fixture.hidden)")
        let record = try #require(try Self.record(fixture.web.folder + "/" + fixture.photos[0]))
        #expect(record.fields.user == "Ana Lima")
        #expect(record.fields.timeSource == PhotoUploads.timeSource)
        #expect(fixture.web.hub.shots.map(\.name) == fixture.photos, "the photo is in the session's shots")
    }

    @Test("Retake drops the staged photo: nothing left in the folder")
    func retake() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let id = try #require(try Self.json(try fixture.upload(try Self.photo(), token: fixture.ben.token))["id"] as? String)
        #expect(fixture.post("/api/photos/retake", "{\"id\": \"\(id)\"}", token: fixture.ben.token).status == 200)
        #expect(fixture.photos.isEmpty && fixture.hidden.isEmpty, "\(fixture.photos) \(fixture.hidden)")
        #expect(fixture.post("/api/photos/use", "{\"id\": \"\(id)\"}", token: fixture.ben.token).status == 404)
    }

    @Test("review=0 saves at once; an unlocked person's page may name the photographer")
    func saveAtOnce() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let response = try fixture.upload(try Self.photo(), token: fixture.ben.token, fields: ["user": "Ben K."], query: ["review": "0"])
        let answer = try Self.json(response)
        #expect(answer["saved"] as? Bool == true && answer["user"] as? String == "Ben K.")
        #expect(fixture.photos.count == 1)
    }

    @Test("the server's clock is the time; the phone's far-off EXIF time is kept beside it and said on the stamp")
    func phoneTime() throws {
        let received = Timestamp(year: 2026, month: 12, day: 3, hour: 10, minute: 41, second: 0, utcOffsetMinutes: 0)
        let fixture = try Fixture(clock: { received })
        defer { fixture.close() }
        let answer = try Self.json(try fixture.upload(try Self.photo(taken: "2026:12:03 10:02:00"), token: fixture.ben.token,
                                                      query: ["review": "0"]))
        #expect(answer["time"] as? String == received.iso8601)
        #expect(answer["phoneTime"] as? String == "2026-12-03T10:02:00")
        let notes = answer["notes"] as? [String] ?? []
        // A file from the phone: said so, its own time shown as the phone's, both in one zone, named.
        #expect(notes.contains("sent from the phone, taken 10:02 by its clock, received 10:41 (UTC)"), "\(notes)")
        let record = try #require(try Self.record(fixture.web.folder + "/" + fixture.photos[0]))
        #expect(record.fields.note?.contains("taken 10:02 by its clock, received 10:41 (UTC)") == true)
        #expect(record.fields.extra["phone_time"] == "2026-12-03T10:02:00")

        // A frame of the page's shutter kept on the phone while out of reach: the page's time is used.
        let queued = try Self.json(try fixture.upload(try Self.photo(), token: fixture.ben.token,
                                                      fields: ["phone_time": "2026-12-03T09:15:00Z", "kind": "shutter", "queued": "1"],
                                                      query: ["review": "0"]))
        #expect(queued["phoneTime"] as? String == "2026-12-03T09:15:00Z")
        #expect((queued["notes"] as? [String] ?? []).contains("taken offline at 09:15, received 10:41 (UTC)"), "\(queued)")
        #expect(try fixture.upload(try Self.photo(), token: fixture.ben.token, fields: ["phone_time": "yesterday"]).status == 400)
    }

    @Test("the installable app: its manifest and service worker are served, with their types")
    func installable() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let manifest = fixture.get("/manifest.webmanifest", token: fixture.ben.token)
        #expect(manifest.status == 200 && manifest.header("Content-Type") == "application/manifest+json")
        #expect(try JSONSerialization.jsonObject(with: Data(manifest.bytes)) is [String: Any])
        let worker = fixture.get("/sw.js", token: fixture.ben.token)
        #expect(worker.status == 200 && worker.header("Content-Type")?.hasPrefix("text/javascript") == true)
    }

    @Test("the phone's position is used when accurate enough, else the photo's own GPS")
    func position() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let own = GPSPosition(latitude: 10, longitude: 20)
        let good = try Self.json(try fixture.upload(try Self.photo(gps: own), token: fixture.ben.token,
                                                    fields: ["latitude": "48.85", "longitude": "2.35", "accuracy": "12"]))
        #expect(good["latitude"] as? Double == 48.85 && good["longitude"] as? Double == 2.35)
        let vague = try Self.json(try fixture.upload(try Self.photo(gps: own), token: fixture.ben.token,
                                                     fields: ["latitude": "48.85", "longitude": "2.35", "accuracy": "900"]))
        #expect((vague["latitude"] as? Double).map { abs($0 - 10) < 1e-6 } == true, "\(vague)")
        #expect((vague["notes"] as? [String])?.first?.contains("position was not used") == true)
        let bad = try fixture.upload(try Self.photo(), token: fixture.ben.token, fields: ["latitude": "91", "longitude": "0"])
        #expect(bad.status == 400)
    }

    @Test("a PNG (a screenshot, a phone's export) is read by its content and saved as a stamped JPEG")
    func png() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let png = PNGFixture.make(width: 64, height: 48, form: .rgb(bits: 8)) { x, y in (UInt8(x * 4), UInt8(y * 5), 90, 255) }
        let answer = try Self.json(try fixture.upload(png, token: fixture.ben.token, query: ["review": "0"]))
        #expect(answer["saved"] as? Bool == true, "\(answer)")
        let saved = try TestFiles.bytes(fixture.web.folder + "/" + fixture.photos[0])
        #expect(saved.starts(with: [0xFF, 0xD8]) && fixture.photos[0].hasSuffix(".jpg"))
    }

    @Test("not a photo, or a truncated one, is refused with what to send; nothing is left behind")
    func notAPhoto() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let text = try fixture.upload(Array("<html>not a photo</html>".utf8), token: fixture.ben.token)
        #expect(text.status == 422)
        #expect(try Self.json(text)["error"] as? String ?? "" != "")
        let photo = try Self.photo()
        let cut = try fixture.upload(Array(photo.prefix(photo.count / 2)), token: fixture.ben.token)
        #expect(cut.status == 422, "\(String(decoding: cut.bytes, as: UTF8.self))")
        #expect(fixture.photos.isEmpty && fixture.hidden.isEmpty)
    }

    @Test("a token not in the team, or removed from it, gets 401 and nothing else; this machine needs none")
    func teamTokens() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        #expect(try fixture.upload(try Self.photo(), token: "0123456789abcdef0123").status == 401)
        #expect(try fixture.upload(try Self.photo(), token: nil).status == 401)
        #expect(try fixture.upload(try Self.photo(), token: nil, query: ["review": "0"], peer: "127.0.0.1").status == 403,
                "from this machine, the Host must still be its own")
        var roster = fixture.team.roster
        try roster.remove("Ben")
        try roster.save(configFolder: fixture.config)
        let refused = try fixture.upload(try Self.photo(), token: fixture.ben.token)
        #expect(refused.status == 401 && fixture.photos.isEmpty)
        #expect(fixture.get("/api/state", token: fixture.ben.token).status == 401)
        #expect(try fixture.upload(try Self.photo(), token: fixture.ana.token).status == 200)
    }

    @Test("uploads past a person's rate wait, with Retry-After")
    func rate() {
        var rate = UploadRate(burst: 2, interval: 5)
        #expect(rate.take("ana", at: 0) == nil && rate.take("ana", at: 0) == nil)
        #expect(rate.take("ana", at: 0) == 5)
        #expect(rate.take("ben", at: 0) == nil, "each person has their own")
        #expect(rate.take("ana", at: 5) == nil)
    }

    @Test("the team file is its owner's alone (0600) and reads back")
    func teamFile() throws {
        let folder = try TestFiles.temporaryFolder("team-file")
        var roster = TeamRoster()
        let person = try roster.add("Ana", project: "P", locked: ["style"])
        #expect(throws: TeamRoster.Problem.exists("Ana")) { _ = try roster.add("Ana", project: nil, locked: []) }
        #expect(throws: TeamRoster.Problem.badName("")) { _ = try roster.add(" ", project: nil, locked: []) }
        try roster.save(configFolder: folder)
        #expect(FileStatus(path: FilePath(TeamRoster.file(configFolder: folder)))?.mode == 0o600)
        #expect(try TeamRoster.load(configFolder: folder) == roster)
        #expect(try TeamRoster.load(configFolder: folder).person(token: person.token)?.name == "Ana")
        #expect(try TeamRoster.load(configFolder: folder + "/none").people.isEmpty)
    }
}
