import Foundation
import Testing
import TestSupport
import Templates
import Values
@testable import Library

@Suite struct PhotoNameTests {
    @Test("names are one safe path component ending in .jpg", arguments: [
        ("../../etc/passwd", "_.._etc_passwd.jpg"),
        ("..", "fallback.jpg"),
        ("/", "fallback.jpg"),
        ("a\u{0}b\nc.jpg", "a_b_c.jpg"),
        (".hidden.jpeg", "hidden.jpeg"),
        ("report", "report.jpg"),
        ("  ", "fallback.jpg"),
    ])
    func sanitised(name: String, expected: String) {
        #expect(PhotoName.sanitised(name, fallback: "fallback") == expected)
    }

    @Test("long names are cut to 200 bytes plus the extension")
    func long() {
        let name = PhotoName.sanitised(String(repeating: "é", count: 300), fallback: "x")
        #expect(name.utf8.count <= 204 && name.hasSuffix(".jpg"))
    }

    @Test("--name renders fields and {basename}; all-empty falls back to the input's name")
    func templates() throws {
        let fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), project: "Bridge 7")
        #expect(PhotoName.make(template: try TextTemplate("{date:%Y%m%d}-{project}-{basename}"), input: "a/IMG_1.JPG",
                               fields: fields) == "20261129-Bridge 7-IMG_1.jpg")
        #expect(PhotoName.make(template: try TextTemplate("{note}"), input: "a/IMG_1.JPG", fields: fields) == "IMG_1.jpg")
        #expect(PhotoName.make(template: nil, input: "a/IMG_1.JPG", fields: fields) == "IMG_1.JPG")
    }

    @Test("characters that let a shell run a command become _ in a name made from values; the template's own text stays")
    func shellCharacters() throws {
        let fields = Fields(user: "x$(touch PWNED);`id`|a&b<c>'d\"e*?[f]{g}!h")
        #expect(PhotoName.make(template: try TextTemplate("{user} (draft)"), input: "a/IMG_1.JPG", fields: fields)
                == "x_(touch PWNED)__id__a_b_c__d_e*?[f]{g}!h (draft).jpg")
        #expect(PhotoName.make(template: try TextTemplate("{basename}-x"), input: "a/IMG (1).jpg", fields: Fields()) == "IMG (1)-x.jpg")
    }

    @Test("shot names: capture time and a number that keeps counting up in the folder")
    func shots() throws {
        #expect(PhotoName.shot(time: try #require(Timestamp(iso8601: "2026-11-29T14:22:33+08:00")), number: 7) == "20261129-142233-0007.jpg")
        let folder = try TestFiles.temporaryFolder("shots")
        #expect(PhotoName.nextShotNumber(in: folder) == 1)
        for name in ["20261129-142233-0007.jpg", "20261129-142233-0012.original.jpg", "20261129-142233-0009.json", "x-1.jpg"] {
            try TestFiles.write([1], to: folder + "/" + name)
        }
        #expect(PhotoName.nextShotNumber(in: folder) == 8)
    }

    @Test("a sidecar holds the style and the values, to stamp the photo again")
    func sidecar() throws {
        let template = try Template(json: Array(#"{"version": 1, "id": "site", "name": "Site", "blocks": [{"lines": ["x"]}]}"#.utf8),
                                    file: "site.json", folder: "/")
        let fields = Fields(time: Timestamp(iso8601: "2026-11-29T14:03:12+08:00"), user: "Ana", sequence: 3, extra: ["crew": "B"])
        let json = try Sidecar(photo: "/p/a.jpg", original: "/p/a.original.jpg", template: template, fields: fields,
                               capture: "test 640x360", version: "9.9").json()
        let object = try #require(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        #expect(object["photo"] as? String == "a.jpg")
        #expect(object["original"] as? String == "a.original.jpg")
        #expect((object["template"] as? [String: Any])?["id"] as? String == "site")
        let values = try #require(object["fields"] as? [String: Any])
        #expect(values["time"] as? String == "2026-11-29T14:03:12+08:00")
        #expect(values["user"] as? String == "Ana")
        #expect((values["extra"] as? [String: String]) == ["crew": "B"])
    }
}
