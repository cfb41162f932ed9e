import Platform

/// Where stampcam's data lives: fonts/fonts.conf and templates/. Installed, that is
/// PREFIX/share/stampcam next to PREFIX/bin; in a source checkout, the package root above .build.
public struct Resources: Sendable {
    public let root: String

    public var fontConfig: String { root + "/fonts/fonts.conf" }
    public var templates: String { root + "/templates" }

    public init(root: String) { self.root = root }

    /// Where the message catalogues are (LANG/LC_MESSAGES/stampcam.mo): `STAMPCAM_LOCALEDIR` when
    /// set; in a checkout, `.build/locale` (made by `make build`); installed, PREFIX/share/locale.
    public func catalogues(environment: [String: String]) -> String {
        if let override = environment["STAMPCAM_LOCALEDIR"], !override.isEmpty { return override }
        return Self.isFile(root + "/Package.swift") ? root + "/.build/locale" : root + "/../locale"
    }

    /// `STAMPCAM_DATA` when set, else the installed share folder, else the checkout we were built in.
    public static func locate(environment: [String: String]) -> Resources? {
        if let override = environment["STAMPCAM_DATA"], !override.isEmpty { return Resources(root: override) }
        guard let executable = try? FileSystem.readLink("/proc/self/exe") else { return nil }
        var directory = String(executable[..<(executable.lastIndex(of: "/") ?? executable.endIndex)])
        let installed = directory + "/../share/stampcam"
        if isFile(installed + "/fonts/fonts.conf") { return Resources(root: installed) }
        while directory.count > 1 {
            if isFile(directory + "/Package.swift") && isFile(directory + "/fonts/fonts.conf") {
                return Resources(root: directory)
            }
            directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        }
        return nil
    }

    private static func isFile(_ path: String) -> Bool { FileStatus(path: FilePath(path))?.isRegular ?? false }
}
