import Foundation
import Imaging
import Location
import Platform
import Provenance
import Session
import Templates
import Testing
import TestSupport
import Values
@testable import StampWeb

/// A phone's own camera on a team server without a camera of its own: each person's values are
/// theirs alone, the live stamp is the style's, a style changed in review restamps the shot, a
/// photo from the page's shutter is a capture and a file from the phone is opened, and the time is
/// the server's clock in the site's zone.
@Suite(.serialized) struct PhoneTests {
    final class Fixture: Sendable {
        let folder: String
        let hub: LiveHub
        let uploads: PhotoUploads
        let app: WebApp
        let ana: TeamRoster.Person
        let ben: TeamRoster.Person
        let keys: InstallationKeys

        init(fields: FieldPolicy = FieldPolicy(), clock: @escaping @Sendable () -> Timestamp = { FieldPolicy.clockTime() }) throws {
            folder = try TestFiles.temporaryFolder("phone")
            let config = try TestFiles.temporaryFolder("team")
            var roster = TeamRoster()
            ana = try roster.add("Ana Lima", projects: ["Bridge 7", "Tunnel 3"], locked: [])
            ben = try roster.add("Ben", projects: ["Depot"], locked: ["project", "style"])
            try roster.save(configFolder: config)
            keys = try InstallationKeys.openOrCreate(folder: try TestFiles.temporaryFolder("keys") + "/keys", host: "test",
                                                    now: WallClock.now().secondsSinceEpoch)
            var writer = PhotoWriter.Settings(quality: 90, version: "test")
            writer.signer = ManifestSigner(identity: keys.identity)
            let styles = WebAppTests.styles
            var settings = PhotoUploads.Settings(folder: folder, style: styles[0], fields: fields, writer: writer,
                                                 load: LoadOptions(maxSize: 0), fontConfig: WebAppTests.fontConfig)
            settings.clock = clock
            uploads = PhotoUploads(settings: settings)
            hub = try LiveHub(controller: nil, previewLongSide: 320)
            app = WebApp(controller: nil, hub: hub,
                         policy: AccessPolicy(token: nil, listen: ListenAddress("0.0.0.0:8080")!, team: try TeamFile(configFolder: config)),
                         limits: HTTPLimits(), styles: styles.map { ($0.id, $0.name) }, projects: [], uploads: uploads,
                         phoneStyles: styles)
        }

        func close() { hub.close() }

        func request(_ method: String, _ path: String, _ body: String = "", query: [String: String] = [:],
                     token: String?) -> HTTPResponse {
            var headers = ["host": "192.168.1.5:8080", "content-type": "application/json"]
            if let token { headers["authorization"] = "Bearer " + token }
            return app.respond(to: HTTPRequest(method: method, path: path, query: query, headers: headers, body: Array(body.utf8),
                                               peer: "192.168.1.23"))
        }

        func upload(_ photo: [UInt8], token: String, fields: [String: String]) throws -> HTTPResponse {
            let path = folder + "/../phone-upload-\(UUID().uuidString)"
            try TestFiles.write(photo, to: path)
            defer { _ = FileSystem.remove(FilePath(path)) }
            return app.respond(to: HTTPRequest(method: "POST", path: "/api/photos",
                                               headers: ["host": "192.168.1.5:8080", "content-type": "multipart/form-data; boundary=x",
                                                         "authorization": "Bearer " + token],
                                               peer: "192.168.1.23",
                                               upload: .init(photo: try FileContents(path: FilePath(path)), fields: fields)))
        }

        var photos: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted() }
    }

    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any])
    }

    static func photo(taken: String? = nil, width: Int = 640, height: Int = 480) throws -> [UInt8] {
        var exif = ExifRecord()
        exif.dateTime = taken
        return try FixturePhoto(name: "phone.jpg", width: width, height: height, exif: exif).jpeg()
    }

    @Test("each person's values are their own: one phone's note, project and style never reach another's")
    func valuesPerPerson() throws {
        let web = try Fixture()
        defer { web.close() }
        #expect(web.request("POST", "/api/me", #"{"note": "north pier", "project": "Tunnel 3", "style": 1}"#, token: web.ana.token).status == 200)
        let ana = try Self.json(web.request("GET", "/api/me", token: web.ana.token))
        let ben = try Self.json(web.request("GET", "/api/me", token: web.ben.token))
        #expect(ana["note"] as? String == "north pier" && ana["project"] as? String == "Tunnel 3")
        #expect(ana["projects"] as? [String] == ["Bridge 7", "Tunnel 3"] && ana["name"] as? String == "Ana Lima")
        #expect(ben["note"] is NSNull && ben["project"] as? String == "Depot" && ben["projectLocked"] as? Bool == true)
        #expect((ana["style"] as? [String: Any])?["index"] as? Int == 1 && (ben["style"] as? [String: Any])?["index"] as? Int == 0)
        // The name is the link's; Ben's project and style are locked.
        #expect(web.request("POST", "/api/me", #"{"user": "Mallory"}"#, token: web.ana.token).status == 403)
        #expect(web.request("POST", "/api/me", #"{"project": "Bridge 7"}"#, token: web.ben.token).status == 403)
        #expect(web.request("POST", "/api/me", #"{"style": 1}"#, token: web.ben.token).status == 403)
        #expect(web.request("POST", "/api/me", #"{"colour": "red"}"#, token: web.ben.token).status == 400)

        let anaPhoto = try Self.json(try web.upload(try Self.photo(), token: web.ana.token, fields: ["kind": "shutter", "review": "0"]))
        let benPhoto = try Self.json(try web.upload(try Self.photo(), token: web.ben.token, fields: ["kind": "shutter", "review": "0"]))
        #expect(anaPhoto["user"] as? String == "Ana Lima" && anaPhoto["project"] as? String == "Tunnel 3")
        #expect(anaPhoto["style"] as? String == WebAppTests.styles[1].id)
        #expect(benPhoto["user"] as? String == "Ben" && benPhoto["project"] as? String == "Depot")
        #expect(benPhoto["style"] as? String == WebAppTests.styles[0].id)
        // Each sees only their own photos in the strip.
        let anaShots = try #require(try JSONSerialization.jsonObject(with: Data(web.request("GET", "/api/shots", token: web.ana.token).bytes)) as? [[String: Any]])
        #expect(anaShots.count == 1 && anaShots[0]["name"] as? String == anaPhoto["name"] as? String)
        #expect(web.request("GET", "/shots/" + (benPhoto["name"] as? String ?? ""), token: web.ana.token).status == 404)
    }

    @Test("the server has no camera: a team member's / is their phone's camera; the camera's API says there is none")
    func noCamera() throws {
        let web = try Fixture()
        defer { web.close() }
        let page = web.request("GET", "/", token: web.ana.token)
        #expect(page.status == 200 && String(decoding: page.bytes, as: UTF8.self).contains("/phone.js"))
        #expect(web.request("GET", "/api/state", token: web.ana.token).status == 404)
        #expect(web.request("POST", "/api/shutter", "{}", token: web.ana.token).status == 404)
        #expect(web.request("GET", "/camera", token: web.ana.token).status == 404)
    }

    @Test("the live stamp is the style drawn on nothing: transparent around it, another style draws another")
    func overlay() throws {
        let web = try Fixture()
        defer { web.close() }
        _ = web.request("POST", "/api/me", #"{"note": "north pier"}"#, token: web.ana.token)
        let query = ["w": "390", "h": "520", "latitude": "60.17", "longitude": "24.94", "accuracy": "6"]
        let first = web.request("GET", "/api/overlay", query: query, token: web.ana.token)
        #expect(first.status == 200 && first.header("Content-Type") == "image/png")
        let png = try PNGImage(bytes: first.bytes)
        #expect(png.width == 390 && png.height == 520)
        let other = web.request("GET", "/api/overlay", query: query.merging(["style": WebAppTests.styles[1].id]) { $1 }, token: web.ana.token)
        #expect(other.status == 200 && other.bytes != first.bytes)
        // Its pixels: some drawn, the corners of the picture left clear (a stamp is not a frame).
        let alpha = Self.alpha(first.bytes)
        #expect(alpha.drawn > 100 && alpha.drawn < 390 * 520 / 2, "\(alpha)")
        #expect(web.request("GET", "/api/overlay", query: ["w": "1e9", "h": "10"], token: web.ana.token).status == 400)
        #expect(web.request("GET", "/api/overlay", query: ["w": "390", "h": "520", "latitude": "nan", "longitude": "1"],
                            token: web.ana.token).status == 400)
    }

    /// Pixels with any opacity, read back through Cairo's PNG reader (premultiplied ARGB).
    static func alpha(_ png: [UInt8]) -> (drawn: Int, total: Int) {
        let path = NSTemporaryDirectory() + "overlay-\(UUID().uuidString).png"
        _ = FileManager.default.createFile(atPath: path, contents: Data(png))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The overlay's own decoder drops alpha onto black: a drawn pixel is one not black.
        guard let bitmap = Bitmap(pngFile: path) else { return (0, 0) }
        var drawn = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let (r, g, b) = bitmap.rgb(x: x, y: y)
                if r > 8 || g > 8 || b > 8 { drawn += 1 }
            }
        }
        return (drawn, bitmap.width * bitmap.height)
    }

    @Test("a style changed during the review restamps the same shot under the same name; Use saves that one")
    func restyle() throws {
        let web = try Fixture()
        defer { web.close() }
        let staged = try Self.json(try web.upload(try Self.photo(), token: web.ana.token, fields: ["kind": "shutter"]))
        let id = try #require(staged["id"] as? String)
        let before = web.request("GET", "/uploads/" + id, token: web.ana.token).bytes
        let again = try Self.json(web.request("POST", "/api/photos/restyle", #"{"id": "\#(id)", "style": 1}"#, token: web.ana.token))
        #expect(again["id"] as? String == id && again["name"] as? String == staged["name"] as? String)
        #expect(again["style"] as? String == WebAppTests.styles[1].id && again["time"] as? String == staged["time"] as? String)
        #expect(web.request("GET", "/uploads/" + id, token: web.ana.token).bytes != before)
        #expect(web.request("POST", "/api/photos/restyle", #"{"id": "\#(id)", "style": 1}"#, token: web.ben.token).status == 403)
        // The screen-size picture: upright and fitted.
        let screen = web.request("GET", "/uploads/" + id, query: ["fit": "200"], token: web.ana.token)
        let small = try Photo(jpeg: screen.bytes)
        #expect(max(small.width, small.height) == 200)
        #expect(web.request("POST", "/api/photos/use", #"{"id": "\#(id)"}"#, token: web.ana.token).status == 200)
        #expect(web.photos == [try #require(staged["name"] as? String)])
        let record = try #require(try UploadTests.record(web.folder + "/" + web.photos[0]))
        #expect(record.styleID == WebAppTests.styles[1].id)
    }

    @Test("the page's shutter is a capture; a file from the phone is opened, its EXIF time shown as the phone's, said on the stamp")
    func captureOrOpened() throws {
        let web = try Fixture()
        defer { web.close() }
        let shot = try Self.json(try web.upload(try Self.photo(), token: web.ana.token, fields: ["kind": "shutter", "review": "0"]))
        let picked = try Self.json(try web.upload(try Self.photo(taken: "2026:11:20 09:15:00"), token: web.ana.token,
                                                  fields: ["review": "0", "file_name": "IMG_0042.jpg"]))
        func bytes(_ answer: [String: Any]) throws -> [UInt8] {
            try FileSystem.read(FilePath(web.folder + "/" + (answer["name"] as? String ?? "")))
        }
        let captured = try bytes(shot), opened = try bytes(picked)
        #expect(captured.contains(bytes: "c2pa.created") && captured.contains(bytes: Credentials.digitalCapture))
        #expect(!captured.contains(bytes: "c2pa.opened"))
        #expect(opened.contains(bytes: "c2pa.opened") && opened.contains(bytes: "IMG_0042.jpg") && !opened.contains(bytes: Credentials.digitalCapture))
        let notes = (picked["notes"] as? [String] ?? []).joined()
        #expect(notes.contains("sent from the phone") && notes.contains("2026-11-20 09:15") && notes.contains("by its clock"))
        #expect(picked["phoneTime"] as? String == "2026-11-20T09:15:00")
        #expect((shot["notes"] as? [String] ?? []).isEmpty)
        let trust = try TrustAnchors(files: [web.keys.folder + "/ca.pem"])
        for photo in [captured, opened] {
            #expect(ManifestReader.verify(file: photo, trust: trust, now: WallClock.now().secondsSinceEpoch).outcome == .valid)
        }
    }

    @Test("/ca offers the installation's CA to install: DER and PEM with their types, the page with its fingerprint")
    func certificateAuthority() throws {
        let folder = try TestFiles.temporaryFolder("ca") + "/keys"
        let now = WallClock.now().secondsSinceEpoch
        _ = try InstallationKeys.openOrCreate(folder: folder, host: "test", now: now)
        let certificate = try ServerCertificate.openOrCreate(folder: folder, names: ["localhost", "127.0.0.1"], now: now)
        let authority = try #require(certificate.authority)
        #expect(try ServerCertificate.openOrCreate(folder: folder, names: ["localhost"], now: now).fingerprint == certificate.fingerprint,
                "made once, then kept")
        let tls = TLSCredentials.Authority(pem: authority.pem, der: authority.der, fingerprint: authority.fingerprint)
        let hub = try LiveHub(controller: nil, previewLongSide: 320)
        defer { hub.close() }
        let app = WebApp(controller: nil, hub: hub, policy: AccessPolicy(token: nil, listen: ListenAddress("127.0.0.1:8080")!),
                         limits: HTTPLimits(), styles: [], projects: [], authority: tls)
        func get(_ path: String) -> HTTPResponse {
            app.respond(to: HTTPRequest(method: "GET", path: path, headers: ["host": "127.0.0.1:8080"], peer: "127.0.0.1"))
        }
        let der = get("/ca.crt")
        #expect(der.status == 200 && der.header("Content-Type") == "application/x-x509-ca-cert" && der.bytes == authority.der)
        #expect(der.bytes.first == 0x30, "DER: an ASN.1 sequence")
        let pem = get("/ca.pem")
        #expect(pem.header("Content-Type") == "application/x-pem-file" && String(decoding: pem.bytes, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----"))
        let page = String(decoding: get("/ca").bytes, as: UTF8.self)
        #expect(page.contains(authority.fingerprint) && page.contains("Android") && page.contains("iPhone") && !page.contains("{{"))
        // The server's own certificate is the CA's, with OpenSSL as the judge.
        let scratch = try TestFiles.temporaryFolder("ca-check")
        try TestFiles.write(Array(authority.pem.utf8), to: scratch + "/ca.pem")
        try TestFiles.write(Array(certificate.certificatePEM.utf8), to: scratch + "/tls.pem")
        let verdict = try ExternalTool.run("openssl", ["verify", "-CAfile", scratch + "/ca.pem", "-purpose", "sslserver", scratch + "/tls.pem"])
        #expect(verdict.status == 0, "\(verdict.out) \(verdict.err)")
    }

    @Test("the time is the server's clock shown in the site's zone, the phone's time beside it in the same zone, named")
    func siteZone() throws {
        let sites = try SiteMap(geoJSON: Array("""
            {"type": "FeatureCollection", "features": [{"type": "Feature",
              "properties": {"name": "Harbour", "timezone": "Europe/Helsinki", "radius": 500},
              "geometry": {"type": "Point", "coordinates": [24.95, 60.16]}}]}
            """.utf8), file: "sites.geojson")
        var fields = FieldPolicy(zone: FieldPolicy.Zone("UTC"))
        fields.whereabouts.sites = sites
        // 2026-12-03 08:00 UTC: 10:00 in Helsinki.
        let web = try Fixture(fields: fields, clock: { Timestamp(year: 2026, month: 12, day: 3, hour: 8, minute: 0, second: 0, utcOffsetMinutes: 0) })
        defer { web.close() }
        let onSite = try Self.json(try web.upload(try Self.photo(), token: web.ana.token, fields: [
            "kind": "shutter", "review": "0", "queued": "1", "phone_time": "2026-12-03T07:55:00Z",
            "latitude": "60.16", "longitude": "24.95", "accuracy": "5"]))
        #expect(onSite["time"] as? String == "2026-12-03T10:00:00+02:00" && onSite["site"] as? String == "Harbour")
        let said = (onSite["notes"] as? [String] ?? []).joined()
        #expect(said == "taken offline at 09:55, received 10:00 (UTC+02:00)", "\(said)")
        // Off the site: --tz.
        let away = try Self.json(try web.upload(try Self.photo(), token: web.ana.token, fields: ["kind": "shutter", "review": "0"]))
        #expect(away["time"] as? String == "2026-12-03T08:00:00Z" || away["time"] as? String == "2026-12-03T08:00:00+00:00")
        let record = try #require(try UploadTests.record(web.folder + "/" + (onSite["name"] as? String ?? "")))
        #expect(record.fields.time?.utcOffsetMinutes == 120)
    }
}

extension [UInt8] {
    func contains(bytes text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
