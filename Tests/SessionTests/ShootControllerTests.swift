import Capture
import Foundation
import Imaging
import Library
import Location
import Session
import Templates
import Values
import Platform
import Testing
import TestSupport
import Watermark

/// The shoot controller driven headlessly, as any front end drives it, with the built-in test
/// pattern: no terminal, no StampCLI.
@Suite(.serialized) struct ShootControllerTests {
    static let fontConfig = TestFiles.packageRoot + "/fonts/fonts.conf"
    static var styles: [Template] {
        (try? TemplateStore(builtIn: TestFiles.packageRoot + "/templates", user: "/nonexistent", extraFolders: []))?.catalog.entries.map(\.template) ?? []
    }

    static func controller(folder: String, styles: [Template] = styles, keepOriginal: Bool = true, exec: ExecHook? = nil,
                           size: Resolution = Resolution(width: 640, height: 360)) throws -> ShootController {
        var capture = CaptureSettings()
        capture.resolution = size
        capture.settle = .frames(1)
        return try ShootController(settings: ShootController.Settings(
            devices: [Cameras.testDevice], capture: capture, styles: styles, style: 0,
            fields: FieldPolicy(given: Fields(user: "Ana", project: "Bridge 7")), folder: folder, nameTemplate: nil,
            keepOriginal: keepOriginal, writer: PhotoWriter.Settings(quality: 95, exec: exec, version: "test"),
            fontConfig: fontConfig))
    }

    /// Waits for a phase; fails the test (and returns the last snapshot) after 20 s.
    @discardableResult
    static func wait(_ controller: ShootController, for phase: (ShootState.Phase) -> Bool,
                     _ what: String, sourceLocation: SourceLocation = #_sourceLocation) -> ShootController.Snapshot {
        let snapshot = controller.wait(timeout: 20) { phase($0.state.phase) }
        #expect(snapshot != nil, "no \(what)", sourceLocation: sourceLocation)
        return snapshot ?? controller.snapshot()
    }

    static func files(_ folder: String) -> [String] { TestFiles.files(in: folder) }

    static func sidecar(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(try TestFiles.bytes(path))) as? [String: Any])
    }

    @Test("shoot → next style → retake → shoot → use: exactly one photo, with original and sidecar, in the chosen style")
    func wholeShoot() throws {
        let folder = try TestFiles.temporaryFolder("controller")
        let controller = try Self.controller(folder: folder)
        defer { controller.close() }
        controller.previewSize = (320, 180)
        #expect(controller.wait(timeout: 20) { $0.picture != nil } != nil, "a live picture")
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        controller.send(.nextStyle)
        #expect(controller.snapshot().state.style == 1)
        controller.send(.retake)
        Self.wait(controller, for: { $0 == .viewfinder }, "viewfinder")
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "second review")
        controller.send(.use)
        let saved = Self.wait(controller, for: { if case .saved = $0 { return true } else { return false } }, "save")
        let written = try #require(saved.lastSaved)
        controller.close()
        let names = Self.files(folder)
        #expect(names.filter { $0.hasSuffix(".jpg") && !$0.hasSuffix(".original.jpg") } == [(written.path as NSString).lastPathComponent])
        #expect(names.filter { $0.hasSuffix(".original.jpg") }.count == 1)
        #expect(names.filter { $0.hasSuffix(".json") }.count == 1)
        #expect(!names.contains { $0.hasPrefix(".stampcam-") })  // no temp file, no claim left
        let sidecar = try Self.sidecar(try #require(written.sidecar))
        #expect((sidecar["template"] as? [String: Any])?["id"] as? String == Self.styles[1].id)
        let fields = try #require(sidecar["fields"] as? [String: Any])
        #expect(fields["filename"] as? String == (written.path as NSString).lastPathComponent)
        #expect(fields["sequence"] as? Int == 1)  // the retaken shot gave its number back
    }

    @Test("choosing a style that does not show given values says which, once per change; so does giving one it does not show")
    func fieldsNotShown() throws {
        let folder = try TestFiles.temporaryFolder("notshown")
        let controller = try Self.controller(folder: folder)
        defer { controller.close() }
        let styles = Self.styles
        let minimal = try #require(styles.firstIndex { $0.id == "minimal" })
        let classic = try #require(styles.firstIndex { $0.id == "classic" })
        _ = controller.snapshot(takeNotices: true)
        controller.send(.chooseStyle(minimal))
        var snapshot = controller.snapshot(takeNotices: true)
        #expect(snapshot.fieldsNotShown == ["user", "project"])
        #expect(snapshot.notices.map(\.text) == ["The style Minimal does not show user, project"])
        controller.send(.chooseStyle(classic))
        snapshot = controller.snapshot(takeNotices: true)
        #expect(snapshot.fieldsNotShown.isEmpty && snapshot.notices.isEmpty)
        var policy = controller.fieldPolicy
        policy.given.extra = ["inspector_id": "QA-17", "weather": "rain"]
        controller.fieldPolicy = policy
        snapshot = controller.snapshot(takeNotices: true)
        #expect(snapshot.fieldsNotShown == ["inspector_id", "weather"])
        #expect(snapshot.notices.map(\.text) == ["The style Classic does not show inspector_id, weather"])
        controller.fieldPolicy = policy  // the same values again: nothing new to say
        #expect(controller.snapshot(takeNotices: true).notices.isEmpty)
    }

    @Test("a field cut on a saved photo is told as a warning notice, once a session, for every viewfinder")
    func cutFieldTold() throws {
        var style = try #require(Self.styles.first { $0.id == "classic" })
        style.blocks[0].lines = [Template.Line(text: "{note}")]
        style.blocks[0].overflow = .ellipsis
        style.blocks[0].maxWidth = 0.2
        let folder = try TestFiles.temporaryFolder("cutnote")
        let controller = try Self.controller(folder: folder, styles: [style], keepOriginal: false)
        defer { controller.close() }
        var policy = controller.fieldPolicy
        policy.given.note = "formwork checked before the pour, north face"
        controller.fieldPolicy = policy
        var told: [String] = []
        for _ in 0..<2 {
            controller.send(.shutter)
            Self.wait(controller, for: { $0 == .reviewing }, "review")
            controller.send(.use)
            Self.wait(controller, for: { if case .saved = $0 { return true } else { return false } }, "save")
            told += controller.snapshot(takeNotices: true).notices.filter(\.isWarning).map(\.text)
        }
        #expect(told == ["note does not fit in the style 'classic' on this photo and is cut with \"…\" (shorten it, or choose a style with more room)"])
    }

    @Test("a photo used before the writer's fonts are ready is saved once they are (the camera does not wait for them)")
    func fontsArriveLater() throws {
        let folder = try TestFiles.temporaryFolder("fonts-later")
        var capture = CaptureSettings()
        capture.resolution = Resolution(width: 640, height: 360)
        capture.settle = .frames(1)
        let settings = ShootController.Settings(
            devices: [Cameras.testDevice], capture: capture, styles: Self.styles, style: 0,
            fields: FieldPolicy(given: Fields(user: "Ana")), folder: folder, nameTemplate: nil, keepOriginal: false,
            writer: PhotoWriter.Settings(quality: 90, version: "test"), fontConfig: Self.fontConfig)
        // The fonts come when the test says so: until then the writer, which has asked for them, waits.
        let fonts = ConditionLock((asked: false, ready: false))
        let controller = try ShootController(settings: settings, watermarker: {
            fonts.withLock { $0.asked = true }
            fonts.wait(until: { $0.ready }, then: { _ in })
            return try Watermarker(fontConfig: Self.fontConfig)
        })
        defer { controller.close() }
        #expect(fonts.wait(timeout: 20, until: { $0.asked }, then: { _ in true }) == true, "the writer asks for its fonts")
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "photo under review while the fonts are not there")
        controller.send(.use)
        #expect(controller.snapshot().state.phase == .saving)
        let photos = { Self.files(folder).filter { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") } }
        #expect(photos().isEmpty, "no photo without the fonts")
        fonts.withLock { $0.ready = true }
        Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "saved")
        #expect(photos().count == 1)
    }

    @Test("fonts that cannot be set up: the save fails with their error, the photo stays under review")
    func fontsFail() throws {
        let folder = try TestFiles.temporaryFolder("fonts-fail")
        var capture = CaptureSettings()
        capture.settle = .frames(1)
        let settings = ShootController.Settings(
            devices: [Cameras.testDevice], capture: capture, styles: Self.styles, style: 0, fields: FieldPolicy(),
            folder: folder, nameTemplate: nil, keepOriginal: false, writer: PhotoWriter.Settings(version: "test"),
            fontConfig: Self.fontConfig)
        let controller = try ShootController(settings: settings, watermarker: { throw WatermarkError.fontConfiguration(path: "/nowhere") })
        defer { controller.close() }
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        controller.send(.use)
        let failed = controller.wait(timeout: 20) { $0.state.phase == .reviewing && $0.state.message != nil }
        #expect(failed?.lastError is WatermarkError)
        #expect(failed?.state.message?.hasPrefix("Not saved:") == true)
    }

    @Test("a save that fails and is retried leaves no name claim behind (the claim is held, or made again)")
    func retriedSaveLeavesNoClaim() throws {
        let root = try TestFiles.temporaryFolder("claim-retry")
        let folder = root + "/photos"
        let controller = try Self.controller(folder: folder, keepOriginal: true)
        defer { controller.close() }
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        #expect(Self.files(folder).contains { $0.hasPrefix(".stampcam-claim-") }, "the name is claimed at the shutter")
        // The folder goes away (a file where it was: even root cannot write there), then comes back.
        try FileManager.default.moveItem(atPath: folder, toPath: root + "/away")
        try TestFiles.write([0], to: folder)
        controller.send(.use)
        let failed = controller.wait(timeout: 20) { $0.state.phase == .reviewing && $0.state.message != nil }
        #expect(failed?.state.message?.hasPrefix("Not saved:") == true)
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.moveItem(atPath: root + "/away", toPath: folder)
        controller.send(.use)
        let saved = Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "saved on the second try")
        let written = try #require(saved.lastSaved)
        #expect(Self.files(folder).contains((written.path as NSString).lastPathComponent))
        #expect(Self.files(folder).allSatisfy { !$0.hasPrefix(".stampcam-") }, "\(Self.files(folder))")
        controller.close()
        #expect(Self.files(folder).allSatisfy { !$0.hasPrefix(".stampcam-") }, "\(Self.files(folder))")
    }

    @Test("the kept original carries no stamp, also when the review picture has the capture's own size")
    func originalUnstamped() throws {
        let folder = try TestFiles.temporaryFolder("original")
        let controller = try Self.controller(folder: folder)
        defer { controller.close() }
        controller.previewSize = (640, 360)  // the capture's size: once, the review shared the still's pixels
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        #expect(controller.wait(timeout: 20) { $0.picture != nil } != nil, "a review picture")
        controller.send(.use)
        let written = try #require(Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "save").lastSaved)
        let stamped = try Photo(jpeg: try TestFiles.bytes(written.path), options: LoadOptions(maxSize: 0))
        let original = try Photo(jpeg: try TestFiles.bytes(try #require(written.original)), options: LoadOptions(maxSize: 0))
        // Classic's box is bottom left: there the two differ a lot; at the top right they are the same picture.
        #expect(PixelCompare.meanDifference(stamped.bitmap, original.bitmap, x: 20..<200, y: 300..<350) > 15)
        #expect(PixelCompare.meanDifference(stamped.bitmap, original.bitmap, x: 450..<630, y: 10..<100) < 4)
    }

    @Test("what is reviewed is what is saved: the number and file name are decided at the shutter")
    func reviewIsSaved() throws {
        let folder = try TestFiles.temporaryFolder("review")
        var style = try #require(Self.styles.first { $0.id == "classic" })
        style.blocks[0].lines = [Template.Line(text: "{filename} #{seq}", font: Template.Font(size: 0.06))]
        let controller = try Self.controller(folder: folder, styles: [style], keepOriginal: true)
        defer { controller.close() }
        controller.previewSize = (640, 360)
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        let review = try #require(controller.wait(timeout: 20) { $0.picture != nil }?.picture)
        controller.send(.use)
        let written = try #require(Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "save").lastSaved)
        let saved = try Photo(jpeg: try TestFiles.bytes(written.path), options: LoadOptions(maxSize: 0))
        let text = (x: 10..<400, y: 280..<360)
        #expect(PixelCompare.meanDifference(review, saved.bitmap, x: text.x, y: text.y) < 4)
        // The comparison can fail: the same still stamped without the number and name differs there.
        let original = try Photo(jpeg: try TestFiles.bytes(try #require(written.original)), options: LoadOptions(maxSize: 0))
        var unnamed = Fields(user: "Ana")
        unnamed.time = Timestamp(iso8601: "2026-01-01T00:00:00Z")
        let wrong = try Watermarker(fontConfig: Self.fontConfig).stamped(original, template: style, fields: unnamed)
        #expect(PixelCompare.meanDifference(wrong.bitmap, saved.bitmap, x: text.x, y: text.y) > 8)
    }

    @Test("the share command runs off the viewfinder: live pictures come while it runs")
    func shareOffTheLoop() throws {
        let folder = try TestFiles.temporaryFolder("share")
        let gate = folder + "/gate", done = folder + "/done"
        // The share command waits for the test to open the gate, then says it is done.
        let exec = try ExecHook("sh -c 'while [ ! -e \(gate) ]; do sleep 0.01; done; touch \(done)'")
        let controller = try Self.controller(folder: folder + "/photos", keepOriginal: false, exec: exec)
        defer { controller.close() }
        controller.previewSize = (160, 90)
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        controller.send(.use)
        Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "save")
        // Two live pictures drawn after the save, while the share command still waits at the gate.
        let first = Self.picture(controller, after: controller.snapshot().picture, "live picture after the save")
        _ = Self.picture(controller, after: first, "a second live picture")
        #expect(!FileManager.default.fileExists(atPath: done), "the share command is still running")
        try TestFiles.write([], to: gate)
        controller.close()  // waits for the share command
        #expect(FileManager.default.fileExists(atPath: done))
    }

    @Test("send says whether an event meant something; a style chosen by index is the one saved")
    func chooseStyle() throws {
        let folder = try TestFiles.temporaryFolder("choose")
        let controller = try Self.controller(folder: folder)
        defer { controller.close() }
        controller.previewSize = (320, 180)
        #expect(!controller.send(.use), "nothing to use in the viewfinder")
        #expect(!controller.send(.retake))
        #expect(controller.send(.chooseStyle(2)))
        #expect(!controller.send(.chooseStyle(99)), "no such style")
        #expect(controller.snapshot().state.style == 2)
        #expect(controller.send(.shutter))
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        #expect(controller.send(.chooseStyle(3)))
        #expect(!controller.send(.setZoom(2)), "no zoom while reviewing")
        #expect(controller.send(.use))
        let saved = Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "save")
        let sidecar = try Self.sidecar(try #require(saved.lastSaved?.sidecar))
        #expect((sidecar["template"] as? [String: Any])?["id"] as? String == Self.styles[3].id)
        #expect(controller.saved.map(\.path) == [try #require(saved.lastSaved?.path)])
    }

    /// The first picture drawn after `old` (a new bitmap, not a snapshot that only carries it on).
    static func picture(_ controller: ShootController, after old: Bitmap?, _ what: String,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bitmap? {
        let next = controller.wait(timeout: 20) { snapshot in
            guard let picture = snapshot.picture else { return false }
            return old.map { !picture.sharesMemory(with: $0) } ?? true
        }
        #expect(next != nil, "no \(what)", sourceLocation: sourceLocation)
        return next?.picture
    }

    @Test("new field values reach the live picture at once, and the photo under review (its name stays)")
    func fieldsAtRunTime() throws {
        let folder = try TestFiles.temporaryFolder("fields")
        var style = try #require(Self.styles.first { $0.id == "classic" })
        style.blocks[0].lines = [Template.Line(text: "{note}", font: Template.Font(size: 0.08))]
        let controller = try Self.controller(folder: folder, styles: [style])
        defer { controller.close() }
        controller.previewSize = (640, 360)
        let box = (x: 10..<400, y: 300..<358)  // the stamp's corner, below the test pattern's moving square
        let empty = try #require(Self.picture(controller, after: nil, "live picture"))
        var policy = controller.fieldPolicy
        policy.given.note = "WWWWWWWWWW"
        controller.fieldPolicy = policy
        #expect(controller.snapshot().fields.given.note == "WWWWWWWWWW")
        // The picture being drawn may predate the change: the one after it does not.
        let maybe = try #require(Self.picture(controller, after: empty, "live picture"))
        let noted = try #require(Self.picture(controller, after: maybe, "live picture"))
        #expect(PixelCompare.meanDifference(empty, noted, x: box.x, y: box.y) > 3, "the note shows in the live stamp")

        // No live pictures while the photo is taken; the review is then drawn at a size of its own.
        controller.previewSize = nil
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        controller.previewSize = (639, 359)
        let reviewed = try #require(controller.wait(timeout: 20) { $0.picture?.width == 638 }?.picture, "review picture")
        policy.given.note = nil
        controller.fieldPolicy = policy
        // A redraw for the new size may still be on its way: wait for the one without the note.
        let restamped = controller.wait(timeout: 20) { snapshot in
            guard let picture = snapshot.picture, picture.width == 638 else { return false }
            return PixelCompare.meanDifference(reviewed, picture, x: box.x, y: box.y) > 3
        }
        #expect(restamped != nil, "the review is stamped again without the note")
        #expect(controller.snapshot().state.phase == .reviewing)
        controller.send(.use)
        let saved = Self.wait(controller, for: { if case .saved = $0 { true } else { false } }, "save")
        let sidecar = try Self.sidecar(try #require(saved.lastSaved?.sidecar))
        let fields = try #require(sidecar["fields"] as? [String: Any])
        #expect(fields["note"] == nil || fields["note"] is NSNull, "the saved photo has the values the review showed")
        #expect(fields["filename"] as? String == (try #require(saved.lastSaved?.path) as NSString).lastPathComponent)
    }

    @Test("a new preview size draws the photo under review again at that size (also the first one, after none)")
    func reviewResized() throws {
        let folder = try TestFiles.temporaryFolder("resize")
        let controller = try Self.controller(folder: folder)
        defer { controller.close() }
        controller.previewSize = (160, 90)
        _ = Self.picture(controller, after: nil, "live picture")
        controller.previewSize = nil  // a front end that shows nothing for a while (a browser page closed)
        controller.send(.shutter)
        Self.wait(controller, for: { $0 == .reviewing }, "review")
        controller.previewSize = (320, 180)
        let small = try #require(controller.wait(timeout: 20) { $0.picture?.width == 320 }?.picture, "the review, drawn once a size is known")
        controller.previewSize = (640, 360)
        // A second drawing at the old size may still arrive (the size came while one was queued).
        let large = controller.wait(timeout: 20) { $0.picture?.width == 640 }?.picture
        #expect(large != nil, "the review at the new size")
        #expect(large.map { !$0.sharesMemory(with: small) } == true)
        #expect(controller.snapshot().state.phase == .reviewing)
    }
}

/// The live fix in the camera core: the viewfinders hear about it, the saved photo carries it.
@Suite(.serialized) struct ShootControllerGPSTests {
    static func controller(folder: String, reading: FixReading) throws -> ShootController {
        var capture = CaptureSettings()
        capture.resolution = Resolution(width: 640, height: 360)
        capture.settle = .frames(1)
        var fields = FieldPolicy(given: Fields(user: "Ana"))
        fields.whereabouts = Whereabouts(mode: .auto, live: ScriptedFix(reading), rules: FixRules(), sites: WhereaboutsTests.sites)
        return try ShootController(settings: ShootController.Settings(
            devices: [Cameras.testDevice], capture: capture, styles: ShootControllerTests.styles, style: 0, fields: fields,
            folder: folder, nameTemplate: try TextTemplate("{site|location}-{seq:04}"), keepOriginal: false,
            writer: PhotoWriter.Settings(quality: 90, version: "test"), fontConfig: ShootControllerTests.fontConfig))
    }

    static func shoot(_ controller: ShootController) -> ShootController.Snapshot {
        controller.send(.shutter)
        ShootControllerTests.wait(controller, for: { $0 == .reviewing }, "review")
        controller.send(.use)
        return ShootControllerTests.wait(controller, for: { if case .saved = $0 { return true } else { return false } }, "saved")
    }

    @Test("a usable fix: the photo is named and stamped with its site, and its EXIF has the position and heading")
    func located() throws {
        let folder = try TestFiles.temporaryFolder("controller-gps")
        let controller = try Self.controller(folder: folder, reading: FixReading(fix: WhereaboutsTests.fix(), connected: true))
        defer { controller.close() }
        let saved = Self.shoot(controller)
        let path = try #require(saved.lastSaved?.path)
        #expect(path.hasSuffix("/Quay-0001.jpg"))
        let gps = try #require(try Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 64)).metadata.gps)
        #expect(abs(gps.latitude - 48.858) < 1e-6 && abs(gps.longitude - 2.294) < 1e-6 && gps.altitude == 35 && gps.heading == 45)
        #expect(controller.snapshot().notices.contains { $0.text == "GPS fix, ±8 m, 8 satellites" && !$0.isWarning })
    }

    @Test("a stale fix: the viewfinder warns, the photo says no GPS fix and carries no position")
    func stale() throws {
        let folder = try TestFiles.temporaryFolder("controller-gps-stale")
        let controller = try Self.controller(folder: folder, reading: FixReading(fix: WhereaboutsTests.fix(age: 30), connected: true))
        defer { controller.close() }
        controller.previewSize = (160, 90)
        // The fix's age grows while the test runs (30 s, 31 s … on a slow or sanitized build).
        let warned = controller.wait(timeout: 20) { snapshot in
            snapshot.notices.contains { $0.isWarning && $0.text.hasPrefix("no GPS fix: the last one is ") && $0.text.contains(" old (limit ") }
        }
        #expect(warned != nil, "the live viewfinder says the fix is stale")
        let saved = Self.shoot(controller)
        let path = try #require(saved.lastSaved?.path)
        #expect(path.hasSuffix("/no GPS fix-0001.jpg"))
        #expect(try Photo(jpeg: try TestFiles.bytes(path), options: LoadOptions(maxSize: 64)).metadata.gps == nil)
        #expect(controller.snapshot().notices.contains { $0.isWarning && $0.text.hasSuffix("the photo shows \"no GPS fix\" instead of a position") })
    }
}
