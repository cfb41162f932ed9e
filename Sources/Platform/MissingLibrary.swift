/// An optional feature's library (HEIF, the web server, live GPS: opened when first used) that
/// could not be loaded. The rest of stampcam works without it.
public struct MissingLibrary: Error, Sendable, Equatable, CustomStringConvertible {
    /// What needs it, as a user would name it: "serve", "reading HEIC photos".
    public var feature: String
    /// The Debian packages that hold the library.
    public var packages: [String]
    /// The loader's words.
    public var reason: String

    public init(feature: String, packages: [String], reason: UnsafePointer<CChar>?) {
        self.feature = feature
        self.packages = packages
        self.reason = reason.map { String(cString: $0) } ?? "cannot be opened"
    }

    public var description: String {
        "\(feature) needs \(packages.joined(separator: " and ")), which cannot be loaded (\(reason))"
    }
}
