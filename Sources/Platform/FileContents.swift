#if canImport(Glibc)
import Glibc
#endif

/// A regular file's bytes, read whole into memory, and what fstat said of it when it was opened.
/// Read, not mapped: a file cut short while it is read (a card pulled, a copy still being written)
/// gives the bytes that were there, and a decoder says what is missing; a mapping would end the
/// whole process with SIGBUS at the first page past the new end.
public struct FileContents: Sendable {
    public let bytes: [UInt8]
    public let status: FileStatus

    public var count: Int { bytes.count }

    /// Whether these are all the file's bytes (not only the first `limit` of them).
    public var isWhole: Bool { bytes.count >= status.size }

    /// How much of a file `check` sees before the rest is read: one read(2).
    public static let headSize = 64 << 10

    /// Reads the regular file `path` (a FIFO or a device is refused without blocking). `check` is
    /// shown its first bytes (up to `headSize`) and its size before the rest is read, and refuses
    /// the file by throwing: a large file the caller has no use for costs one small read.
    /// At most `limit` bytes are read (`isWhole` says whether that was all of them). Throws
    /// `FileSystem.ReadError`, or what `check` throws.
    public init(path: FilePath, limit: Int = .max, check: (_ head: UnsafeRawBufferPointer, _ size: Int) throws -> Void = { _, _ in }) throws {
        let (fd, status) = try FileSystem.openRegular(path)
        defer { close(fd) }
        try self.init(descriptor: fd, status: status, limit: limit, check: check)
    }

    /// The bytes of `fd` from where it stands, at most `status.size` of them (what the size said
    /// when it was opened: bytes written after that belong to a later read). A file that has
    /// shrunk since ends early: its contents are what was there.
    public init(descriptor fd: Int32, status: FileStatus, limit: Int = .max,
         check: (_ head: UnsafeRawBufferPointer, _ size: Int) throws -> Void = { _, _ in }) throws {
        let size = min(status.size, max(0, limit))
        var head = [UInt8](repeating: 0, count: min(size, Self.headSize))
        let headCount = try head.withUnsafeMutableBytes { try Self.fill($0, from: fd) }
        head.removeSubrange(headCount...)
        try head.withUnsafeBytes { try check($0, status.size) }
        self.status = status
        guard headCount == head.count, headCount < size else {
            bytes = head
            return
        }
        bytes = try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let whole = UnsafeMutableRawBufferPointer(buffer)
            head.withUnsafeBytes { whole.copyMemory(from: $0) }
            initialized = headCount
            initialized += try Self.fill(UnsafeMutableRawBufferPointer(rebasing: whole[headCount...]), from: fd)
        }
    }

    /// The bytes, valid inside `body` only.
    public func withUnsafeBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        let result = bytes.withUnsafeBytes { buffer in Swift.Result { () throws(Failure) in try body(buffer) } }
        return try result.get()
    }

    /// Fills `buffer` from `fd`, stopping early at the end of the file; the bytes read.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, from fd: Int32) throws(FileSystem.ReadError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count: Int
            do {
                count = try Errno.retrying { () throws(Errno) in
                    try Errno.check(Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled))
                }
            } catch {
                throw .system(error)
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
