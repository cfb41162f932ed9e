import Foundation
import Testing
import TestSupport

/// Start-up loads only what a command needs: Cairo, Pango, fontconfig, the web and GPS libraries
/// (and their ~40 dependencies), libxml2, libcrypto, SQLite and libexif are opened on first use
/// (Sources/CLazyLibraries).
@Suite struct StartupTests {
    /// The shared libraries whose initialisers ran for `arguments`, by file name.
    static func loaded(_ arguments: String) throws -> Set<String> {
        let result = try CLI.shell("LD_DEBUG=libs \(CLI.quoted(CLI.binary)) \(arguments) 2>&1 >/dev/null")
        return Set(result.out.compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...].split(separator: "/").last ?? "")
        })
    }

    static let lazy = ["libcairo.so", "libpango-1.0.so", "libpangocairo", "libfontconfig.so", "libharfbuzz.so",
                       "libmicrohttpd.so", "libgnutls.so", "libqrencode.so", "libgps.so", "libxml2.so", "libicuuc.so", "libcrypto.so",
                       "libsqlite3.so", "libexif.so"]

    static func anyLazy(_ libraries: Set<String>) -> [String] {
        libraries.filter { library in lazy.contains { library.hasPrefix($0) } }.sorted()
    }

    @Test("--version, --help and log load none of the drawing, web, GPS, XML, SQLite or EXIF libraries")
    func nothingDrawnNothingLoaded() throws {
        for arguments in ["--version", "--help", "log --catalog /nonexistent/none.db"] {
            let libraries = try Self.loaded(arguments)
            #expect(!libraries.isEmpty, "LD_DEBUG printed nothing for \(arguments)")
            #expect(Self.anyLazy(libraries).isEmpty, "\(arguments) loaded \(Self.anyLazy(libraries))")
        }
    }

    @Test("stamping a photo opens Cairo, Pango, fontconfig, libxml2 (its XMP), libexif, SQLite (the catalog) and libcrypto (its digest), and still not the web or GPS libraries")
    func stampingLoadsDrawing() throws {
        let folder = try TestFiles.temporaryFolder("startup")
        let photo = try Fixtures.site.write(to: folder + "/in")
        let libraries = try Self.loaded("apply --catalog \(CLI.quoted(folder + "/catalog.sqlite")) \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        let opened = Self.anyLazy(libraries)
        for needed in ["libcairo.so", "libpango-1.0.so", "libfontconfig.so", "libxml2.so", "libexif.so", "libsqlite3.so", "libcrypto.so"] {
            #expect(opened.contains { $0.hasPrefix(needed) }, "\(needed) not among \(opened)")
        }
        #expect(!opened.contains { $0.hasPrefix("libmicrohttpd") || $0.hasPrefix("libgps") }, "\(opened)")
    }

    @Test("--gps auto with nothing listening at gpsd's address loads no GPS library; --gps require says so")
    func noGPSDNoLibrary() throws {
        let folder = try TestFiles.temporaryFolder("startup-gps")
        let shoot = "shoot --yes --device test --resolution 640x360 --no-catalog --gpsd 127.0.0.1:1 -o \(CLI.quoted(folder))"
        let libraries = try Self.loaded(shoot)
        #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "the photo was not stamped: \(libraries.sorted())")
        #expect(!libraries.contains { $0.hasPrefix("libgps") }, "\(Self.anyLazy(libraries))")
        let required = try CLI.shell("\(CLI.quoted(CLI.binary)) \(shoot) --gps require")
        #expect(required.code == 69)
        #expect(required.err.contains { $0.contains("gpsd does not answer at 127.0.0.1:1: connection refused") }, "\(required.err)")
    }

    @Test("a library that cannot be opened: apply says which in one line and exits 69 with nothing written; doctor names it",
          arguments: ["libcairo.so.2", "libexif.so.12"])
    func brokenLibrary(soname: String) throws {
        let folder = try TestFiles.temporaryFolder("brokenlib")
        // Found first on the library path, and not a library: as a half-removed package would leave it.
        try TestFiles.write(Array("not a library".utf8), to: folder + "/lib/" + soname, creatingFolders: true)
        let photo = try Fixtures.site.write(to: folder + "/in")
        let environment = "LD_LIBRARY_PATH=\(CLI.quoted(folder + "/lib"))"
        let apply = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) apply --no-catalog \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        #expect(apply.code == 69)
        #expect(apply.err.count == 1 && apply.err[0].contains("cannot be loaded") && apply.err[0].contains(soname), "\(apply.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        let doctor = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) doctor")
        #expect(doctor.code == 69)
        #expect(doctor.out.contains { $0.hasPrefix("PROBLEM  libraries") && $0.contains(soname) }, "\(doctor.out)")
        #expect(try CLI.shell("\(CLI.quoted(CLI.binary)) doctor").out.contains { $0.hasPrefix("ok       libraries") })
    }

    @Test("a libcrypto that cannot be opened costs nothing: the photo saved and logged, its digest GLib's, no warning")
    func brokenCrypto() throws {
        let folder = try TestFiles.temporaryFolder("brokencrypto")
        try TestFiles.write(Array("not a library".utf8), to: folder + "/lib/libcrypto.so.3", creatingFolders: true)
        let photo = try Fixtures.site.write(to: folder + "/in")
        let catalog = folder + "/catalog.sqlite"
        let apply = try CLI.shell("LD_LIBRARY_PATH=\(CLI.quoted(folder + "/lib")) \(CLI.quoted(CLI.binary)) apply -q "
            + "--catalog \(CLI.quoted(catalog)) \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        #expect(apply.code == 0 && apply.err.isEmpty, "\(apply.err)")
        let saved = try Data(contentsOf: URL(fileURLWithPath: folder + "/out/site.jpg"))
        let logged = try CLI.shell("python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select sha256 from photos\").fetchone()[0])' \(CLI.quoted(catalog))")
        let expected = try CLI.shell("sha256sum \(CLI.quoted(folder + "/out/site.jpg"))").out.first?.prefix(64)
        #expect(!saved.isEmpty && logged.out.first.map { Substring($0) } == expected, "\(logged.out) \(logged.err)")
    }

    @Test("an SQLite that cannot be opened costs the catalog, not the photo: saved, with one warning saying why")
    func brokenSQLite() throws {
        let folder = try TestFiles.temporaryFolder("brokensqlite")
        try TestFiles.write(Array("not a library".utf8), to: folder + "/lib/libsqlite3.so.0", creatingFolders: true)
        let photo = try Fixtures.site.write(to: folder + "/in")
        let apply = try CLI.shell("LD_LIBRARY_PATH=\(CLI.quoted(folder + "/lib")) \(CLI.quoted(CLI.binary)) apply "
            + "--catalog \(CLI.quoted(folder + "/catalog.sqlite")) \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        #expect(apply.code == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "/out/site.jpg"))
        #expect(apply.err.contains { $0.contains("not logged in the catalog") && $0.contains("libsqlite3.so.0") }, "\(apply.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/catalog.sqlite"))
    }
}
