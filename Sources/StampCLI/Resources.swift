#if canImport(Glibc)
import Glibc
#endif

/// Where stampcam's data lives: fonts/fonts.conf and templates/. Installed, that is
/// PREFIX/share/stampcam next to PREFIX/bin; in a source checkout, the package root above .build.
public struct Resources: Sendable {
    public let root: String

    public var fontConfig: String { root + "/fonts/fonts.conf" }
    public var templates: String { root + "/templates" }

    public init(root: String) { self.root = root }

    /// `STAMPCAM_DATA` when set, else the installed share folder, else the checkout we were built in.
    public static func locate() -> Resources? {
        if let override = getenv("STAMPCAM_DATA") { return Resources(root: String(cString: override)) }
        guard var directory = executableDirectory() else { return nil }
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

    private static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    private static func isFile(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
