import Capture
import Foundation
import Library
import Location
import Platform
import Templates
import Testing
import TestSupport
import Watermark
@testable import Session

/// The session's set-up from typed choices, as every front end starts it: no camera opened
/// (except where a controller is made), no command line.
@Suite(.serialized) struct ShootSetupTests {
    static let folders = TemplateStore.Folders(builtIn: TestFiles.packageRoot + "/templates", user: "/nonexistent")

    static func choices(_ output: OutputTarget, _ change: (inout ShootSetup.Choices) -> Void = { _ in }) -> ShootSetup.Choices {
        var choices = ShootSetup.Choices(templateFolders: folders, output: output, device: Cameras.testDevice,
                                         fontConfig: ShootControllerTests.fontConfig)
        choices.capture.settle = .frames(1)
        change(&choices)
        return choices
    }

    static func template(id: String, line: String) -> [UInt8] {
        Array(#"{"version": 1, "id": "\#(id)", "name": "\#(id) here", "blocks": [{"lines": ["\#(line)"]}]}"#.utf8)
    }

    @Test("typed choices in, the controller's settings out: the one style asked for, the folder made and marked, the catalog, the writer")
    func settings() throws {
        let root = try TestFiles.temporaryFolder("setup")
        let name = try TextTemplate("{project}-{seq:03}.jpg")
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) {
            $0.style = "minimal"
            $0.nameTemplate = name
            $0.keepOriginal = true
            $0.writer = PhotoWriter.Settings(quality: 77, version: "t")
            $0.catalog = root + "/catalog.sqlite"
            $0.fields = FieldPolicy(given: Fields(project: "Bridge"))
            $0.capture.zoom = 2
        })
        defer { setup.finish() }
        let settings = try setup.controllerSettings()
        #expect(settings.devices == [Cameras.testDevice])
        #expect(settings.styles.map(\.id) == ["minimal"] && settings.style == 0)
        #expect(settings.folder == root + "/photos" && settings.markFolder)
        #expect(OutputFolder.isMarked(root + "/photos"))
        #expect(settings.nameTemplate == name && settings.keepOriginal)
        #expect(settings.writer.quality == 77 && settings.capture.zoom == 2)
        #expect((settings.writer.log?.log as? CatalogLog)?.path == root + "/catalog.sqlite")
        #expect(settings.writer.log?.command == .shoot)
        #expect(settings.fields.given.project == "Bridge")
        #expect(setup.notes.isEmpty)
        // No catalog asked for: none.
        let unlogged = try ShootSetup(Self.choices(.folder(root + "/other")))
        defer { unlogged.finish() }
        #expect(try unlogged.controllerSettings().writer.log == nil)
    }

    @Test("-o FILE: one photo gets that name, in a folder left unmarked; a session of several photos (or of a viewfinder) is refused")
    func oneFile() throws {
        let root = try TestFiles.temporaryFolder("setup-file")
        let target = OutputTarget.file(folder: root, name: "{evidence}.jpg")
        let setup = try ShootSetup(Self.choices(target) {
            $0.photos = 1
            $0.nameTemplate = try? TextTemplate("ignored-{seq}.jpg")
        })
        defer { setup.finish() }
        let settings = try setup.controllerSettings()
        #expect(settings.nameTemplate == TextTemplate(literal: "{evidence}.jpg"))
        #expect(!settings.markFolder && !OutputFolder.isMarked(root))
        for photos in [2, nil] as [Int?] {
            #expect(throws: ShootSetup.Problem.oneFileForSeveralPhotos(target)) {
                try ShootSetup(Self.choices(target) { $0.photos = photos })
            }
        }
    }

    @Test("with a cycle, a style with errors is left out (its error told), the chosen one checked and first in its place")
    func cycle() throws {
        let root = try TestFiles.temporaryFolder("setup-cycle")
        let extra = root + "/styles"
        try TestFiles.write(Self.template(id: "broken", line: "{projcet}"), to: extra + "/broken.json", creatingFolders: true)
        try TestFiles.write(Self.template(id: "crew", line: "{crew}"), to: extra + "/crew.json")
        var folders = Self.folders
        folders.extra = [extra]
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) {
            $0.templateFolders = folders
            $0.styleCycle = true
            $0.style = "geo"
            $0.fields = FieldPolicy(given: Fields(extra: ["crew": "B"]))  // {crew} has a value: usable
        })
        defer { setup.finish() }
        let check = try setup.checkStyles()
        let ids = check.styles.map(\.id)
        #expect(!ids.contains("broken") && ids.contains("crew") && ids.contains("classic"))
        #expect(check.leftOut.map(\.file) == ["broken.json"])
        #expect(check.leftOut.first?.problem.contains("{projcet}") == true)
        #expect(ids[check.style] == "geo")
        let settings = try setup.controllerSettings()
        #expect(settings.styles.map(\.id) == ids && settings.style == check.style)
    }

    @Test("a template file with a catalog style's id stands in for that style in the cycle")
    func chosenFileInCycle() throws {
        let root = try TestFiles.temporaryFolder("setup-file-style")
        try TestFiles.write(Self.template(id: "classic", line: "{user}"), to: root + "/mine.json")
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) {
            $0.styleCycle = true
            $0.style = root + "/mine.json"
        })
        defer { setup.finish() }
        let check = try setup.checkStyles()
        #expect(check.styles.filter { $0.id == "classic" }.map(\.name) == ["classic here"])
        #expect(check.styles[check.style].name == "classic here")
    }

    @Test("a chosen style with errors: the check throws its error; without a cycle the controller's settings do not wait for it")
    func chosenWithErrors() throws {
        let root = try TestFiles.temporaryFolder("setup-bad")
        try TestFiles.write(Self.template(id: "x", line: "{projcet}"), to: root + "/x.json")
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) { $0.style = root + "/x.json" })
        defer { setup.finish() }
        #expect(try setup.controllerSettings().styles.map(\.id) == ["x"])
        #expect(throws: TemplateError.self) { try setup.checkStyles() }
        let cycling = try ShootSetup(Self.choices(.folder(root + "/photos")) {
            $0.style = root + "/x.json"
            $0.styleCycle = true
        })
        defer { cycling.finish() }
        #expect(throws: TemplateError.self) { try cycling.controllerSettings() }
    }

    @Test("an unknown style and an unwritable folder are errors before anything starts")
    func refusals() throws {
        let root = try TestFiles.temporaryFolder("setup-refused")
        #expect(throws: TemplateStore.UnknownStyle.self) {
            try ShootSetup(Self.choices(.folder(root + "/photos")) { $0.style = "nosuchstyle" })
        }
        try TestFiles.write([0], to: root + "/file")
        #expect(throws: FileError.self) { try ShootSetup(Self.choices(.folder(root + "/file/photos"))) }
    }

    @Test("gpsd that does not answer: auto goes on without it, require is an error")
    func gps() throws {
        let root = try TestFiles.temporaryFolder("setup-gps")
        func choices(_ mode: GPSMode) -> ShootSetup.Choices {
            Self.choices(.folder(root + "/photos")) {
                $0.fields.whereabouts.mode = mode
                $0.gpsd = ("127.0.0.1", "1")  // nothing listens on port 1
            }
        }
        let auto = try ShootSetup(choices(.auto))
        defer { auto.finish() }
        #expect(auto.fields.whereabouts.live == nil)
        #expect(throws: LocationError.self) { try ShootSetup(choices(.require)) }
    }

    @Test("place names are kept only when a style or the name shows {place}; missing ones are a note when the chosen style shows it")
    func placeNames() throws {
        let root = try TestFiles.temporaryFolder("setup-places")
        try TestFiles.write(Self.template(id: "where", line: "{place}"), to: root + "/where.json")
        func setup(style: String?, name: TextTemplate? = nil, table: String?) throws -> ShootSetup {
            try ShootSetup(Self.choices(.folder(root + "/photos")) {
                $0.style = style
                $0.nameTemplate = name
                $0.fields.whereabouts.places = PlaceFinder(table: table, cacheFolder: nil)
            })
        }
        let plain = try setup(style: "classic", table: "/nonexistent.csv")
        #expect(plain.fields.whereabouts.places == nil && plain.notes.isEmpty)
        let shown = try setup(style: root + "/where.json", table: "/some/cities.csv")
        #expect(shown.fields.whereabouts.places != nil && shown.notes.isEmpty)
        let missing = try setup(style: root + "/where.json", table: nil)
        #expect(missing.notes == [.noPlaceNames])
        let named = try setup(style: "classic", name: try TextTemplate("{place}-{seq}.jpg"), table: nil)
        #expect(named.notes == [.noPlaceNames] && named.fields.whereabouts.places != nil)
        for each in [plain, shown, missing, named] { each.finish() }
    }

    @Test("finish removes the folder the set-up made when nothing was saved in it, and leaves one that was there")
    func finish() throws {
        let root = try TestFiles.temporaryFolder("setup-finish")
        let made = try ShootSetup(Self.choices(.folder(root + "/new")))
        #expect(FileManager.default.fileExists(atPath: root + "/new"))
        made.finish()
        #expect(!FileManager.default.fileExists(atPath: root + "/new"))
        try FileManager.default.createDirectory(atPath: root + "/old", withIntermediateDirectories: false)
        let kept = try ShootSetup(Self.choices(.folder(root + "/old")))
        kept.finish()
        #expect(FileManager.default.fileExists(atPath: root + "/old"))
    }

    @Test("a series of three with the set-up's controller: three photos, in order, each reported once saved")
    func series() throws {
        let root = try TestFiles.temporaryFolder("setup-series")
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) { $0.photos = 3 })
        defer { setup.finish() }
        let controller = try setup.makeController()
        defer { controller.close() }
        _ = try setup.checkStyles()
        var saved: [String] = []
        let outcome = try ShootSeries(count: 3).run(controller) { event in
            if case .saved(let written) = event { saved.append(written.path) }
        }
        #expect(outcome == .finished)
        #expect(saved.count == 3 && Set(saved).count == 3)
        #expect(saved.map { ($0 as NSString).lastPathComponent } == TestFiles.files(in: root + "/photos"))
    }

    @Test("a series whose photo cannot be saved throws the save's error")
    func seriesFails() throws {
        let root = try TestFiles.temporaryFolder("setup-series-fails")
        let setup = try ShootSetup(Self.choices(.folder(root + "/photos")) { $0.photos = 1 })
        defer { setup.finish() }
        let controller = try setup.makeController()
        defer { controller.close() }
        // The folder becomes a file: nothing can be written there, also by root.
        try FileManager.default.removeItem(atPath: root + "/photos")
        try TestFiles.write([0], to: root + "/photos")
        #expect(throws: FileError.self) { try ShootSeries(count: 1).run(controller) { _ in } }
    }
}
