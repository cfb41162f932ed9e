import Foundation
import Library
import Templates
import Testing
import TestSupport

/// `-o` parsed once: a folder, or one JPEG file in a folder.
@Suite struct OutputTargetTests {
    @Test("what -o names", arguments: [
        ("out", OutputTarget.folder("out")),
        ("out/", .folder("out")),
        ("out//", .folder("out")),
        ("/", .folder("/")),
        ("photo.jpg", .file(folder: ".", name: "photo.jpg")),
        ("a/b/photo.JPEG", .file(folder: "a/b", name: "photo.JPEG")),
        ("/evidence.jpg", .file(folder: "/", name: "evidence.jpg")),
        ("photo.jpg/", .folder("photo.jpg")),
        ("photo.png", .folder("photo.png")),
        ("", .folder("")),
    ])
    func parsing(text: String, expected: OutputTarget) {
        #expect(OutputTarget(parsing: text) == expected)
    }

    @Test("a folder named like a photo is a folder")
    func existingFolder() throws {
        let root = try TestFiles.temporaryFolder("target")
        try FileManager.default.createDirectory(atPath: root + "/shots.jpg", withIntermediateDirectories: false)
        #expect(OutputTarget(parsing: root + "/shots.jpg") == .folder(root + "/shots.jpg"))
        #expect(OutputTarget(parsing: root + "/other.jpg") == .file(folder: root, name: "other.jpg"))
    }

    @Test("the folder, the file's name, the path, and a name template that is the name itself, braces and all")
    func parts() {
        let file = OutputTarget.file(folder: "out", name: "{site} 1.jpg")
        #expect(file.folder == "out" && file.fileName == "{site} 1.jpg" && file.path == "out/{site} 1.jpg")
        #expect(OutputTarget.file(folder: "/", name: "a.jpg").path == "/a.jpg")
        var fields = Fields()
        fields.site = "Quay"
        let named = PhotoName.make(template: file.nameTemplate, input: "x.jpg", fields: fields)
        #expect(named == "{site} 1.jpg")
        let folder = OutputTarget.folder("out")
        #expect(folder.folder == "out" && folder.fileName == nil && folder.nameTemplate == nil && folder.path == "out")
    }
}
