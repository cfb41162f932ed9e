import Foundation
import Testing
import TestSupport

/// `sites check`, `sites which`, `places`, and the GPS options of the stamping commands.
@Suite struct SitesCommandTests {
    /// A sites file around the site fixture's GPS position (43.467448, 11.885127).
    static func sitesFile(_ text: String? = nil) throws -> String {
        let folder = try TestFiles.temporaryFolder("sites")
        let path = folder + "/sites.geojson"
        let geojson = text ?? """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Arezzo works", "project": "Bridge 7", "address": "Via Roma 1"},
               "geometry": {"type": "Polygon", "coordinates": [[[11.88, 43.46], [11.89, 43.46], [11.89, 43.47], [11.88, 43.47], [11.88, 43.46]]]}},
              {"type": "Feature", "properties": {"name": "Harbour gate", "radius": 30},
               "geometry": {"type": "Point", "coordinates": [151.2153, -33.8568]}}
            ]}
            """
        try Data(geojson.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("sites check lists the sites; a broken file is exit 65 naming the feature; a missing one 66")
    func check() throws {
        let good = try Self.sitesFile()
        let result = CLI.run(["sites", "check", good])
        #expect(result.code == 0)
        #expect(result.out.first == good + ": ok, 2 sites")
        #expect(result.out.contains { $0.hasPrefix("  Arezzo works: polygon, 89.7 ha") && $0.hasSuffix("(feature 0); project Bridge 7; address Via Roma 1") })
        #expect(result.out.contains("  Harbour gate: point, radius 30.0 m (feature 1)"))
        let bad = try Self.sitesFile(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Gate"}, "geometry": {"type": "Point", "coordinates": [2, 48]}}]}"#)
        let broken = CLI.run(["sites", "check", bad])
        #expect(broken.code == 65)
        #expect(broken.err == ["stampcam: \(bad): feature 0 (\"Gate\"): properties.radius: missing: a Point site needs a radius in metres"])
        #expect(CLI.run(["sites", "check", "/nonexistent/sites.geojson"]).code == 66)
        #expect(CLI.run(["sites"]).code == 64)
    }

    @Test("sites which: the site at a position, southern latitudes written plainly")
    func which() throws {
        let file = try Self.sitesFile()
        let inside = CLI.run(["sites", "which", "43.467448,11.885127", "--sites", file], environment: ["STAMPCAM_PLACES": "/nonexistent"])
        #expect(inside.code == 0 && inside.out.first?.hasPrefix("Arezzo works: polygon") == true)
        let south = CLI.run(["sites", "which", "-33.8568,151.2154", "--sites", file], environment: ["STAMPCAM_PLACES": "/nonexistent"])
        #expect(south.code == 0 && south.out.first?.hasPrefix("Harbour gate: point") == true, "\(south)")
        // GeoConvert's answers for these positions.
        #expect(south.out.contains("grid: UTM 56S 334910 6252289, MGRS 56HLH 34909 52288"), "\(south.out)")
        let polar = CLI.run(["sites", "which", "-85,10", "--sites", file], environment: ["STAMPCAM_PLACES": "/nonexistent"])
        #expect(polar.out.contains("grid: none beyond 84°N and 80°S (UPS, which stampcam does not write)"), "\(polar.out)")
        let nowhere = CLI.run(["sites", "which", "0,0", "--sites", file], environment: ["STAMPCAM_PLACES": "/nonexistent"])
        #expect(nowhere.code == 0 && nowhere.out.first == "no site of \(file) at 0,0")
        #expect(CLI.run(["sites", "which", "0,0"]).code == 64, "no --sites")
        #expect(CLI.run(["sites", "which", "north", "--sites", file]).code == 64)
    }

    @Test("apply: the photo's EXIF GPS gives {site}, {address} and the project; the given project wins")
    func applySites() throws {
        let sites = try Self.sitesFile()
        let input = try TestFiles.temporaryFolder("sites-in")
        let photo = try Fixtures.site.write(to: input)
        let out = try TestFiles.temporaryFolder("sites-out")
        let result = CLI.run(["apply", photo, "-o", out, "--sites", sites, "--name", "{site}-{project}-{address}"])
        #expect(result.code == 0 && TestFiles.files(in: out) == ["Arezzo works-Bridge 7-Via Roma 1.jpg"], "\(result)")
        let given = try TestFiles.temporaryFolder("sites-out-given")
        _ = CLI.run(["apply", photo, "-o", given, "--sites", sites, "--project", "Tunnel", "--name", "{site}-{project}"])
        #expect(TestFiles.files(in: given) == ["Arezzo works-Tunnel.jpg"])
        let off = try TestFiles.temporaryFolder("sites-out-off")
        _ = CLI.run(["apply", photo, "-o", off, "--sites", sites, "--gps", "off", "--name", "x{site}{lat}"])
        #expect(TestFiles.files(in: off) == ["site.jpg"], "--gps off: no position and no site, so the name template is empty and the input's name is used")
        let typed = try TestFiles.temporaryFolder("sites-out-typed")
        _ = CLI.run(["apply", photo, "-o", typed, "--sites", sites, "--gps", "-33.8568,151.2153,4", "--name", "{site}-{alt}"])
        #expect(TestFiles.files(in: typed) == ["Harbour gate-4 m.jpg"], "a typed position wins over the photo's")
    }

    @Test("apply --sites: the site's name and address are in the XMP (IPTC LocationCreated, stampcam:Site, SiteAddress) and the catalog")
    func siteRecorded() throws {
        let sites = try Self.sitesFile()
        let input = try TestFiles.temporaryFolder("sites-record-in")
        let photo = try Fixtures.site.write(to: input)
        let out = try TestFiles.temporaryFolder("sites-record-out")
        let catalog = out + "/catalog.sqlite"
        let result = CLI.run(["apply", photo, "-o", out, "--sites", sites, "-t", "banner", "--catalog", catalog])
        #expect(result.code == 0, "\(result.err)")
        let tags = try ExifTool.tags(out + "/site.jpg")
        #expect(tags["XMP-iptcExt:LocationCreated"]?.contains(#""Sublocation":"Arezzo works""#) == true, "\(tags.filter { $0.key.hasPrefix("XMP-iptcExt") })")
        #expect(tags["XMP-stampcam:Site"] == "Arezzo works" && tags["XMP-stampcam:SiteAddress"] == "Via Roma 1")
        let row = try #require(try CatalogCommandTests.rows(catalog).first)
        #expect(row.site == "Arezzo works" && row.siteAddress == "Via Roma 1" && row.project == "Bridge 7")
        let csv = CLI.run(["export", "--csv", "--catalog", catalog, "-o", "-"])
        #expect(csv.out.joined().contains(",Arezzo works,Via Roma 1,"))
    }

    @Test("GPS options: what they refuse, and require outside shoot", arguments: [
        (["--gps", "48.8,200"], "option '--gps': '48.8,200' is out of range: the latitude goes from -90 to 90, the longitude from -180 to 180"),
        (["--gps", "require"], "option '--gps': 'require' is not auto, off or LAT,LON[,ALT] here (require is for shoot"),
        (["--gps-max-age", "0"], "option '--gps-max-age': '0' is not a number from 0.1 to 86400"),
        (["--gps-min-accuracy", "nan"], "option '--gps-min-accuracy': 'nan' is not a number"),
        (["--gpsd", "localhost:99999"], "option '--gpsd': 'localhost:99999' is not HOST or HOST:PORT"),
    ])
    func refused(_ options: [String], _ message: String) throws {
        let input = try TestFiles.temporaryFolder("gps-options")
        let photo = try Fixtures.site.write(to: input)
        let result = CLI.run(["apply", photo, "-o", input + "/out"] + options)
        #expect(result.code == 64)
        #expect(result.err.first?.hasPrefix("stampcam: " + message) == true, "\(result.err)")
    }

    @Test("places: the nearest place of a table; not installed is exit 69 with how to install")
    func places() throws {
        let folder = try TestFiles.temporaryFolder("places-cli")
        try Data("lat,lon,name,admin1,admin2,cc\n43.46276,11.88068,Arezzo,Tuscany,Arezzo,IT\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/cities.csv"))
        let result = CLI.run(["places", "43.467448,11.885127"], environment: ["STAMPCAM_PLACES": folder + "/cities.csv", "XDG_CACHE_HOME": folder + "/cache"])
        #expect(result.code == 0)
        #expect(result.out.last == "nearest: Arezzo, Tuscany, IT, 633 m away", "\(result)")
        let input = try TestFiles.temporaryFolder("places-apply")
        let photo = try Fixtures.site.write(to: input)
        _ = CLI.run(["apply", photo, "-o", input + "/out", "--name", "{place}"], environment: ["STAMPCAM_PLACES": folder + "/cities.csv"])
        #expect(TestFiles.files(in: input + "/out") == ["Arezzo, Tuscany, IT.jpg"])

        // A data folder without place names (fonts and templates only): {place} is empty, with the hint.
        let data = try TestFiles.temporaryFolder("data-without-places")
        for item in ["fonts", "templates"] {
            try FileManager.default.createSymbolicLink(atPath: data + "/" + item, withDestinationPath: TestFiles.packageRoot + "/" + item)
        }
        let missing = CLI.run(["places"], environment: ["STAMPCAM_DATA": data])
        #expect(missing.code == 69 && missing.err.first?.contains("run 'make places'") == true, "\(missing)")
        let noted = CLI.run(["apply", photo, "-o", input + "/out-none", "--name", "x{place}"], environment: ["STAMPCAM_DATA": data])
        #expect(noted.code == 0 && noted.err.first?.hasPrefix("stampcam: note: {place} stays empty: place names are not installed") == true, "\(noted)")
        #expect(TestFiles.files(in: input + "/out-none") == ["site.jpg"])
    }
}
