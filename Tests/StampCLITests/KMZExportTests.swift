import Foundation
import Platform
import Testing
import TestSupport

/// `export --kmz`: Google Earth's archive, read back by Python's zipfile and XML parser.
@Suite struct KMZExportTests {
    /// Three located photos (one facing north-east, one whose file is then deleted, one with a note
    /// full of markup) and one without coordinates, logged in one catalog.
    static func logged() throws -> (catalog: String, folder: String, gone: String) {
        let base = try TestFiles.temporaryFolder("kmz")
        let catalog = base + "/catalog.sqlite"
        let photos: [(FixturePhoto, String, [String])] = [
            (Fixtures.facing, "facing", ["--note", "north wall", "--time", "2026-11-29T14:03:12+08:00"]),
            (Fixtures.southEast, "gone", []),
            (Fixtures.northWest, "markup", ["--note", "<b>a & b</b> ]]> <img src=x>"]),
            (Fixtures.oriented(.up, width: 320, height: 240), "nowhere", ["--location", "Depot"]),
        ]
        for (fixture, name, extra) in photos {
            let input = try fixture.write(to: base + "/in-" + name)
            if input != base + "/in-\(name)/\(name).jpg" { try FileManager.default.moveItem(atPath: input, toPath: base + "/in-\(name)/\(name).jpg") }
            let result = CLI.run(["apply", base + "/in-\(name)/\(name).jpg", "-o", base + "/out", "--catalog", catalog,
                                  "--user", "Li Wei", "--project", "Bridge 7"] + extra)
            #expect(result.code == 0, "\(result.err)")
        }
        let gone = base + "/out/gone.jpg"
        try FileManager.default.removeItem(atPath: gone)
        return (catalog, base, gone)
    }

    /// What Python reads in the KMZ: its entries in order, whether every CRC checks, and per
    /// placemark the name, the picture its description shows, whether that picture is a JPEG in
    /// the archive at most 640 pixels long, the Camera's heading and the description's text.
    static func read(_ kmz: String) throws -> [String: Any] {
        let parsed = try ExternalTool.python("""
            import json, re, struct, sys, zipfile, xml.etree.ElementTree as ET
            z = zipfile.ZipFile(sys.argv[1])
            names = z.namelist()
            k = "{http://www.opengis.net/kml/2.2}"
            def size(data):
                i = 2
                while i < len(data):
                    marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
                    if marker in (0xC0, 0xC1, 0xC2):
                        h, w = struct.unpack(">HH", data[i + 5:i + 9])
                        return max(w, h)
                    i += 2 + length
            marks = []
            for p in ET.fromstring(z.read("doc.kml")).iter(k + "Placemark"):
                description = p.findtext(k + "description")
                src = re.findall(r'<img src="([^"]*)"', description)
                pictures = [(s in names, z.read(s)[:2] == b"\\xff\\xd8" and size(z.read(s)) <= 640) if s in names else (False, False) for s in src]
                marks.append({"name": p.findtext(k + "name"), "src": src, "pictures": pictures,
                              "heading": p.findtext(k + "Camera/" + k + "heading"), "text": re.sub(r"^<img[^>]*><br>", "", description)})
            print(json.dumps({"names": names, "bad": z.testzip(), "placemarks": marks}))
            """, [kmz])
        #expect(parsed.status == 0, "\(parsed.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(parsed.out.utf8)) as? [String: Any])
    }

    @Test("export --kmz: doc.kml first, a picture per photo on disk shown in its placemark, the heading as a Camera; a photo gone is a placemark without picture, counted")
    func archive() throws {
        let (catalog, folder, _) = try Self.logged()
        let target = folder + "/site.kmz"
        let result = CLI.run(["export", "--kmz", "--catalog", catalog, "-o", target])
        #expect(result.code == 0 && result.out == [target], "\(result.err)")
        #expect(result.err.count == 1 && result.err.first?.hasPrefix("stampcam: \(target): 3 photos exported; 1 without coordinates left out (they are in --csv); 1 picture missing, placed without one (first: ") == true, "\(result.err)")
        #expect(result.err.first?.contains("gone.jpg") == true, "\(result.err)")

        let read = try Self.read(target)
        let names = try #require(read["names"] as? [String])
        #expect(read["bad"] is NSNull)
        #expect(names.first == "doc.kml" && names.count == 3 && names.dropFirst().allSatisfy { $0.hasPrefix("files/") && $0.hasSuffix(".jpg") }, "\(names)")
        let marks = try #require(read["placemarks"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: marks.map { ($0["name"] as? String ?? "", $0) })
        #expect(Set(byName.keys) == ["facing.jpg", "gone.jpg", "markup.jpg"])
        for name in ["facing.jpg", "markup.jpg"] {
            #expect((byName[name]?["src"] as? [String])?.count == 1, "\(name)")
            #expect((byName[name]?["pictures"] as? [[Bool]]) == [[true, true]], "\(name): \(byName[name] ?? [:])")
        }
        #expect((byName["gone.jpg"]?["src"] as? [String]) == [])
        #expect(byName["facing.jpg"]?["heading"] as? String == "56.0" && byName["gone.jpg"]?["heading"] is NSNull)
        let facing = try #require(byName["facing.jpg"]?["text"] as? String)
        #expect(facing.contains("Li Wei") && facing.contains("Bridge 7") && facing.contains("north wall") && facing.contains("2026-11-29T14:03:12+08:00"), "\(facing)")
        // Markup in a note reaches Google Earth's HTML as text: no element made of it.
        let markup = try #require(byName["markup.jpg"]?["text"] as? String)
        #expect(markup.contains("&lt;b&gt;a &amp; b&lt;/b&gt; ]]&gt; &lt;img src=x&gt;"), "\(markup)")
    }

    @Test("export --kmz to a full disk: exit 74 in one line; the device stays, no scratch left; never over the catalog")
    func hostile() throws {
        let (catalog, folder, _) = try Self.logged()
        let scratch = try TestFiles.temporaryFolder("kmz-tmp")
        let full = CLI.run(["export", "--kmz", "--catalog", catalog, "-o", "/dev/full"], environment: ["TMPDIR": scratch])
        #expect(full.code == 74 && full.err.count == 1 && full.err.first?.contains("/dev/full") == true, "\(full.err)")
        #expect(FileStatus(path: FilePath("/dev/full"))?.kind == .characterDevice)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
        let before = try TestFiles.bytes(catalog)
        let over = CLI.run(["export", "--kmz", "--catalog", catalog, "-o", catalog, "--overwrite"])
        #expect(over.code == 73 && over.err.count == 1, "\(over.err)")
        #expect(try TestFiles.bytes(catalog) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(".stampcam-") })
        let kept = CLI.run(["export", "--kmz", "--catalog", catalog, "-o", catalog])
        #expect(kept.code == 0 && kept.out == [folder + "/catalog-1.sqlite"], "\(kept.err)")
    }

    @Test("the heading is logged from the photo's EXIF (GPSImgDirection) by apply and by log --rebuild; GeoJSON says it as `heading`")
    func heading() throws {
        let (catalog, folder, _) = try Self.logged()
        let rebuilt = folder + "/rebuilt.sqlite"
        #expect(CLI.run(["log", "--rebuild", folder + "/out", "--catalog", rebuilt]).code == 0)
        for source in [catalog, rebuilt] {
            let path = folder + "/" + (source == catalog ? "logged" : "rebuilt") + ".geojson"
            let result = CLI.run(["export", "--geojson", "--catalog", source, "-o", path])
            #expect(result.code == 0, "\(result.err)")
            let parsed = try ExternalTool.python("""
                import json, sys
                features = json.load(open(sys.argv[1]))["features"]
                print(json.dumps(sorted([f["properties"]["name"], f["properties"].get("heading")] for f in features)))
                """, [path])
            // The rebuilt catalog has no row for the photo deleted before the rebuild.
            let expected = source == catalog ? #"[["facing.jpg", 56], ["gone.jpg", null], ["markup.jpg", null]]"#
                : #"[["facing.jpg", 56], ["markup.jpg", null]]"#
            #expect(parsed.out.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(source): \(parsed.out)\(parsed.err)")
        }
    }

    @Test("export --kmz with names that are not UTF-8: the photo in a Latin-1 folder gets its picture, the archive its Latin-1 name")
    func latin1() throws {
        let base = try TestFiles.temporaryFolder("kmz-raw")
        let facing = try Fixtures.facing.write(to: base)
        let setup = try CLI.shell("cd \(CLI.quoted(base)) && mkdir caf$'\\xe9' && cp \(CLI.quoted(facing)) caf$'\\xe9'/facing.jpg")
        #expect(setup.code == 0, "\(setup.err)")
        let folder = PathEncoding.decode(Array((base + "/caf").utf8) + [0xE9])
        let catalog = base + "/catalog.sqlite"
        let applied = CLI.run(["apply", folder + "/facing.jpg", "-o", folder + "/out", "--catalog", catalog])
        #expect(applied.code == 0, "\(applied.err)")
        let target = folder + "/site.kmz"
        let result = CLI.run(["export", "--kmz", "--catalog", catalog, "-o", target])
        #expect(result.code == 0 && result.out == [target], "\(result.err)")
        #expect(result.err == ["stampcam: \(PathEncoding.display(target)): 1 photo exported"])
        // Python is handed the name as bytes through a plain copy.
        let copy = base + "/plain.kmz"
        #expect(try CLI.shell("cp \(CLI.quoted(base))/caf$'\\xe9'/site.kmz \(CLI.quoted(copy))").code == 0)
        let marks = try #require(try Self.read(copy)["placemarks"] as? [[String: Any]])
        #expect(marks.count == 1 && (marks.first?["pictures"] as? [[Bool]]) == [[true, true]], "\(marks)")
    }
}
