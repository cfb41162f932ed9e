// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: StampCLI → StampWeb → Session → {Capture, Watermark, Library, Location, Catalog} → {Imaging, Templates} → Platform.
// C libraries come from Debian's -dev packages (see `make deps`); no outside Swift packages.
// Where the headers of the libraries opened at run time are (pkg-config would also link them, and
// every command would pay for loading them at start). GLib's come from CGLib.
let lazyLibraryHeaders = ["/usr/include/cairo", "/usr/include/pango-1.0", "/usr/include/harfbuzz", "/usr/include/freetype2",
                          "/usr/include/pixman-1", "/usr/include/libpng16", "/usr/include/fribidi", "/usr/include/libxml2"]

let package = Package(
    name: "stampcam",
    products: [
        .executable(name: "stampcam", targets: ["stampcam"]),
    ],
    targets: [
        // Cairo, Pango, fontconfig, libmicrohttpd, libqrencode, libgps, libxml2, libcrypto, SQLite and libexif:
        // headers only (see `lazyLibraryHeaders`); CLazyLibraries opens the libraries when a function is first called.
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPango", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CExif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CXML2", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CGPS", providers: [.apt(["libgps-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CHeif"),  // libheif is opened with dlopen when first needed (see its header)
        // Cairo, Pango, fontconfig, libmicrohttpd, libqrencode, libgps, libxml2, libcrypto, SQLite and libexif, opened when first called.
        .target(name: "CLazyLibraries", dependencies: ["CCairo", "CPango", "CGLib", "CMicroHTTPD", "CQREncode", "CGPS", "CXML2", "CCrypto",
                                                       "CSQLite", "CExif"],
                exclude: ["generate.py"], cSettings: [.unsafeFlags(lazyLibraryHeaders.map { "-I" + $0 })]),
        // Loops that must vectorise; optimised in debug builds too, like Imaging.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),

        .target(name: "CPlatform"),  // glibc calls Swift cannot see (sched_getaffinity, pipe2)

        .target(name: "Platform", dependencies: ["CGLib", "CPlatform"]),
        // Optimised in debug builds too: unoptimised, its pixel loops (turning upright, the resampler's
        // taps) run many times slower and every test that loads a photo would wait on them.
        .target(name: "Imaging", dependencies: ["Platform", "CJPEG", "CExif", "CCairo", "CXML2", "CHeif", "CPixels", "CLazyLibraries", "CGLib"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "Templates"),
        .target(name: "Watermark", dependencies: ["Platform", "Imaging", "Templates", "CCairo", "CPango"]),
        .target(name: "Library", dependencies: ["Platform", "Templates", "CGLib", "CCrypto", "CLazyLibraries"]),
        .target(name: "Capture", dependencies: ["Platform", "CV4L2", "Imaging", "Templates"]),
        .target(name: "Location", dependencies: ["Platform", "Templates", "CGPS", "CLazyLibraries"]),
        .target(name: "Catalog", dependencies: ["Platform", "Templates", "CSQLite", "CXML2", "CLazyLibraries"]),
        .target(name: "Session", dependencies: ["Platform", "Imaging", "Templates", "Watermark", "Library", "Capture", "Location", "Catalog"]),
        .target(name: "StampWeb", dependencies: ["Platform", "Imaging", "Templates", "Library", "Capture", "Session",
                                                 "CMicroHTTPD", "CQREncode", "CLazyLibraries"],
                resources: [.embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"),
                            .embedInCode("Assets/app.css"), .embedInCode("Assets/icon.svg")]),
        .target(name: "StampCLI", dependencies: ["Platform", "Imaging", "Templates", "Watermark", "Library", "Capture", "Session",
                                                 "Location", "StampWeb", "Catalog", "CLazyLibraries"]),
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

// Every Swift module that sees Cairo or Pango types, directly or through a module it imports,
// needs their headers.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(lazyLibraryHeaders.flatMap { ["-Xcc", "-I" + $0] })]
}
