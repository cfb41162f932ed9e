// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: StampCLI → StampWeb → Session → {Capture, Watermark, Library, Location, Catalog} → {Imaging, Templates} → Platform.
// C libraries come from Debian's -dev packages (see `make deps`), linked through pkg-config; no outside
// Swift packages. Three optional features whose libraries are heavy open them when first used, each
// with one small table: HEIF (CHeif), the web server (CWeb) and live GPS (CGPS).

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
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // Opened with dlopen when first needed (see their headers).
        .target(name: "CHeif"),
        .target(name: "CWeb"),
        .target(name: "CGPS"),
        // Loops that must vectorise; optimised in debug builds too, like Imaging.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        .target(name: "Platform", dependencies: ["CGLib"]),
        // Optimised in debug builds too: unoptimised, its pixel loops (turning upright, the resampler's
        // taps) run many times slower and every test that loads a photo would wait on them.
        .target(name: "Imaging", dependencies: ["Platform", "CJPEG", "CExif", "CCairo", "CXML2", "CHeif", "CPixels", "CGLib"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "Templates"),
        .target(name: "Watermark", dependencies: ["Platform", "Imaging", "Templates", "CCairo", "CPango", "CFontconfig"]),
        .target(name: "Library", dependencies: ["Platform", "Templates", "CGLib", "CCrypto"]),
        .target(name: "Capture", dependencies: ["Platform", "CV4L2", "Imaging", "Templates"]),
        .target(name: "Location", dependencies: ["Platform", "Templates", "CGPS"]),
        .target(name: "Catalog", dependencies: ["Platform", "Templates", "CSQLite", "CXML2"]),
        .target(name: "Session", dependencies: ["Platform", "Imaging", "Templates", "Watermark", "Library", "Capture", "Location", "Catalog"]),
        .target(name: "StampWeb", dependencies: ["Platform", "Imaging", "Templates", "Library", "Capture", "Session", "CWeb"],
                resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"),
                            .embedInCode("Assets/app.css"), .embedInCode("Assets/icon.svg")]),
        .target(name: "StampCLI", dependencies: ["Platform", "Imaging", "Templates", "Watermark", "Library", "Capture", "Session",
                                                 "Location", "StampWeb", "Catalog"]),
        .executableTarget(name: "stampcam", dependencies: ["StampCLI"], exclude: ["packaging"]),

        .target(name: "TestSupport", dependencies: ["Imaging"], path: "Tests/TestSupport"),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CPixels", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TemplatesTests", dependencies: ["Templates"]),
        .testTarget(name: "WatermarkTests", dependencies: ["Watermark", "Imaging", "Templates", "TestSupport"],
                    exclude: ["Goldens"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Platform", "Templates", "TestSupport"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Imaging", "Platform", "TestSupport"]),
        .testTarget(name: "SessionTests", dependencies: ["Session", "Capture", "Imaging", "Library", "Location", "Platform", "Templates", "Watermark", "TestSupport",
                                                        "Catalog"]),
        .testTarget(name: "StampCLITests", dependencies: ["StampCLI", "Imaging", "Platform", "TestSupport", "Catalog", "Templates"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "LocationTests", dependencies: ["Location", "Platform", "Templates", "TestSupport"]),
        .testTarget(name: "StampWebTests", dependencies: ["StampWeb", "Session", "Capture", "Templates", "Platform", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Platform", "Templates", "TestSupport"]),
    ]
)
