import Foundation
import Testing
import TestSupport

/// The optional features (HEIC, the web server, live GPS, grid references) open their libraries when first used;
/// everything else is linked normally. A missing optional library costs that feature only.
@Suite struct StartupTests {
    /// The shared libraries whose initialisers ran for `arguments`, by file name.
    static func loaded(_ arguments: String, environment: String = "") throws -> Set<String> {
        let result = try CLI.shell("\(environment) LD_DEBUG=libs \(CLI.quoted(CLI.binary)) \(arguments) 2>&1 >/dev/null")
        return Set(result.out.compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...].split(separator: "/").last ?? "")
        })
    }

    // libqrencode is not among them: it is linked (a stamp's QR block).
    static let optional = ["libheif.so", "libmicrohttpd.so", "libgnutls.so", "libgps.so", "libproj.so"]

    static func anyOptional(_ libraries: Set<String>) -> [String] {
        libraries.filter { library in optional.contains { library.hasPrefix($0) } }.sorted()
    }

    @Test("--version, log and stamping a JPEG load none of the optional features' libraries; linked ones are loaded")
    func optionalLibrariesNotLoaded() throws {
        let folder = try TestFiles.temporaryFolder("startup")
        let photo = try Fixtures.site.write(to: folder + "/in")
        for arguments in ["--version", "log --catalog /nonexistent/none.db",
                          "apply --catalog \(CLI.quoted(folder + "/catalog.sqlite")) \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))"] {
            let libraries = try Self.loaded(arguments)
            #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "LD_DEBUG saw no Cairo for \(arguments): \(libraries.sorted())")
            #expect(Self.anyOptional(libraries).isEmpty, "\(arguments) loaded \(Self.anyOptional(libraries))")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/out/site.jpg"))
    }

    @Test("a grid reference opens PROJ only when shown: --name {mgrs:2} gets GeoConvert's square and kilometre")
    func gridOpensProj() throws {
        let folder = try TestFiles.temporaryFolder("startup-grid")
        let photo = try Fixtures.site.write(to: folder + "/in")
        let libraries = try Self.loaded("apply --no-catalog --name '{mgrs:2}' \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        #expect(libraries.contains { $0.hasPrefix("libproj.so") }, "\(libraries.sorted())")
        #expect(TestFiles.files(in: folder + "/out") == ["32TQP 33 16.jpg"])
    }

    @Test("--gps auto with nothing listening at gpsd's address loads no GPS library; --gps require says so")
    func noGPSDNoLibrary() throws {
        let folder = try TestFiles.temporaryFolder("startup-gps")
        let shoot = "shoot --yes --device test --resolution 640x360 --no-catalog --gpsd 127.0.0.1:1 -o \(CLI.quoted(folder))"
        let libraries = try Self.loaded(shoot)
        #expect(libraries.contains { $0.hasPrefix("libcairo.so") }, "the photo was not stamped: \(libraries.sorted())")
        #expect(!libraries.contains { $0.hasPrefix("libgps") }, "\(Self.anyOptional(libraries))")
        let required = try CLI.shell("\(CLI.quoted(CLI.binary)) \(shoot) --gps require")
        #expect(required.code == 69)
        #expect(required.err.contains { $0.contains("gpsd does not answer at 127.0.0.1:1: connection refused") }, "\(required.err)")
    }

    /// A folder with `sonames` that are not libraries, first on the library path: as a half-removed
    /// package would leave them. The environment assignment that puts it there.
    static func brokenLibraries(_ sonames: [String], in folder: String) throws -> String {
        for soname in sonames { try TestFiles.write(Array("not a library".utf8), to: folder + "/lib/" + soname, creatingFolders: true) }
        return "LD_LIBRARY_PATH=\(CLI.quoted(folder + "/lib"))"
    }

    @Test("without the web libraries: serve says which package in one line and exits 69; apply works; doctor warns")
    func missingWebLibraries() throws {
        let folder = try TestFiles.temporaryFolder("noweb")
        let environment = try Self.brokenLibraries(["libmicrohttpd.so.12"], in: folder)
        let serve = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) serve --device test --no-catalog --listen 127.0.0.1:0 -o \(CLI.quoted(folder + "/shots"))")
        #expect(serve.code == 69)
        #expect(serve.err.count == 1 && serve.err[0].contains("serve needs libmicrohttpd12")
            && serve.err[0].contains("sudo apt-get install libmicrohttpd12"), "\(serve.err)")
        let photo = try Fixtures.site.write(to: folder + "/in")
        let apply = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) apply --no-catalog \(CLI.quoted(photo)) -o \(CLI.quoted(folder + "/out"))")
        #expect(apply.code == 0 && FileManager.default.fileExists(atPath: folder + "/out/site.jpg"), "\(apply.err)")
        let doctor = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) doctor")
        #expect(doctor.out.contains { $0.hasPrefix("warning  serve") && $0.contains("libmicrohttpd12") }, "\(doctor.out)")
        #expect(try CLI.shell("\(CLI.quoted(CLI.binary)) doctor").out.contains { $0.hasPrefix("ok       serve") })
    }

    @Test("without libheif: a HEIC fails in one line naming the package, the JPEG beside it is stamped")
    func missingHEIF() throws {
        let folder = try TestFiles.temporaryFolder("noheif")
        let environment = try Self.brokenLibraries(["libheif.so.1"], in: folder)
        try TestFiles.write(try InputFormatTests.heic(), to: folder + "/in/IMG_0001.HEIC", creatingFolders: true)
        _ = try Fixtures.site.write(to: folder + "/in")
        let apply = try CLI.shell("\(environment) \(CLI.quoted(CLI.binary)) apply -q --no-catalog \(CLI.quoted(folder + "/in")) -o \(CLI.quoted(folder + "/out"))")
        #expect(apply.code == 69)
        #expect(TestFiles.files(in: folder + "/out") == ["site.jpg"])
        let line = try #require(apply.err.first { $0.contains("IMG_0001.HEIC") }, "\(apply.err)")
        #expect(line.contains("reading HEIC photos needs libheif1") && line.contains("sudo apt-get install libheif1"), "\(line)")
    }
}
