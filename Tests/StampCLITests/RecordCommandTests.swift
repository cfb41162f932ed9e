import Foundation
import Imaging
import Testing
import TestSupport

/// The stamp as a record, end to end through the command line: the fields in EXIF and XMP,
/// `restamp` from a kept original, and photos stampcam stamped refused by `apply`.
@Suite struct RecordCommandTests {
    /// A shot with its kept original and sidecar, taken with the test pattern.
    static func shot(_ folder: String, extra: [String] = []) throws -> String {
        let result = CLI.run(["shoot", "--yes", "--device", "test", "--resolution", "640x360", "--keep-original", "-o", folder,
                              "--user", "Li Wei", "--project", "Bridge 7", "--note", "north <wall>", "--location", "Pier 4",
                              "--gps", "48.8584,2.2945", "--set", "crew=B"] + extra)
        #expect(result.code == 0, "\(result.err)")
        return try #require(result.out.last)
    }

    /// The stampcam: properties exiftool reads from a photo, by name.
    static func record(_ path: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        for (tag, value) in try ExifTool.tags(path) where tag.hasPrefix("XMP-stampcam:") {
            fields[String(tag.dropFirst("XMP-stampcam:".count))] = value
        }
        return fields
    }

    @Test("shoot writes the fields into EXIF and XMP; restamp makes the other style from the kept original with identical fields")
    func restamp() throws {
        let folder = try TestFiles.temporaryFolder("restamp")
        let photo = try Self.shot(folder)
        let before = try TestFiles.bytes(photo)
        let original = try TestFiles.bytes(photo.replacingOccurrences(of: ".jpg", with: ".original.jpg"))
        let tags = try ExifTool.tags(photo)
        #expect(tags["IFD0:Artist"] == "Li Wei" && tags["IFD0:ImageDescription"] == "north <wall>")
        #expect(tags["XMP-dc:Creator"] == #"["Li Wei"]"# && tags["XMP-dc:Title"] == "Bridge 7" && tags["XMP-iptcCore:Location"] == "Pier 4")
        #expect(tags["XMP-xmp:CreatorTool"]?.hasPrefix("stampcam ") == true)
        #expect(tags["Composite:GPSLatitude"].flatMap(Double.init).map { abs($0 - 48.8584) < 1e-6 } == true)
        let first = try Self.record(photo)
        #expect(first["Style"] == "classic" && first["TimeSource"] == "camera clock")

        let result = CLI.run(["restamp", photo, "-t", "banner"])
        #expect(result.code == 0, "\(result.err)")
        let again = try #require(result.out.first)
        #expect(again == photo.replacingOccurrences(of: ".jpg", with: "-banner.jpg"))
        let second = try Self.record(again)
        #expect(second["Style"] == "banner")
        // Every field the same, but the style, the file's own name and when it was stamped; and the
        // picture's hash (shoot hashed the frame, restamp the kept original, the frame as a JPEG)
        // with the code derived from it.
        let changing: Set<String> = ["Style", "StyleName", "StyleVersion", "Stamped", "Filename", "PixelsSHA256", "Code"]
        #expect(first.filter { !changing.contains($0.key) } == second.filter { !changing.contains($0.key) })
        #expect(second["Filename"] == PhotoNameForTest.last(again))
        // Drawn from the original, not over the old stamp; nothing else touched.
        #expect(try TestFiles.bytes(photo) == before)
        #expect(try TestFiles.bytes(photo.replacingOccurrences(of: ".jpg", with: ".original.jpg")) == original)
        let stamped = try Photo(jpeg: try TestFiles.bytes(again), options: LoadOptions(maxSize: 0))
        #expect(stamped.width == 640 && stamped.height == 360)
        #expect(FileManager.default.fileExists(atPath: again.replacingOccurrences(of: ".jpg", with: ".json")))
        // At the original's own size it is stamped in place: above the banner, the original's pixels exactly.
        #expect(!result.err.joined().contains("note"), "\(result.err)")
        let unstamped = try Photo(jpeg: original, options: LoadOptions(maxSize: 0)).bitmap
        #expect((0..<200).allSatisfy { y in (0..<640).allSatisfy { unstamped.rgb(x: $0, y: y) == stamped.bitmap.rgb(x: $0, y: y) } })
    }

    @Test("shoot --time: the photo keeps the clock's EXIF time; the stamp shows the given time marked, recorded as TimeSource given")
    func shootWithGivenTime() throws {
        let folder = try TestFiles.temporaryFolder("given-time")
        let catalog = folder + "/catalog.sqlite"
        let photo = try Self.shot(folder, extra: ["--time", "2020-01-01T08:00:00+08:00", "--catalog", catalog])
        let tags = try ExifTool.tags(photo)
        let taken = try #require(tags["ExifIFD:DateTimeOriginal"])
        #expect(!taken.hasPrefix("2020:01:01"), "\(taken)")
        let record = try Self.record(photo)
        #expect(record["TimeSource"] == "given" && record["Time"] == "2020:01:01 08:00:00+08:00", "\(record)")
        let row = try #require(try CatalogCommandTests.rows(catalog).first)
        #expect(row.timeSource == "given" && row.time?.iso8601 == "2020-01-01T08:00:00+08:00")
    }

    @Test("restamp: given values win; -o DIR gets its own copy of the original; --overwrite replaces the photo, never the original")
    func restampOptions() throws {
        let folder = try TestFiles.temporaryFolder("restamp-options")
        let photo = try Self.shot(folder)
        let elsewhere = try TestFiles.temporaryFolder("restamp-elsewhere")
        let moved = CLI.run(["restamp", photo, "-t", "minimal", "--project", "Bridge 8", "-o", elsewhere])
        #expect(moved.code == 0, "\(moved.err)")
        let copy = try #require(moved.out.first)
        #expect(copy == elsewhere + "/" + PhotoNameForTest.last(photo))
        let record = try Self.record(copy)
        #expect(record["Project"] == "Bridge 8" && record["User"] == "Li Wei")
        // Its own original beside it: it can be stamped again from there.
        #expect(CLI.run(["restamp", copy, "-t", "classic"]).code == 0)

        let originalPath = photo.replacingOccurrences(of: ".jpg", with: ".original.jpg")
        let original = try TestFiles.bytes(originalPath)
        let replaced = CLI.run(["restamp", photo, "-t", "banner", "--overwrite"])
        #expect(replaced.code == 0 && replaced.out == [photo], "\(replaced.err)")
        #expect(try Self.record(photo)["Style"] == "banner")
        #expect(try TestFiles.bytes(originalPath) == original)
    }

    @Test("restamp refuses a changed original, a photo without a record, and a record pointing outside its folder")
    func restampRefusals() throws {
        let folder = try TestFiles.temporaryFolder("restamp-refusals")
        let photo = try Self.shot(folder)
        let originalPath = photo.replacingOccurrences(of: ".jpg", with: ".original.jpg")
        var original = try TestFiles.bytes(originalPath)
        original[original.count / 2] ^= 0xFF
        try TestFiles.write(original, to: originalPath)
        let changed = CLI.run(["restamp", photo, "-t", "banner"])
        #expect(changed.code == 65)
        #expect(changed.err.first?.contains("has changed since the photo was stamped") == true, "\(changed.err)")

        let plain = try Fixtures.site.write(to: folder)
        let none = CLI.run(["restamp", plain, "-t", "banner"])
        #expect(none.code == 65 && none.err.first?.contains("no stampcam record") == true, "\(none.err)")
        #expect(TestFiles.files(in: folder).filter { $0.contains("-banner") }.isEmpty)

        #expect(CLI.run(["restamp", photo]).code == 64)  // -t is required
    }

    @Test("apply refuses photos stampcam stamped: one line each, exit 65, the rest done; --stamp-again stamps them")
    func alreadyStamped() throws {
        let first = try TestFiles.temporaryFolder("stamped-once")
        let site = try Fixtures.site.write(to: try TestFiles.temporaryFolder("inputs"))
        #expect(CLI.run(["apply", site, "-o", first, "-t", "banner", "--quiet"]).code == 0)
        let stamped = first + "/site.jpg"
        let fresh = try Fixtures.southWest.write(to: try TestFiles.temporaryFolder("fresh"))
        let second = try TestFiles.temporaryFolder("stamped-twice")
        let result = CLI.run(["apply", stamped, fresh, "-o", second])
        #expect(result.code == 65)
        let today = FieldPolicyDay.today
        // apply keeps no original, so restamp could not make this one again: not advised.
        #expect(result.err.contains("stampcam: \(stamped): already stamped in style banner on \(today); "
                                    + "its original was not kept, so restamp cannot make it again; --stamp-again draws over the stamp"),
                "\(result.err)")
        #expect(TestFiles.files(in: second) == ["south-west.jpg"])
        let forced = CLI.run(["apply", stamped, "-o", second, "--stamp-again", "--quiet"])
        #expect(forced.code == 0 && TestFiles.files(in: second).contains("site.jpg"))

        // A photo with its original kept beside it: restamp is advised, and does work.
        let shot = try Self.shot(try TestFiles.temporaryFolder("stamped-kept"))
        let again = CLI.run(["apply", shot, "-o", try TestFiles.temporaryFolder("stamped-kept-out")])
        #expect(again.code == 65)
        #expect(again.err.first?.hasSuffix("; use restamp, or --stamp-again to draw over it") == true, "\(again.err)")
        #expect(CLI.run(["restamp", shot, "-t", "classic"]).code == 0)
    }
}

enum PhotoNameForTest {
    static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}

enum FieldPolicyDay {
    /// Today in the local zone, as the stamp's record writes it.
    static var today: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone.current
        return formatter.string(from: Date())
    }
}
