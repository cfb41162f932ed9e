// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: StampCLI → StampWeb → Session → {Capture, Watermark, Library, Location, Catalog, Provenance} → {Imaging, Templates} → Values → Platform.
// C libraries come from Debian's -dev packages (see `make deps`), linked through pkg-config; no outside
// Swift packages. Four optional features whose libraries are heavy open them when first used, each
// with one small table: HEIF (CHeif), the web server (CWeb), live GPS (CGPS) and grid references (CProj).

let package = Package(
    name: "stampcam",
    products: [
        .executable(name: "stampcam", targets: ["stampcam"]),
    ],
    targets: [
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "pangoft2", providers: [.apt(["libpango1.0-dev", "libfontconfig-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CCbor", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),  // Debian's libpng-dev
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // Opened with dlopen when first needed (see their headers).
        .target(name: "CHeif"),
        .target(name: "CWeb"),
        .target(name: "CGPS"),
        .target(name: "CProj"),
        // Loops that must vectorise; optimised in debug builds too, like Imaging.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        .target(name: "CPlatform"),  // glibc calls Swift cannot see (sched_getaffinity, pipe2)

        .target(name: "Platform", dependencies: ["CGLib", "CPlatform"]),
        .target(name: "Values", dependencies: ["Platform"]),  // SHA-256 for the verification code
        // Optimised in debug builds too: unoptimised, its pixel loops (turning upright, the resampler's
        // taps) run many times slower and every test that loads a photo would wait on them.
        .target(name: "Imaging", dependencies: ["Platform", "Values", "CJPEG", "CPNG", "CExif", "CCairo", "CXML2", "CHeif", "CPixels", "CGLib"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "Templates", dependencies: ["Platform", "Values"]),
        .target(name: "Watermark", dependencies: ["Platform", "Values", "Imaging", "Templates", "CCairo", "CPango", "CFontconfig", "CQRencode"]),
        .target(name: "Library", dependencies: ["Platform", "Values", "Templates", "CGLib", "CCrypto"]),
        .target(name: "Capture", dependencies: ["Platform", "Values", "CV4L2", "Imaging"]),
        .target(name: "Location", dependencies: ["Platform", "Values", "CGPS", "CProj"]),
        .target(name: "Catalog", dependencies: ["Platform", "Values", "CSQLite", "CXML2", "CZip", "CCrypto"]),
        .target(name: "Provenance", dependencies: ["Platform", "Values", "CCrypto", "CCbor"]),
        .target(name: "Session", dependencies: ["Platform", "Values", "Imaging", "Templates", "Watermark", "Library", "Capture", "Location", "Catalog", "Provenance"]),
        .target(name: "StampWeb", dependencies: ["Platform", "Values", "Imaging", "Templates", "Watermark", "Library", "Capture", "Session", "Catalog",
                                                 "Provenance", "CWeb"],
                resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"),
                            .embedInCode("Assets/app.css"), .embedInCode("Assets/icon.svg"),
                            .embedInCode("Assets/manifest.webmanifest"), .embedInCode("Assets/sw.js"),
                            .embedInCode("Assets/verify.html"), .embedInCode("Assets/verify.js"), .embedInCode("Assets/verify.css"),
                            .embedInCode("Assets/phone.html"), .embedInCode("Assets/phone.js"), .embedInCode("Assets/phone.css"),
                            .embedInCode("Assets/ca.html"), .embedInCode("Assets/page.js"),
                            .embedInCode("Assets/lead.html"), .embedInCode("Assets/lead.js"), .embedInCode("Assets/lead.css")]),
        .target(name: "StampCLI", dependencies: ["Platform", "Values", "Imaging", "Templates", "Watermark", "Library", "Capture", "Session",
                                                 "Location", "StampWeb", "Catalog", "Provenance"]),
        .executableTarget(name: "stampcam", dependencies: ["StampCLI"], exclude: ["packaging"]),

        .target(name: "TestSupport", dependencies: ["Imaging"], path: "Tests/TestSupport"),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CPixels", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "ValuesTests", dependencies: ["Values"]),
        .testTarget(name: "TemplatesTests", dependencies: ["Templates", "Values"]),
        .testTarget(name: "WatermarkTests", dependencies: ["Watermark", "Imaging", "Templates", "Values", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Platform", "Templates", "Values", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Imaging", "Platform", "Values", "TestSupport"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Capture", "Imaging", "Library", "Location", "Platform", "Templates", "Values", "Watermark", "TestSupport",
                                                        "Catalog", "Provenance"]),
        .testTarget(name: "StampCLITests", dependencies: ["StampCLI", "Imaging", "Platform", "TestSupport", "Catalog", "Templates", "Values"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "LocationTests", dependencies: ["Location", "Platform", "Values", "TestSupport"]),
        .testTarget(name: "StampWebTests", dependencies: ["StampWeb", "Session", "Capture", "Imaging", "Library", "Templates", "Values", "Watermark", "Platform", "TestSupport",
                                                         "Provenance", "Location", "Catalog"]),
        .testTarget(name: "ProvenanceTests", dependencies: ["Provenance", "Platform", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Platform", "Values", "TestSupport"]),
    ]
)

// The fuzz targets (Tests/Fuzz), one a parser of hostile input, exist only for `make fuzz`, which
// sets STAMPCAM_FUZZ and builds them with libFuzzer (`--sanitize=fuzzer`), whose `main` they use.
// The package is then the libraries they need and them, so one `swift build` builds them all.
if Context.environment["STAMPCAM_FUZZ"] != nil {
    package.products = []
    package.targets.removeAll { $0.type == .executable || $0.type == .test || ["StampCLI", "TestSupport"].contains($0.name) }
    package.targets += [
        .executableTarget(name: "FuzzJSON", dependencies: ["Values"], path: "Tests/Fuzz/FuzzJSON"),
        .executableTarget(name: "FuzzExif", dependencies: ["Imaging"], path: "Tests/Fuzz/FuzzExif"),
        .executableTarget(name: "FuzzJUMBF", dependencies: ["Provenance"], path: "Tests/Fuzz/FuzzJUMBF"),
        .executableTarget(name: "FuzzCBOR", dependencies: ["Provenance"], path: "Tests/Fuzz/FuzzCBOR"),
        .executableTarget(name: "FuzzC2PA", dependencies: ["Provenance"], path: "Tests/Fuzz/FuzzC2PA"),
        .executableTarget(name: "FuzzPlaces", dependencies: ["Location"], path: "Tests/Fuzz/FuzzPlaces"),
        .executableTarget(name: "FuzzGeoJSON", dependencies: ["Location"], path: "Tests/Fuzz/FuzzGeoJSON"),
        .executableTarget(name: "FuzzUpload", dependencies: ["StampWeb", "Platform"], path: "Tests/Fuzz/FuzzUpload"),
    ]
}
