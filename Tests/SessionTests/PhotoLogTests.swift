import Catalog
import Foundation
import Imaging
import Library
import Platform
import Session
import Templates
import Testing
import TestSupport
import Watermark

/// The one place a written photo is logged: `PhotoWriter`, after the photo (and its original) are
/// on disk, through whatever `PhotoLog` it is given.
@Suite struct PhotoLogTests {
    /// Keeps what it is given; says `problem` for each.
    final class Recorder: PhotoLog, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [(entry: CatalogEntry, onDisk: Bool)] = []
        let problem: String?

        init(problem: String? = nil) { self.problem = problem }

        func record(_ entry: CatalogEntry) -> String? {
            let onDisk = FileManager.default.fileExists(atPath: entry.path)
            lock.lock()
            stored.append((entry, onDisk))
            lock.unlock()
            return problem
        }

        var entries: [(entry: CatalogEntry, onDisk: Bool)] { lock.lock(); defer { lock.unlock() }; return stored }
    }

    static func write(log: PhotoLogging, original: Bool) throws -> (WrittenPhoto, String) {
        let folder = try TestFiles.temporaryFolder("photolog")
        var settings = PhotoWriter.Settings(version: "0.2.0", clock: { StampRecordTests.stampTime })
        settings.log = log
        let writer = PhotoWriter(watermarker: try Watermarker(fontConfig: ShootControllerTests.fontConfig), settings: settings)
        guard case .claimed(let claim) = try NameClaim.claim("site.jpg", in: folder, existing: .number) else {
            throw FileError.cannotCreate(path: folder, reason: "no claim")
        }
        let photo = try Photo(jpeg: try Fixtures.site.jpeg(), options: LoadOptions(maxSize: 320))
        let kept = original ? PhotoWriter.Original(jpeg: try Fixtures.site.jpeg(), capture: "test") : nil
        let written = try writer.write(photo, style: StampRecordTests.style, fields: StampRecordTests.fields, to: claim,
                                       original: kept, source: "relative/in.jpg")
        return (written, folder)
    }

    @Test("each written photo is logged once, after it is on disk: absolute path, size and SHA-256 of its bytes, its original, fields, style, source")
    func logged() throws {
        let recorder = Recorder()
        let (written, _) = try Self.write(log: PhotoLogging(log: recorder, command: .apply), original: true)
        #expect(written.warnings.isEmpty)
        let logged = try #require(recorder.entries.first)
        #expect(recorder.entries.count == 1 && logged.onDisk)
        let entry = logged.entry
        let bytes = try TestFiles.bytes(written.path)
        #expect(entry.path == written.path && entry.path.hasPrefix("/"))
        #expect(entry.size == bytes.count && entry.sha256 == FileDigest.sha256(bytes))
        let original = try Fixtures.site.jpeg()
        #expect(entry.originalPath == written.original && entry.originalSHA256 == FileDigest.sha256(original))
        #expect(entry.command == .apply && entry.source == (FileSystem.workingFolder ?? "") + "/relative/in.jpg")
        #expect(entry.project == StampRecordTests.fields.project && entry.time == StampRecordTests.fields.time)
        #expect(entry.extra == StampRecordTests.fields.extra && entry.style == "classic")
        #expect(entry.stampedAt == StampRecordTests.stampTime)
    }

    @Test("a log that fails is a warning with the saved photo, never an error")
    func failingLog() throws {
        let recorder = Recorder(problem: "not logged in the catalog: disk full")
        let (written, folder) = try Self.write(log: PhotoLogging(log: recorder, command: .shoot), original: false)
        #expect(written.warnings == ["not logged in the catalog: disk full"])
        #expect(TestFiles.files(in: folder) == ["site.jpg"])
    }

    @Test("CatalogLog tells each problem once and counts the photos it could not log")
    func catalogLogTellsOnce() throws {
        let folder = try TestFiles.temporaryFolder("catalog-log")
        try TestFiles.write([1], to: folder + "/file")
        let log = CatalogLog(path: folder + "/file/catalog.sqlite", host: "h")
        let entry = CatalogEntry(path: "/a.jpg", size: 1, sha256: String(repeating: "0", count: 64), command: .apply)
        #expect(log.record(entry)?.hasPrefix("not logged in the catalog: ") == true)
        #expect(log.record(entry) == nil)
        #expect(log.missed == 2)
        let good = CatalogLog(path: folder + "/catalog.sqlite", host: "h")
        #expect(good.record(entry) == nil && good.missed == 0)
        #expect(try Catalog(reading: folder + "/catalog.sqlite").entries().entries.first?.host == "h")
    }

    @Test("opening ahead makes no catalog that is not there; an existing one is opened and then logged into")
    func openAhead() throws {
        let folder = try TestFiles.temporaryFolder("catalog-open")
        let path = folder + "/catalog.sqlite"
        CatalogLog(path: path, host: "h").open()
        #expect(TestFiles.files(in: folder).isEmpty)
        let entry = CatalogEntry(path: "/a.jpg", size: 1, sha256: String(repeating: "0", count: 64), command: .apply)
        #expect(CatalogLog(path: path, host: "h").record(entry) == nil)
        let log = CatalogLog(path: path, host: "h")
        log.open()
        var second = entry
        second.path = "/b.jpg"
        #expect(log.record(second) == nil && log.missed == 0)
        #expect(try Catalog(reading: path).entries().entries.count == 2)
    }
}
