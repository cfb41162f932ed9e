/// A file's path as the kernel has it: bytes, not text. A Linux file name need not be UTF-8
/// (`caf\xe9.jpg` from a Latin-1 USB stick is a valid name), so a path goes to system calls and
/// C libraries (fontconfig, Cairo, SQLite) byte for byte through `withCString`, and to people
/// through `description`, which shows such bytes as `\xNN`.
///
/// Paths held as `String` elsewhere use `PathEncoding`'s lossless form; `init(_:)` and `string`
/// convert between the two without losing a byte.
public struct FilePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// A path from its bytes (argv, readdir, readlink); a NUL ends it, as it would for the kernel.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// A path from its `String` form (`PathEncoding`).
    public init(_ string: String) {
        self.init(bytes: PathEncoding.encode(string))
    }

    public init(stringLiteral string: String) {
        self.init(string)
    }

    /// The `String` form, from which `init(_:)` gives this path back.
    public var string: String { PathEncoding.decode(bytes) }

    /// The path as a person should see it: bytes that are not UTF-8 and control characters as
    /// `\xNN`, so a name cannot break a line or drive the terminal.
    public var description: String { PathEncoding.display(string) }

    public var isEmpty: Bool { bytes.isEmpty }
    public var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

    /// The names between the slashes (`a//b/` has two).
    public var components: [FilePath] {
        bytes.split(separator: UInt8(ascii: "/")).map { FilePath(bytes: $0) }
    }

    /// The last name (`photo.jpg` of `/a/photo.jpg`); nil for `/` or an empty path.
    public var lastComponent: FilePath? { components.last }

    /// The folder the last name is in: `.` for a bare name, `/` for a name in `/`.
    public var removingLastComponent: FilePath {
        var end = bytes.endIndex
        while end > bytes.startIndex && bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else { return isAbsolute ? "/" : "." }
        var folderEnd = slash
        while folderEnd > bytes.startIndex && bytes[folderEnd - 1] == UInt8(ascii: "/") { folderEnd -= 1 }
        return folderEnd == bytes.startIndex ? "/" : FilePath(bytes: bytes[..<folderEnd])
    }

    /// This path with `component` after a slash.
    public func appending(_ component: FilePath) -> FilePath {
        guard !bytes.isEmpty else { return component }
        let slash: [UInt8] = bytes.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]
        return FilePath(bytes: bytes + slash + component.bytes)
    }

    /// Calls `body` with the path as a NUL-terminated C string: the bytes, unchanged.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
