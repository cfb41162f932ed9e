@testable import Catalog
import Foundation
import Platform
import Testing
import TestSupport

/// CSV, GeoJSON and KML, each read back by an independent reader.
@Suite struct ExportTests {
    static var entries: [CatalogEntry] {
        var hostile = CatalogTests.full
        hostile.location = "=cmd|' /C calc'!A0, \"quoted\"\r\nnext line\u{0001}"
        hostile.user = "-2+3"
        hostile.extra = ["city": "Sydney", "crew": "@B"]
        return CatalogTests.crafted + [hostile]
    }

    @Test("CSV: RFC 4180, read back by Python's csv module field for field; formulas neutralised, numbers kept as numbers")
    func csv() throws {
        let entries = Self.entries
        let bytes = CatalogExport.csv(entries)
        #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("\r\n"))
        let path = try CatalogTests.folder() + "/photos.csv"
        try TestFiles.write(bytes, to: path)
        let parsed = try ExternalTool.python("""
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.reader(f, strict=True))))
            """, [path])
        #expect(parsed.status == 0, "\(parsed.err)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(parsed.out.utf8)) as? [[String]])
        #expect(rows.count == entries.count + 1)
        #expect(rows[0] == CatalogExport.csvColumns + ["set:city", "set:crew"])
        let column = Dictionary(uniqueKeysWithValues: rows[0].enumerated().map { ($1, $0) })
        for (entry, row) in zip(entries, rows.dropFirst()) {
            #expect(row.count == rows[0].count)
            #expect(row[column["path"]!] == PathEncoding.display(entry.path))
            #expect(row[column["time"]!] == (entry.time?.iso8601 ?? ""))
            #expect(row[column["project"]!] == (entry.project ?? ""))
            if entry.location?.hasPrefix("=") != true { #expect(row[column["location"]!] == (entry.location ?? "")) }
            #expect(Double(row[column["latitude"]!]).map { abs($0 - entry.latitude!) < 1e-7 } ?? (entry.latitude == nil))
            #expect(Double(row[column["longitude"]!]).map { abs($0 - entry.longitude!) < 1e-7 } ?? (entry.longitude == nil))
            #expect(row[column["sha256"]!] == entry.sha256)
        }
        let hostile = try #require(rows.last)
        #expect(hostile[column["location"]!] == "'=cmd|' /C calc'!A0, \"quoted\"\r\nnext line\u{0001}")
        #expect(hostile[column["user"]!] == "'-2+3")
        #expect(hostile[column["set:crew"]!] == "'@B")
        #expect(hostile[column["altitude"]!] == "-4.25")
        #expect(hostile[column["heading"]!] == "292.5")
        #expect(hostile[column["path"]!] == "/photos/caf\\xE9/Robert'); DROP TABLE photos;--.jpg")
    }

    @Test("CSV: the zone is inside the ISO time, never a cell of its own a spreadsheet reads as a formula")
    func csvZone() throws {
        let text = String(decoding: CatalogExport.csv(CatalogTests.crafted), as: UTF8.self)
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(!lines[0].split(separator: ",").contains("zone"), "\(lines[0])")
        #expect(!text.contains("'+") && !text.contains(",+"), "\(text)")
        #expect(lines.contains { $0.contains(",2026-11-24T12:00:00Z,") } && lines.contains { $0.contains(",2026-11-29T10:00:00+10:00,") })
    }

    /// A small GeoJSON checker (RFC 7946): a FeatureCollection of Features, each a Point whose
    /// coordinates are [longitude, latitude(, altitude)] within range. Returns the problems.
    static func geoJSONProblems(_ bytes: [UInt8]) -> [String] {
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return ["not a JSON object"] }
        var problems: [String] = []
        if root["type"] as? String != "FeatureCollection" { problems.append("type is not FeatureCollection") }
        if root["crs"] != nil { problems.append("crs is not RFC 7946") }
        guard let features = root["features"] as? [[String: Any]] else { return problems + ["features is not an array of objects"] }
        for (index, feature) in features.enumerated() {
            if feature["type"] as? String != "Feature" { problems.append("features[\(index)].type") }
            if !(feature["properties"] is [String: Any]) { problems.append("features[\(index)].properties") }
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point",
                  let coordinates = geometry["coordinates"] as? [Double], (2...3).contains(coordinates.count) else {
                problems.append("features[\(index)].geometry is not a Point")
                continue
            }
            if !(-180...180).contains(coordinates[0]) || !(-90...90).contains(coordinates[1]) {
                problems.append("features[\(index)]: coordinates out of range")
            }
        }
        return problems
    }

    @Test("GeoJSON: a valid FeatureCollection, longitude first; photos without coordinates left out and counted")
    func geoJSON() throws {
        let entries = Self.entries
        let result = try CatalogExport.geoJSON(entries)
        #expect(Self.geoJSONProblems(result.bytes).isEmpty, "\(Self.geoJSONProblems(result.bytes))")
        let located = entries.filter { $0.position != nil }
        #expect(result.written == located.count && result.leftOut == entries.count - located.count && result.leftOut == 1)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.bytes)) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        for (entry, feature) in zip(located, features) {
            let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            // Longitude first: Sydney is at 151 E, 33 S, not the other way round.
            #expect(abs(coordinates[0] - entry.longitude!) < 1e-7 && abs(coordinates[1] - entry.latitude!) < 1e-7)
            if let altitude = entry.altitude { #expect(coordinates.count == 3 && abs(coordinates[2] - altitude) < 0.01) }
            #expect((feature["properties"] as? [String: Any])?["project"] as? String == entry.project)
        }
        // The checker itself catches the classic mistake.
        let swapped = Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-33.85,151.21]}}]}"#.utf8)
        #expect(Self.geoJSONProblems(swapped) == ["features[0]: coordinates out of range"])
    }

    @Test("KML: well-formed XML read back by Python's parser: one Placemark per located photo, lon,lat order, text escaped")
    func kml() throws {
        let entries = Self.entries
        let result = try CatalogExport.kml(entries)
        let path = try CatalogTests.folder() + "/photos.kml"
        try TestFiles.write(result.bytes, to: path)
        let parsed = try ExternalTool.python("""
            import json, sys, xml.etree.ElementTree as ET
            ns = {"k": "http://www.opengis.net/kml/2.2"}
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "{http://www.opengis.net/kml/2.2}kml", root.tag
            out = []
            for p in root.findall("k:Document/k:Placemark", ns):
                data = {d.get("name"): d.findtext("k:value", namespaces=ns) for d in p.findall("k:ExtendedData/k:Data", ns)}
                out.append({"name": p.findtext("k:name", namespaces=ns), "description": p.findtext("k:description", namespaces=ns),
                            "when": p.findtext("k:TimeStamp/k:when", namespaces=ns),
                            "coordinates": p.findtext("k:Point/k:coordinates", namespaces=ns), "data": data})
            print(json.dumps(out))
            """, [path])
        #expect(parsed.status == 0, "\(parsed.err)")
        let placemarks = try #require(try JSONSerialization.jsonObject(with: Data(parsed.out.utf8)) as? [[String: Any]])
        let located = entries.filter { $0.position != nil }
        #expect(placemarks.count == located.count && result.leftOut == 1)
        for (entry, placemark) in zip(located, placemarks) {
            let parts = try #require((placemark["coordinates"] as? String)?.split(separator: ",").compactMap { Double($0) })
            #expect(abs(parts[0] - entry.longitude!) < 1e-7 && abs(parts[1] - entry.latitude!) < 1e-7)
            let data = try #require(placemark["data"] as? [String: String])
            #expect(data["project"] == entry.project && data["sha256"] == entry.sha256)
            #expect(placemark["when"] as? String == entry.time?.iso8601)
        }
        // HTML in a value reaches Google Earth as text (escaped once more), control characters as U+FFFD.
        let hostile = try #require(placemarks.last)
        let description = try #require(hostile["description"] as? String)
        #expect(description.contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"), "\(description)")
        let location = try #require((hostile["data"] as? [String: String])?["location"])
        #expect(location.hasPrefix("=cmd|' /C calc'!A0, \"quoted\"") && location.hasSuffix("next line\u{FFFD}"))
    }
}

/// A photo's heading (EXIF GPSImgDirection) as a map's view direction.
@Suite struct HeadingExportTests {
    static var entries: [CatalogEntry] {
        var facing = CatalogTests.full
        facing.heading = 45.5
        var unknown = CatalogTests.full
        unknown.path = "/photos/unknown.jpg"
        unknown.heading = nil
        return [facing, unknown]
    }

    @Test("GeoJSON: a `heading` property in degrees where the photo has one, none where it has not (read by Python's json)")
    func geoJSON() throws {
        let path = try CatalogTests.folder() + "/heading.geojson"
        try TestFiles.write(try CatalogExport.geoJSON(Self.entries).bytes, to: path)
        let parsed = try ExternalTool.python("""
            import json, sys
            print(json.dumps([f["properties"].get("heading", "none") for f in json.load(open(sys.argv[1]))["features"]]))
            """, [path])
        #expect(parsed.status == 0, "\(parsed.err)")
        #expect(parsed.out.trimmingCharacters(in: .whitespacesAndNewlines) == #"[45.5, "none"]"#)
    }

    @Test("KML: a Camera where the photo was taken, looking level the way it faced, before the TimeStamp as the schema wants")
    func kml() throws {
        let path = try CatalogTests.folder() + "/heading.kml"
        try TestFiles.write(try CatalogExport.kml(Self.entries).bytes, to: path)
        let parsed = try ExternalTool.python("""
            import json, sys, xml.etree.ElementTree as ET
            k = "{http://www.opengis.net/kml/2.2}"
            out = []
            for p in ET.parse(sys.argv[1]).getroot().iter(k + "Placemark"):
                c = p.find(k + "Camera")
                tags = [child.tag[len(k):] for child in p]
                out.append(None if c is None else [c.findtext(k + t) for t in ("longitude", "latitude", "heading", "tilt", "altitudeMode")]
                           + [tags.index("Camera") < tags.index("TimeStamp")])
            print(json.dumps(out))
            """, [path])
        #expect(parsed.status == 0, "\(parsed.err)")
        #expect(parsed.out.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"[["151.2152970", "-33.8567840", "45.5", "90", "relativeToGround", true], null]"#)
    }

    @Test("the catalog keeps a heading as 0 up to 360 degrees: 360 is north, anything else is dropped")
    func kept() throws {
        let catalog = try Catalog(path: try CatalogTests.folder() + "/heading.sqlite")
        for (number, heading) in [(1, 360.0), (2, 400.0), (3, -1.0), (4, Double.nan), (5, 359.5)] {
            try catalog.add(CatalogEntry(path: "/h\(number).jpg", size: 1, sha256: CatalogTests.digest(number), command: .shoot,
                                         latitude: 1, longitude: 2, heading: heading))
        }
        let headings = try catalog.entries().entries.sorted { $0.path < $1.path }.map(\.heading)
        #expect(headings == [0, nil, nil, nil, 359.5])
    }
}
